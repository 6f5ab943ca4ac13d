/* miniAMR's stencil phase on miniAMR's own data layout, side by side: its loop
 * (stencil_calc of stencil.c, 7-point, as it is written there) against imcl's C
 * reference of samples/miniamr/stencil7.imcl run in place through stencil7_rows,
 * one call per variable for all blocks.
 *
 *   rows N BLOCKS VARS STAGES REPS
 *
 * Every block holds VARS variables of (N+2)^3 doubles (a ghost layer one cell wide),
 * each variable a table of tables of rows, every row its own allocation, as
 * miniAMR's allocate() does (bp->array[var][i][j][k], k fastest). A stage fills the
 * face ghost cells of every block from its own interior (reflective, as at the
 * domain's faces; not timed), then runs the stencil on every variable of every
 * block. The loop path is miniAMR's: into a work array, then copied back. imcl's
 * path: one stencil7_rows call from every block's variable into a spare table per
 * block, then the two tables change places (no copy); "imcl+copy" replaces only
 * miniAMR's loop nest: a call per block into the one work array, copied back as
 * miniAMR does. The three meshes start alike and must stay bit-for-bit
 * equal (checked after every stage). Built with -DROWS_OPENCL, a fourth path runs the
 * generated OpenCL through a batch plan (ocl_stage). Prints, per path, the best and
 * the median of REPS runs of STAGES stages in GStencil/s (cell updates per second):
 * one line, "loop_best loop_med imcl_best imcl_med copy_best copy_med [ocl_best
 * ocl_med]". Not a test. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"
#include "stencil7.h"
#ifdef ROWS_OPENCL
#include "ocl/stencil7.h"
#endif

#ifdef ROWS_OPENCL
#define NPATHS 4
#else
#define NPATHS 3
#endif

static int n, nb, nv;

/* a (n+2)^3 variable as miniAMR allocates it: planes of rows, every row malloc'ed */
static double ***alloc_var(void)
{
    double ***a = malloc(sizeof *a * (size_t)(n + 2));
    for (int i = 0; i < n + 2; i++) {
        a[i] = malloc(sizeof **a * (size_t)(n + 2));
        for (int j = 0; j < n + 2; j++)
            a[i][j] = calloc((size_t)(n + 2), sizeof ***a);
    }
    return a;
}

static void free_var(double ***a)
{
    for (int i = 0; i < n + 2; i++) {
        for (int j = 0; j < n + 2; j++)
            free(a[i][j]);
        free(a[i]);
    }
    free(a);
}

/* the face ghost cells of one variable from the interior next to them */
static void ghosts(double ***a)
{
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            a[0][i][j] = a[1][i][j];
            a[n + 1][i][j] = a[n][i][j];
            a[i][0][j] = a[i][1][j];
            a[i][n + 1][j] = a[i][n][j];
            a[i][j][0] = a[i][j][1];
            a[i][j][n + 1] = a[i][j][n];
        }
}

/* miniAMR's stencil_calc for one variable of every block (stencil 7) */
static void loop_stage(double ****blk, double ***work, int var)
{
    for (int in = 0; in < nb; in++) {
        double ***array = blk[in * nv + var];
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                for (int k = 1; k <= n; k++)
                    work[i][j][k] = (array[i-1][j  ][k  ] +
                                     array[i  ][j-1][k  ] +
                                     array[i  ][j  ][k-1] +
                                     array[i  ][j  ][k  ] +
                                     array[i  ][j  ][k+1] +
                                     array[i  ][j+1][k  ] +
                                     array[i+1][j  ][k  ])/7.0;
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                for (int k = 1; k <= n; k++)
                    array[i][j][k] = work[i][j][k];
    }
}

/* imcl: one call for every block's variable var, into spare tables, which then
 * change places with the blocks' (no copy) */
static int imcl_stage(double ****blk, double ****spare, double ****in, int var)
{
    for (int b = 0; b < nb; b++)
        in[b] = blk[b * nv + var];
    int rc = stencil7_rows(nb, in, n, n, n, spare, n, n, n);
    for (int b = 0; b < nb; b++) {
        blk[b * nv + var] = spare[b];
        spare[b] = in[b];
    }
    return rc;
}

/* imcl in miniAMR's loop nest only: a call per block into the one work array, then
 * copied back as miniAMR does */
static int imcl_copy_stage(double ****blk, double ***work, int var)
{
    int rc = stencil7_OK;
    for (int b = 0; b < nb && rc == stencil7_OK; b++) {
        double ***array = blk[b * nv + var];
        rc = stencil7_rows(1, &array, n, n, n, &work, n, n, n);
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                for (int k = 1; k <= n; k++)
                    array[i][j][k] = work[i][j][k];
    }
    return rc;
}

#ifdef ROWS_OPENCL
/* OpenCL through a batch plan (PoCL: the buffers mapped into host memory): every
 * block's variable var from its rows into the plan, one launch for all blocks, and
 * the results straight back into the blocks' rows (their ghost cells come back as
 * the plan's zeros, refilled by the next ghost exchange) */
static int ocl_stage(ocl_stencil7_plan *p, double ****blk, double ****in, int var)
{
    for (int b = 0; b < nb; b++)
        in[b] = blk[b * nv + var];
    int rc = ocl_stencil7_plan_upload_rows_array(p, 0, nb, in);
    if (rc == ocl_stencil7_OK)
        rc = ocl_stencil7_plan_launch_batch(p, nb);
    if (rc == ocl_stencil7_OK)
        rc = ocl_stencil7_plan_download_rows_work(p, 0, nb, in);
    return rc;
}
#endif

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: rows N BLOCKS VARS STAGES REPS\n");
        return 2;
    }
    n = atoi(argv[1]), nb = atoi(argv[2]), nv = atoi(argv[3]);
    int stages = atoi(argv[4]), reps = atoi(argv[5]);
    if (n < 1 || nb < 1 || nv < 1 || stages < 1 || reps < 1 || reps > 99)
        return 2;
    /* the meshes: loop, imcl (swap), imcl (copy back)[, OpenCL] */
    double ****mesh[NPATHS], ****spare = malloc(sizeof *spare * (size_t)nb), ****in = malloc(sizeof *in * (size_t)nb);
    for (int m = 0; m < NPATHS; m++)
        mesh[m] = malloc(sizeof *mesh[m] * (size_t)(nb * nv));
    for (int b = 0; b < nb; b++)
        spare[b] = alloc_var();
    double ***work = alloc_var();
    unsigned long long s = 12345;
    for (int g = 0; g < nb * nv; g++)
        for (int m = 0; m < NPATHS; m++)
            mesh[m][g] = alloc_var();
    for (int g = 0; g < nb * nv; g++)
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                for (int k = 1; k <= n; k++) {
                    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                    double v = (double)(s >> 11) / 9007199254740992.0;
                    for (int m = 0; m < NPATHS; m++)
                        mesh[m][g][i][j][k] = v;
                }
    double t[NPATHS][99];
    for (int r = 0; r < reps; r++)
        for (int m = 0; m < NPATHS; m++)
            t[m][r] = 0;
#ifdef ROWS_OPENCL
    ocl_stencil7_plan *plan = NULL;
    int prc = ocl_stencil7_plan_create_batch(&plan, nb, n, n, n, n, n, n);
    if (prc != ocl_stencil7_OK) {
        fprintf(stderr, "rows: plan_create_batch: %s\n%s", ocl_stencil7_strerror(prc), ocl_stencil7_build_log());
        return 1;
    }
#endif
    for (int r = 0; r < reps; r++) {
        for (int st = 0; st < stages; st++) {
            for (int m = 0; m < NPATHS; m++)
                for (int g = 0; g < nb * nv; g++)
                    ghosts(mesh[m][g]);
            for (int m = 0; m < NPATHS; m++) {
                double t0 = now();
                for (int var = 0; var < nv; var++) {
                    int rc = stencil7_OK;
                    if (m == 0)
                        loop_stage(mesh[0], work, var);
                    else if (m == 1)
                        rc = imcl_stage(mesh[1], spare, in, var);
                    else if (m == 2)
                        rc = imcl_copy_stage(mesh[2], work, var);
#ifdef ROWS_OPENCL
                    else
                        rc = ocl_stage(plan, mesh[3], in, var);
#endif
                    if (rc != stencil7_OK) {
                        fprintf(stderr, "rows: path %d failed (%d)\n", m, rc);
                        return 1;
                    }
                }
                t[m][r] += now() - t0;
            }
            for (int g = 0; g < nb * nv; g++)
                for (int i = 1; i <= n; i++)
                    for (int j = 1; j <= n; j++)
                        for (int m = 1; m < NPATHS; m++)
                            if (memcmp(&mesh[0][g][i][j][1], &mesh[m][g][i][j][1], sizeof(double) * (size_t)n)) {
                                fprintf(stderr, "rows: path %d differs from the loop at stage %d\n", m, st);
                                return 1;
                            }
        }
    }
#ifdef ROWS_OPENCL
    ocl_stencil7_plan_destroy(plan);
    ocl_stencil7_release();
#endif
    double updates = (double)nb * nv * stages * (double)n * n * n;
    for (int m = 0; m < NPATHS; m++) {
        qsort(t[m], (size_t)reps, sizeof(double), cmp);
        printf("%s%.4f %.4f", m ? " " : "", updates / t[m][0] * 1e-9, updates / t[m][reps / 2] * 1e-9);
    }
    printf("\n");
    for (int m = 0; m < NPATHS; m++) {
        for (int g = 0; g < nb * nv; g++)
            free_var(mesh[m][g]);
        free(mesh[m]);
    }
    for (int b = 0; b < nb; b++)
        free_var(spare[b]);
    free(spare);
    free_var(work);
    free(in);
    return 0;
}
