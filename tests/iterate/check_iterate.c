/* PK_plan_iterate of one kernel of this folder, on the plan of one backend (the C
 * reference, OpenCL or CUDA: the kernel generated with the prefix it_ into the folder
 * given with -I): for 0 to 8 steps, iterate gives bit for bit what launches with swaps
 * between them give (both arrays), and both match bit for bit an oracle computed here
 * apart from imcl (CUDA on a GPU built with --fmad=false: docs/language.md); a second
 * iterate after a swap goes on where the first stopped; a selection of blocks is
 * honoured; a negative count and a NULL plan are refused.
 *
 *   check_iterate W H D COUNT      (D = 1 for star2d; COUNT blocks in one batch plan)
 *
 * Built with -DHEAT3D (heat3d.imcl) or -DSTAR2D (star2d.imcl). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HEAT3D
#include "heat3d.h"
typedef double T;
#define P(x) it_heat3d_##x
#define PA(x) it_heat3d_plan_##x##_a
#define PB(x) it_heat3d_plan_##x##_b
#define SCALAR 0.1
#else
#include "star2d.h"
typedef float T;
#define P(x) it_star2d_##x
#define PA(x) it_star2d_plan_##x##_u
#define PB(x) it_star2d_plan_##x##_v
#define SCALAR 0.5f
#endif

static int W, H, D, COUNT, failures;

static size_t cells(void)
{
    return (size_t)W * H * D;
}

#ifdef HEAT3D
/* a's value at (x, y, z): 1 outside the grid (the constant boundary) */
static double at(const double *a, int x, int y, int z)
{
    if (x < 0 || y < 0 || z < 0 || x >= W || y >= H || z >= D)
        return 1.0;
    return a[((size_t)z * H + y) * W + x];
}

static void step(const T *a, T *b)
{
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                b[((size_t)z * H + y) * W + x] = at(a, x, y, z) + SCALAR * (at(a, x - 1, y, z) + at(a, x + 1, y, z)
                    + at(a, x, y - 1, z) + at(a, x, y + 1, z) + at(a, x, y, z - 1) + at(a, x, y, z + 1)
                    - 6.0 * at(a, x, y, z));
}
#else
static int clamp(int i, int n)
{
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* u's value at (x, y): the nearest point of the grid (the clamped boundary) */
static float at(const float *u, int x, int y)
{
    return u[(size_t)clamp(y, H) * W + clamp(x, W)];
}

static void step(const T *u, T *v)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0.0f;
            for (int k = 1; k <= 2; k++)
                s += at(u, x - k, y) + at(u, x + k, y) + at(u, x, y - k) + at(u, x, y + k);
            v[(size_t)y * W + x] = SCALAR * at(u, x, y) + (1.0f - SCALAR) * 0.125f * s;
        }
}
#endif

static void fail(const char *what)
{
    fprintf(stderr, "check_iterate %dx%dx%d, %d blocks: %s\n", W, H, D, COUNT, what);
    failures++;
}

/* The plan's two arrays after `run` from the starting values: every block in a, b. */
typedef int (*Run)(P(plan) *p, int n);

static int run_iterate(P(plan) *p, int n)
{
    return P(plan_iterate)(p, n, SCALAR);
}

static int run_launches(P(plan) *p, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = i ? P(plan_swap)(p, PA(array), PB(array)) : 0;
        if (rc == 0)
            rc = P(plan_launch)(p, SCALAR);
        if (rc)
            return rc;
    }
    return 0;
}

static void start(P(plan) *p, int seed)
{
    size_t n = cells() * COUNT;
    T *a = malloc(n * sizeof(T)), *b = malloc(n * sizeof(T));
    for (size_t i = 0; i < n; i++) {
        a[i] = (T)((i * 7919 + (size_t)seed * 104729) % 1024) / (T)256;
        b[i] = (T)-1;
    }
    if (PA(upload)(p, a) || PB(upload)(p, b))
        fail("upload refused");
    free(a);
    free(b);
}

static void result(P(plan) *p, T *a, T *b)
{
    if (PA(download)(p, a) || PB(download)(p, b))
        fail("download refused");
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: check_iterate W H D COUNT\n");
        return 2;
    }
    W = atoi(argv[1]), H = atoi(argv[2]), D = atoi(argv[3]), COUNT = atoi(argv[4]);
    size_t n = cells() * COUNT;
    T *la = malloc(n * sizeof(T)), *lb = malloc(n * sizeof(T));
    T *ia = malloc(n * sizeof(T)), *ib = malloc(n * sizeof(T));
    T *x = malloc(n * sizeof(T)), *y = malloc(n * sizeof(T));
    P(plan) *p = NULL;
#ifdef HEAT3D
    if (P(plan_create_batch)(&p, COUNT, W, H, D, W, H, D)) {
#else
    if (P(plan_create_batch)(&p, COUNT, W, H, W, H)) {
#endif
        fail("plan_create_batch refused");
        return 1;
    }
    static const int counts[] = {0, 1, 2, 3, 5, 8};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int steps = counts[c];
        char what[160];
        start(p, 1);
        if (run_launches(p, steps))
            fail("a launch or swap refused");
        result(p, la, lb);
        start(p, 1);
        if (run_iterate(p, steps))
            fail("plan_iterate refused");
        result(p, ia, ib);
        snprintf(what, sizeof what, "%d steps: iterate and the launches with swaps differ", steps);
        if (memcmp(la, ia, n * sizeof(T)) || memcmp(lb, ib, n * sizeof(T)))
            fail(what);
        /* the oracle, block by block: after the steps b holds the last, a the one before */
        start(p, 1);
        result(p, x, y);
        for (int blk = 0; blk < COUNT; blk++) {
            T *a = x + blk * cells(), *b = y + blk * cells();
            for (int s = 0; s < steps; s++) {
                if (s) {
                    T *t = a;
                    a = b, b = t;
                }
                step(a, b);
            }
            /* (a and b are this block's, whichever buffer they point into now) */
            for (size_t i = 0; i < cells(); i++) {
                double ga = ia[blk * cells() + i], gb = ib[blk * cells() + i];
                if (ga != a[i] || gb != b[i]) {
                    snprintf(what, sizeof what, "%d steps: block %d, cell %zu: a %a b %a, oracle a %a b %a",
                             steps, blk, i, ga, gb, (double)a[i], (double)b[i]);
                    fail(what);
                    break;
                }
            }
        }
    }
    /* going on: 3 steps, a swap, 5 steps are the same as 8 */
    start(p, 2);
    if (run_iterate(p, 8))
        fail("plan_iterate refused");
    result(p, la, lb);
    start(p, 2);
    if (run_iterate(p, 3) || P(plan_swap)(p, PA(array), PB(array)) || run_iterate(p, 5))
        fail("plan_iterate or swap refused");
    result(p, ia, ib);
    if (memcmp(la, ia, n * sizeof(T)) || memcmp(lb, ib, n * sizeof(T)))
        fail("3 steps, a swap and 5 steps differ from 8 steps");
    /* a selection: the last block only */
    const int last = COUNT - 1;
    if (P(plan_select)(p, 1, &last))
        fail("plan_select refused");
    start(p, 3);
    run_launches(p, 4);
    result(p, la, lb);
    start(p, 3);
    run_iterate(p, 4);
    result(p, ia, ib);
    if (memcmp(la, ia, n * sizeof(T)) || memcmp(lb, ib, n * sizeof(T)))
        fail("4 steps of the last block: iterate and the launches with swaps differ");
    if (P(plan_iterate)(p, -1, SCALAR) != P(ERR_ARGUMENT) || P(plan_iterate)(NULL, 1, SCALAR) != P(ERR_ARGUMENT))
        fail("a negative count or a NULL plan is not refused");
    P(plan_destroy)(p);
    free(la), free(lb), free(ia), free(ib), free(x), free(y);
    if (!failures)
        printf("check_iterate %dx%dx%d, %d blocks: ok\n", W, H, D, COUNT);
    return failures != 0;
}
