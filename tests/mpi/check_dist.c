/* The distributed plan of one kernel of this folder (imcl --mpi -b c), on the ranks it
 * runs on: rank 0 fills every array of the whole grid, scatters them, the ranks launch
 * STEPS steps with a swap after each, gather, and rank 0 compares every array bit for
 * bit with the single-process plan (PK_plan_*) doing the same; every rank's part
 * (PK_dist_local_*) lies where the decomposition says, the parts tile the grid; errors
 * come back alike on every rank (a part thinner than the ghost layer, a NULL plan, a
 * swap of arrays of different kinds).
 *
 *   mpirun -np N check_dist W H D STEPS [PX PY [PZ]]   (D = 1 in 2D; PX...: the process
 *                                                     grid, through a Cartesian comm)
 *
 * Built with -DHEAT3D, -DBOX2D, -DUPWIND2D or -DMIXED3D, against the kernel's generated files. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(HEAT3D)
#include "heat3d.h"
#define K(x) heat3d_##x
#define DIMS 3
/* each array: name, element type, whole-grid (1) or fixed-size of n elements (0, n) */
#define ARRAYS(X) X(a, double, 1, 0) X(b, double, 1, 0)
#define EXTENTS(W, H, D) W, H, D, W, H, D
#define SCALARS , 0.1
#define IN a
#define OUT b
#define GHOST 1
#elif defined(BOX2D)
#include "box2d.h"
#define K(x) box2d_##x
#define DIMS 2
#define ARRAYS(X) X(u, float, 1, 0) X(v, float, 1, 0)
#define EXTENTS(W, H, D) W, H, W, H
#define SCALARS
#define IN u
#define OUT v
#define GHOST 1
#elif defined(UPWIND2D)
#include "upwind2d.h"
#define K(x) upwind2d_##x
#define DIMS 2
#define ARRAYS(X) X(u, double, 1, 0) X(v, double, 1, 0)
#define EXTENTS(W, H, D) W, H, W, H
#define SCALARS , 0.375
#define IN u
#define OUT v
#define GHOST 2
#else
#include "mixed3d.h"
#define K(x) mixed3d_##x
#define DIMS 3
#define ARRAYS(X) X(a, float, 1, 0) X(m, float, 1, 0) X(o, float, 1, 0) X(w, float, 0, 3)
#define EXTENTS(W, H, D) W, H, D, W, H, D, W, H, D
#define SCALARS , 0.25f
#define IN a
#define OUT o
#define GHOST 2
#endif

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define PLAN_ID(a) XCAT(K(plan_array_), a)

static int rank, failures;

static void fail(const char *what)
{
    fprintf(stderr, "rank %d: FAIL: %s\n", rank, what);
    failures++;
}

static void expect(int got, int want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "rank %d: FAIL: %s: got %d, expected %d\n", rank, what, got, want);
        failures++;
    }
}

/* A deterministic value for element i of array number `which`, none zero or alike. */
static double value(int which, size_t i)
{
    unsigned x = (unsigned)(i * 2654435761u) ^ (unsigned)(which * 40503u + 17u);
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return (double)(x % 2001u) / 1000.0 - 1.0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 5) {
        fprintf(stderr, "usage: check_dist W H D STEPS [PX PY [PZ]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int W = atoi(argv[1]), H = atoi(argv[2]), D = atoi(argv[3]), STEPS = atoi(argv[4]);
    const size_t cells = (size_t)W * H * D;
    MPI_Comm comm = MPI_COMM_WORLD;
    if (argc > 5) {
        int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
        for (int k = 0; k < DIMS && 5 + k < argc; k++)
            dims[k] = atoi(argv[5 + k]);
        MPI_Cart_create(MPI_COMM_WORLD, DIMS, dims, periods, 0, &comm);
    }

    /* the whole arrays on rank 0: the inputs, and what the gather brings back */
    int which = 0;
#define DECLARE(name, T, grid, n)                                                        \
    T *name##_0 = NULL, *name##_dist = NULL;                                              \
    const size_t name##_n = grid ? cells : (size_t)(n);                                   \
    if (rank == 0) {                                                                      \
        name##_0 = malloc(sizeof(T) * name##_n);                                          \
        name##_dist = malloc(sizeof(T) * name##_n);                                       \
        for (size_t i = 0; i < name##_n; i++)                                             \
            name##_0[i] = (T)value(which, i);                                             \
    }                                                                                     \
    which++;
    ARRAYS(DECLARE)

    K(dist) *d = NULL;
    expect(K(dist_create)(&d, comm, EXTENTS(W, H, D)), K(OK), "create");
    if (!d) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
#define SCATTER(name, T, grid, n) expect(K(dist_scatter_##name)(d, name##_0), K(OK), "scatter " #name);
    ARRAYS(SCATTER)
    for (int s = 0; s < STEPS; s++) {
        expect(K(dist_launch)(d SCALARS), K(OK), "launch");
        expect(K(dist_swap)(d, PLAN_ID(IN), PLAN_ID(OUT)), K(OK), "swap");
    }
#define GATHER(name, T, grid, n) expect(K(dist_gather_##name)(d, name##_dist), K(OK), "gather " #name);
    ARRAYS(GATHER)

    /* the parts: where the decomposition puts them, tiling the grid */
    int offset[3], extent[3], storage[3];
    XCAT(K(dist_local_), IN)(d, offset, extent, storage);
    long long volume = (long long)extent[0] * extent[1] * extent[2], total = 0;
    MPI_Allreduce(&volume, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    expect((int)(total == (long long)cells), 1, "the parts tile the grid");
    for (int k = 0; k < 3; k++)
        if (offset[k] < 0 || offset[k] + extent[k] > (k == 0 ? W : k == 1 ? H : D) || storage[k] < extent[k])
            fail("a part outside the grid");

    /* errors, alike on every rank */
    expect(K(dist_launch)(NULL SCALARS), K(ERR_ARGUMENT), "launch of no plan");
    expect(K(dist_swap)(d, PLAN_ID(IN), 99), K(ERR_ARGUMENT), "swap of no array");
    /* a grid of one point: a part for one rank only, and only where the ghost layer is 1 */
    K(dist) *thin = NULL;
    const int thin_ok = size == 1 && GHOST == 1;
    expect(K(dist_create)(&thin, comm, EXTENTS(1, 1, 1)), thin_ok ? K(OK) : K(ERR_ARGUMENT), "create of one point");
    expect(thin != NULL, thin_ok, "a plan exactly when create succeeds");
    K(dist_destroy)(thin);
    K(dist_destroy)(d);

    /* the single-process plan, on rank 0 */
    if (rank == 0) {
        K(plan) *p = NULL;
        expect(K(plan_create)(&p, EXTENTS(W, H, D)), K(OK), "plan_create");
#define UPLOAD(name, T, grid, n) expect(K(plan_upload_##name)(p, name##_0), K(OK), "upload " #name);
        ARRAYS(UPLOAD)
        for (int s = 0; s < STEPS; s++) {
            expect(K(plan_launch)(p SCALARS), K(OK), "plan_launch");
            expect(K(plan_swap)(p, PLAN_ID(IN), PLAN_ID(OUT)), K(OK), "plan_swap");
        }
#define COMPARE(name, T, grid, n)                                                         \
        expect(K(plan_download_##name)(p, name##_0), K(OK), "download " #name);           \
        for (size_t i = 0; i < name##_n; i++)                                             \
            if (memcmp(&name##_0[i], &name##_dist[i], sizeof(T)) != 0) {                  \
                fprintf(stderr, "FAIL: %s[%zu] (x %zu, y %zu, z %zu): %.17g distributed, %.17g in one " \
                        "process\n", #name, i, i % (size_t)W, i / W % H, i / W / H,       \
                        (double)name##_dist[i], (double)name##_0[i]);                    \
                failures++;                                                               \
                break;                                                                    \
            }
        ARRAYS(COMPARE)
        K(plan_destroy)(p);
    }
#define FREE(name, T, grid, n) free(name##_0); free(name##_dist);
    ARRAYS(FREE)

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %d ranks, %dx%dx%d, %d steps: %s\n", argv[0], size, W, H, D, STEPS, all ? "FAIL" : "ok");
    if (comm != MPI_COMM_WORLD)
        MPI_Comm_free(&comm);
    MPI_Finalize();
    return all ? 1 : 0;
}
