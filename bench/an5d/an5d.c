/* bench/an5d/an5d.c: bench/an5d/run.sh's program. For each kernel named on the command
 * line, in one process on one random input: the hand loop (loops.c), imcl's C backend (the
 * one-shot c_K of K_ref.c, OpenMP), imcl's OpenCL default configuration (ocl_K) and, when
 * run.sh found bench/an5d/best/K.json, the OpenCL configuration in it (best_K), both
 * through their plans. Every variant's output must equal the hand loop's (floats within
 * 1e-5, doubles within 1e-12 of the largest magnitude) before anything is timed; then the
 * copy bandwidth (a plain OpenMP copy of the array) and each variant, best of REPS, the
 * variants alternating in each repetition (OpenCL: the plan's kernel time). The arrays of
 * the copy, the hand loop and the C backend are in huge pages where Linux has them, as
 * the OpenCL plans' own are (docs/performance.md, "Huge pages for a plan's own memory"):
 * in 4 KiB pages a variant's speed changed by up to 1.6x from one process to the next.
 *
 *   an5d [-2 N2] [-3 N3] [-r REPS] [--skip ocl|best]... [--warm ocl|best] KERNEL...
 *
 * 2D kernels run on N2 x N2 points (default 4096), 3D ones on N3^3 (default 256). Per
 * kernel it prints one line on stdout,
 *   KERNEL DIMS N COPY_GB/S HAND C OCL BEST      (GStencil/s; "-" for a variant not run)
 * and the check on stderr. --warm V only builds variant V's program and launches it once
 * on a grid of the same width (PoCL keeps what it compiled in its cache), so that run.sh
 * can bound the build time. Exit status: 0, or 1 when a check or a call failed. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE, which -std=c11 hides */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "loops.h"
#include "an5d_list.h" /* written by run.sh: the generated headers and AN5D_LIST(X) */

/* a plan of one configuration, through void pointers */
typedef struct {
    int (*create)(void **plan, const int n[3]);
    int (*upload_in)(void *plan, const void *host);
    int (*upload_out)(void *plan, const void *host);
    int (*launch)(void *plan);
    double (*kernel_ms)(const void *plan);
    int (*download_out)(void *plan, void *host);
    void (*destroy)(void *plan);
    const char *(*strerror)(int rc);
    const char *(*build_log)(void);
} PlanOps;

typedef struct {
    const char *name;
    int dims;
    size_t elem; /* sizeof(float) or sizeof(double) */
    void (*hand)(const void *in, void *out, const int n[3]);
    int (*cref)(const void *in, void *out, const int n[3]);
    const char *(*cref_strerror)(int rc);
    const PlanOps *ocl, *best; /* best: NULL without best/K.json */
} Kernel;

#define EXT2(n) n[0], n[1]
#define EXT3(n) n[0], n[1], n[2]
#define EXT_(D, n) EXT##D(n)
#define EXT(D, n) EXT_(D, n)

#define PLAN_OPS(P, K, D)                                                                       \
    static int P##K##_o_create(void **plan, const int n[3])                                     \
    {                                                                                           \
        return P##K##_plan_create((P##K##_plan **)plan, EXT(D, n), EXT(D, n));                  \
    }                                                                                           \
    static int P##K##_o_upload_in(void *plan, const void *host)                                 \
    {                                                                                           \
        return P##K##_plan_upload_in(plan, host);                                               \
    }                                                                                           \
    static int P##K##_o_upload_out(void *plan, const void *host)                                \
    {                                                                                           \
        return P##K##_plan_upload_out(plan, host);                                              \
    }                                                                                           \
    static int P##K##_o_launch(void *plan)                                                      \
    {                                                                                           \
        return P##K##_plan_launch(plan);                                                        \
    }                                                                                           \
    static double P##K##_o_kernel_ms(const void *plan)                                          \
    {                                                                                           \
        return P##K##_plan_kernel_ms(plan);                                                     \
    }                                                                                           \
    static int P##K##_o_download_out(void *plan, void *host)                                    \
    {                                                                                           \
        return P##K##_plan_download_out(plan, host);                                            \
    }                                                                                           \
    static void P##K##_o_destroy(void *plan)                                                    \
    {                                                                                           \
        P##K##_plan_destroy(plan);                                                              \
    }                                                                                           \
    static const PlanOps P##K##_ops = {P##K##_o_create,   P##K##_o_upload_in,                   \
                                       P##K##_o_upload_out, P##K##_o_launch,                    \
                                       P##K##_o_kernel_ms, P##K##_o_download_out,               \
                                       P##K##_o_destroy,  P##K##_strerror,                      \
                                       P##K##_build_log};

#define BEST_DEF0(K, D)
#define BEST_DEF1(K, D) PLAN_OPS(best_, K, D)
#define BEST_DEF_(B, K, D) BEST_DEF##B(K, D)
#define BEST_DEF(B, K, D) BEST_DEF_(B, K, D)
#define BEST_PTR0(K) NULL
#define BEST_PTR1(K) &best_##K##_ops
#define BEST_PTR_(B, K) BEST_PTR##B(K)
#define BEST_PTR(B, K) BEST_PTR_(B, K)

#define DEFINE(K, T, D, B)                                                                      \
    static void K##_hand(const void *in, void *out, const int n[3])                             \
    {                                                                                           \
        hand_##K(in, out, EXT(D, n));                                                           \
    }                                                                                           \
    static int K##_cref(const void *in, void *out, const int n[3])                              \
    {                                                                                           \
        return c_##K(in, EXT(D, n), out, EXT(D, n));                                            \
    }                                                                                           \
    PLAN_OPS(ocl_, K, D)                                                                        \
    BEST_DEF(B, K, D)
#define ENTRY(K, T, D, B)                                                                       \
    {#K, D, sizeof(T), K##_hand, K##_cref, c_##K##_strerror, &ocl_##K##_ops, BEST_PTR(B, K)},

AN5D_LIST(DEFINE)
static const Kernel kernels[] = {AN5D_LIST(ENTRY)};

static double now(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* out = in, the stencil's compulsory traffic: one read and one write of each element */
static void copy(const void *in, void *out, long n, size_t elem)
{
    if (elem == sizeof(float)) {
        const float *restrict a = in;
        float *restrict b = out;
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            b[i] = a[i];
    } else {
        const double *restrict a = in;
        double *restrict b = out;
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            b[i] = a[i];
    }
}

static double get(const void *a, long i, size_t elem)
{
    return elem == sizeof(float) ? (double)((const float *)a)[i] : ((const double *)a)[i];
}

/* The largest |got - want| over the largest |want| (NaN, or infinity, when got has a
 * NaN where want has none). */
static double rel_err(const void *got, const void *want, long n, size_t elem)
{
    double big = 0, diff = 0;
    for (long i = 0; i < n; i++) {
        double w = get(want, i, elem), g = get(got, i, elem), d = fabs(g - w);
        if (fabs(w) > big)
            big = fabs(w);
        if (!(d <= diff))
            diff = isnan(d) ? NAN : d;
        if (isnan(diff))
            break;
    }
    return isnan(diff) ? NAN : big > 0 ? diff / big : diff;
}

static void *alloc(long n, size_t elem)
{
    const size_t huge = 2u << 20;
    size_t bytes = ((size_t)n * elem + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, bytes);
#if defined(MADV_HUGEPAGE)
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

/* Creates variant V's plan, uploads in and a NaN-filled out; NULL on failure. */
static void *plan_start(const Kernel *k, const PlanOps *ops, const char *what, const int n[3],
                        const void *in, void *nan_out)
{
    void *plan = NULL;
    int rc = ops->create(&plan, n);
    if (rc) {
        fprintf(stderr, "%s: %s: plan_create: %s\n", k->name, what, ops->strerror(rc));
        if (*ops->build_log())
            fprintf(stderr, "%s\n", ops->build_log());
        return NULL;
    }
    if ((rc = ops->upload_in(plan, in)) || (rc = ops->upload_out(plan, nan_out))) {
        fprintf(stderr, "%s: %s: upload: %s\n", k->name, what, ops->strerror(rc));
        ops->destroy(plan);
        return NULL;
    }
    return plan;
}

/* --warm: build variant `ops` and launch it once on a narrow grid of the same width */
static int warm(const Kernel *k, const PlanOps *ops, const char *what, int n2, int n3)
{
    int w = k->dims == 2 ? n2 : n3;
    int n[3] = {w, w < 32 ? w : 32, k->dims == 2 ? 1 : (w < 2 ? w : 2)};
    long cells = (long)n[0] * n[1] * n[2];
    void *in = calloc((size_t)cells, k->elem), *out = calloc((size_t)cells, k->elem);
    if (!in || !out)
        return 1;
    double t = now();
    void *plan = plan_start(k, ops, what, n, in, out);
    int rc = plan ? ops->launch(plan) : -1;
    if (plan && rc)
        fprintf(stderr, "%s: %s: launch: %s\n", k->name, what, ops->strerror(rc));
    if (plan)
        ops->destroy(plan);
    fprintf(stderr, "%s: %s built and launched in %.1f s\n", k->name, what, now() - t);
    free(in);
    free(out);
    return rc != 0;
}

static int run(const Kernel *k, int n2, int n3, int reps, int skip_ocl, int skip_best)
{
    const int w = k->dims == 2 ? n2 : n3;
    const int n[3] = {w, w, k->dims == 2 ? 1 : w};
    const long cells = (long)n[0] * n[1] * n[2];
    const size_t elem = k->elem;
    const double tol = elem == sizeof(float) ? 1e-5 : 1e-12;
    void *in = alloc(cells, elem), *ref = alloc(cells, elem), *out = alloc(cells, elem);
    void *nans = alloc(cells, elem);
    if (!in || !ref || !out || !nans) {
        fprintf(stderr, "%s: out of memory\n", k->name);
        return 1;
    }
    /* random input in [0, 1) */
    unsigned long long s = 0x9E3779B97F4A7C15ull;
    for (long i = 0; i < cells; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(s >> 11) * 0x1p-53;
        if (elem == sizeof(float))
            ((float *)in)[i] = (float)v;
        else
            ((double *)in)[i] = v;
    }
    memset(nans, 0xFF, (size_t)cells * elem);

    /* the checks: every variant against the hand loop */
    const PlanOps *ops[2] = {skip_ocl ? NULL : k->ocl, skip_best ? NULL : k->best};
    const char *names[2] = {"OpenCL default", "OpenCL best"};
    void *plans[2] = {NULL, NULL};
    double err[3] = {0, 0, 0};
    int bad = 0;
    k->hand(in, ref, n);
    memcpy(out, nans, (size_t)cells * elem);
    int rc = k->cref(in, out, n);
    if (rc) {
        fprintf(stderr, "%s: C backend: %s\n", k->name, k->cref_strerror(rc));
        bad = 1;
    } else if (!((err[0] = rel_err(out, ref, cells, elem)) <= tol)) {
        fprintf(stderr, "%s: C backend differs from the hand loop: %.3g\n", k->name, err[0]);
        bad = 1;
    }
    for (int v = 0; v < 2 && !bad; v++) {
        if (!ops[v])
            continue;
        plans[v] = plan_start(k, ops[v], names[v], n, in, nans);
        if (!plans[v]) {
            bad = 1;
            break;
        }
        if ((rc = ops[v]->launch(plans[v])) || (rc = ops[v]->download_out(plans[v], out))) {
            fprintf(stderr, "%s: %s: launch: %s\n", k->name, names[v], ops[v]->strerror(rc));
            bad = 1;
        } else if (!((err[v + 1] = rel_err(out, ref, cells, elem)) <= tol)) {
            fprintf(stderr, "%s: %s differs from the hand loop: %.3g\n", k->name, names[v],
                    err[v + 1]);
            bad = 1;
        }
    }
    if (!bad) {
        fprintf(stderr, "%s: %dD %d: check ok (tolerance %g): C %.2g", k->name, k->dims, w, tol,
                err[0]);
        for (int v = 0; v < 2; v++)
            if (ops[v])
                fprintf(stderr, ", %s %.2g", names[v], err[v + 1]);
        fprintf(stderr, "\n");
    }

    /* best of reps, the variants alternating: copy, hand, C, OpenCL default, best */
    double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
    for (int r = 0; r < reps && !bad; r++)
        for (int v = 0; v < 5 && !bad; v++) {
            double t = now();
            if (v == 0)
                copy(in, out, cells, elem);
            else if (v == 1)
                k->hand(in, out, n);
            else if (v == 2)
                rc = k->cref(in, out, n);
            else if (!ops[v - 3])
                continue;
            else if ((rc = ops[v - 3]->launch(plans[v - 3])))
                fprintf(stderr, "%s: %s: launch: %s\n", k->name, names[v - 3],
                        ops[v - 3]->strerror(rc));
            t = v < 3 ? now() - t : ops[v - 3]->kernel_ms(plans[v - 3]) * 1e-3;
            bad = rc != 0;
            if (t < best[v])
                best[v] = t;
        }
    for (int v = 0; v < 2; v++)
        if (plans[v])
            ops[v]->destroy(plans[v]);
    if (!bad) {
        printf("%s %d %d %.3f", k->name, k->dims, w, 2.0 * (double)elem * (double)cells / best[0]
                                                          * 1e-9);
        for (int v = 1; v < 5; v++)
            if (v < 3 || ops[v - 3])
                printf(" %.4f", (double)cells / best[v] * 1e-9);
            else
                printf(" -");
        printf("\n");
        fflush(stdout);
    }
    free(in);
    free(ref);
    free(out);
    free(nans);
    return bad;
}

static int usage(void)
{
    fprintf(stderr, "usage: an5d [-2 N2] [-3 N3] [-r REPS] [--skip ocl|best]... "
                    "[--warm ocl|best] KERNEL...\nkernels:");
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        fprintf(stderr, " %s", kernels[i].name);
    fprintf(stderr, "\n");
    return 2;
}

int main(int argc, char **argv)
{
    int n2 = 4096, n3 = 256, reps = 5, skip_ocl = 0, skip_best = 0, status = 0, named = 0;
    const char *warm_v = NULL;
    for (int a = 1; a < argc; a++) {
        const char *o = argv[a];
        if (a + 1 < argc && (!strcmp(o, "-2") || !strcmp(o, "-3") || !strcmp(o, "-r"))) {
            int v = atoi(argv[++a]);
            if (v < 1)
                return usage();
            *(o[1] == '2' ? &n2 : o[1] == '3' ? &n3 : &reps) = v;
        } else if (a + 1 < argc && !strcmp(o, "--skip")) {
            const char *v = argv[++a];
            if (strcmp(v, "ocl") && strcmp(v, "best"))
                return usage();
            *(!strcmp(v, "ocl") ? &skip_ocl : &skip_best) = 1;
        } else if (a + 1 < argc && !strcmp(o, "--warm")) {
            warm_v = argv[++a];
            if (strcmp(warm_v, "ocl") && strcmp(warm_v, "best"))
                return usage();
        } else if (o[0] == '-')
            return usage();
        else {
            const Kernel *k = NULL;
            for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
                if (!strcmp(kernels[i].name, o))
                    k = &kernels[i];
            if (!k) {
                fprintf(stderr, "an5d: no kernel %s in this build\n", o);
                return usage();
            }
            named = 1;
            if (warm_v) {
                const PlanOps *ops = !strcmp(warm_v, "ocl") ? k->ocl : k->best;
                if (ops)
                    status |= warm(k, ops, warm_v, n2, n3);
            } else
                status |= run(k, n2, n3, reps, skip_ocl, skip_best);
        }
    }
    return named ? status : usage();
}
