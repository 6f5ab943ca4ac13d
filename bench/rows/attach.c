/* bench/rows.sh's second program: miniAMR's stencil phase on blocks that lie in dense host
 * arrays (each variable's NB blocks one after the other, every block (N+2)^3 doubles,
 * ghost layer included), timed four ways side by side on the same data:
 *   0. miniAMR's loop (stencil_calc, 7-point: into one work block, copied back), one
 *      thread, as each MPI rank runs it;
 *   1. imcl's C reference through its batch plan, the variable and a spare attached
 *      (PK_plan_attach: the plan computes in them), OpenMP threads as OMP_NUM_THREADS;
 *   2. the generated OpenCL through batch plans, one per variable, each attached once
 *      to its variable and a spare of its own (on a device with host-unified memory,
 *      PoCL's: no transfer at all), the two swapped after every launch;
 *   3. the same OpenCL plan with whole-array transfers instead (upload the variable,
 *      launch, download the result into it).
 * Paths 1 and 2 leave each result in the spare, which then trades places with the
 * variable (pointers only; path 2's plans swap the two arrays with it). Before every stage the face ghost cells of every variable
 * are refilled from the interior (not timed); after it the four meshes are compared
 * bit for bit. Prints, per path, the best and the median of REPS runs of STAGES
 * stages in GStencil/s, then those of path 2's kernel time alone (the plans'
 * profiling): "loop_b loop_m ref_b ref_m ocl_b ocl_m copy_b copy_m kern_b kern_m".
 * Not a test. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"
#include "ocl/stencil7.h"
#include "stencil7.h"

enum { PATHS = 4, KERNEL = PATHS };
static int n, nb, nv;
static size_t bs; /* the elements of one block's storage */

#define AT(b, z, y, x) ((size_t)(b) * bs + ((size_t)(z) * (size_t)(n + 2) + (size_t)(y)) * (size_t)(n + 2) + (size_t)(x))

static double *alloc(size_t elems)
{
    /* 64-byte aligned, as OpenCL's CL_MEM_USE_HOST_PTR prefers */
    double *p = aligned_alloc(64, (elems * sizeof *p + 63) / 64 * 64);
    if (!p) {
        fprintf(stderr, "attach: out of memory\n");
        exit(1);
    }
    return p;
}

/* the ghost cells of every block from the interior cell next to them */
static void ghosts(double *a)
{
    for (int b = 0; b < nb; b++)
        for (int z = 0; z < n + 2; z++)
            for (int y = 0; y < n + 2; y++)
                for (int x = 0; x < n + 2; x++) {
                    if (x > 0 && y > 0 && z > 0 && x <= n && y <= n && z <= n)
                        continue;
                    int cx = x < 1 ? 1 : x > n ? n : x, cy = y < 1 ? 1 : y > n ? n : y, cz = z < 1 ? 1 : z > n ? n : z;
                    a[AT(b, z, y, x)] = a[AT(b, cz, cy, cx)];
                }
}

/* miniAMR's stencil_calc for one variable of every block: into work, copied back */
static void loop_var(double *a, double *work)
{
    for (int b = 0; b < nb; b++) {
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                for (int k = 1; k <= n; k++)
                    work[AT(0, i, j, k)] = (a[AT(b, i - 1, j, k)] + a[AT(b, i, j - 1, k)] + a[AT(b, i, j, k - 1)] +
                                            a[AT(b, i, j, k)] + a[AT(b, i, j, k + 1)] + a[AT(b, i, j + 1, k)] +
                                            a[AT(b, i + 1, j, k)]) / 7.0;
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                memcpy(&a[AT(b, i, j, 1)], &work[AT(0, i, j, 1)], (size_t)n * sizeof *a);
    }
}

#define CHECK(call, what)                                                              \
    do {                                                                               \
        int rc_ = (call);                                                              \
        if (rc_) {                                                                     \
            fprintf(stderr, "attach: %s: error %d\n%s", what, rc_, ocl_stencil7_build_log()); \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: attach N BLOCKS VARS STAGES REPS\n");
        return 2;
    }
    n = atoi(argv[1]), nb = atoi(argv[2]), nv = atoi(argv[3]);
    int stages = atoi(argv[4]), reps = atoi(argv[5]);
    if (n < 1 || nb < 1 || nv < 1 || stages < 1 || reps < 1 || reps > 99)
        return 2;
    bs = (size_t)(n + 2) * (size_t)(n + 2) * (size_t)(n + 2);
    const size_t elems = bs * (size_t)nb;
    double **mesh[PATHS], *spare[PATHS], **spares = malloc(sizeof *spares * (size_t)nv), *work = alloc(bs);
    for (int m = 0; m < PATHS; m++) {
        mesh[m] = malloc(sizeof *mesh[m] * (size_t)nv);
        spare[m] = alloc(elems);
        for (int v = 0; v < nv; v++) {
            mesh[m][v] = alloc(elems);
            for (size_t i = 0; i < elems; i++)
                mesh[m][v][i] = (double)((i * 7 + (size_t)v) % 101) / 8.0;
        }
    }
    stencil7_plan *ref;
    ocl_stencil7_plan *copy, **ocl = malloc(sizeof *ocl * (size_t)nv);
    CHECK(stencil7_plan_create_batch(&ref, nb, n, n, n, n, n, n), "C plan_create_batch");
    CHECK(ocl_stencil7_plan_create_batch(&copy, nb, n, n, n, n, n, n), "OpenCL plan_create_batch");
    for (int v = 0; v < nv; v++) {
        spares[v] = alloc(elems);
        CHECK(ocl_stencil7_plan_create_batch(&ocl[v], nb, n, n, n, n, n, n), "OpenCL plan_create_batch");
        CHECK(ocl_stencil7_plan_attach(ocl[v], ocl_stencil7_plan_array_array, mesh[2][v]), "OpenCL attach");
        CHECK(ocl_stencil7_plan_attach(ocl[v], ocl_stencil7_plan_array_work, spares[v]), "OpenCL attach");
    }
    double t[PATHS + 1][99];
    for (int r = 0; r < reps; r++) {
        for (int m = 0; m <= PATHS; m++)
            t[m][r] = 0.0;
        for (int st = 0; st < stages; st++) {
            for (int m = 0; m < PATHS; m++)
                for (int v = 0; v < nv; v++)
                    ghosts(mesh[m][v]);
            for (int m = 0; m < PATHS; m++) {
                const double t0 = now();
                for (int v = 0; v < nv; v++) {
                    double *a = mesh[m][v];
                    if (m == 0) {
                        loop_var(a, work);
                        continue;
                    }
                    if (m == 3) {
                        CHECK(ocl_stencil7_plan_upload_array(copy, a), "upload");
                        CHECK(ocl_stencil7_plan_launch_batch(copy, nb), "launch");
                        CHECK(ocl_stencil7_plan_download_work(copy, a), "download");
                        continue;
                    }
                    /* the result lands in the spare, which becomes the variable (the
                     * ghost layer comes from the next exchange) */
                    if (m == 1) {
                        CHECK(stencil7_plan_attach(ref, stencil7_plan_array_array, a), "C attach");
                        CHECK(stencil7_plan_attach(ref, stencil7_plan_array_work, spare[m]), "C attach");
                        CHECK(stencil7_plan_launch_batch(ref, nb), "C launch");
                        mesh[m][v] = spare[m];
                        spare[m] = a;
                    } else {
                        CHECK(ocl_stencil7_plan_launch_batch(ocl[v], nb), "OpenCL launch");
                        t[KERNEL][r] += ocl_stencil7_plan_kernel_ms(ocl[v]) * 1e-3;
                        CHECK(ocl_stencil7_plan_swap(ocl[v], ocl_stencil7_plan_array_array,
                                                     ocl_stencil7_plan_array_work), "OpenCL swap");
                        mesh[m][v] = spares[v];
                        spares[v] = a;
                    }
                }
                t[m][r] += now() - t0;
            }
            for (int m = 1; m < PATHS; m++)
                for (int v = 0; v < nv; v++)
                    for (int b = 0; b < nb; b++)
                        for (int i = 1; i <= n; i++)
                            for (int j = 1; j <= n; j++)
                                if (memcmp(&mesh[0][v][AT(b, i, j, 1)], &mesh[m][v][AT(b, i, j, 1)],
                                           (size_t)n * sizeof(double))) {
                                    fprintf(stderr, "attach: path %d differs from the loop: var %d block %d\n", m, v, b);
                                    return 1;
                                }
        }
    }
    const double pts = (double)n * n * n * nb * nv * stages;
    for (int m = 0; m <= PATHS; m++) {
        qsort(t[m], (size_t)reps, sizeof t[m][0], cmp);
        printf("%s%.4f %.4f", m ? " " : "", pts / t[m][0] * 1e-9, pts / t[m][reps / 2] * 1e-9);
    }
    printf("\n");
    /* the plans first: they computed in the memory freed below */
    stencil7_plan_destroy(ref);
    ocl_stencil7_plan_destroy(copy);
    for (int v = 0; v < nv; v++) {
        ocl_stencil7_plan_destroy(ocl[v]);
        free(spares[v]);
    }
    free(ocl);
    free(spares);
    for (int m = 0; m < PATHS; m++) {
        for (int v = 0; v < nv; v++)
            free(mesh[m][v]);
        free(mesh[m]);
        free(spare[m]);
    }
    free(work);
    return 0;
}
