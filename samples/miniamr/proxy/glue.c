/* PlanOps adapters over the plan API that imcl generated for one backend.
 *
 * Compiled once per backend with -DGLUE_PREFIX=<prefix of the generated symbols>
 * and -I<folder of the generated headers>: the build does it for c_, ocl_ and
 * cuda_ with every kernel; runtime.c does it for t_ with one kernel
 * (-DGLUE_ONLY_V1, _V2 or _V3) when -t asks for another configuration. The
 * adapters are plain calls: they only turn typed plans into void * and array
 * names into the plan ids of the generated enum. */
#include "proxy.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define P(x) CAT(GLUE_PREFIX, x)

#if !defined(GLUE_ONLY_V1) && !defined(GLUE_ONLY_V2) && !defined(GLUE_ONLY_V3) && !defined(GLUE_ONLY_STENCIL7)
#define GLUE_V1 1
#define GLUE_V2 1
#define GLUE_V3 1
#define GLUE_V2R 1
#define GLUE_COPY 1
#define GLUE_STENCIL7 1
#elif defined(GLUE_ONLY_V1)
#define GLUE_V1 1
#elif defined(GLUE_ONLY_V2)
#define GLUE_V2 1
#elif defined(GLUE_ONLY_V3)
#define GLUE_V3 1
#else
#define GLUE_STENCIL7 1
#endif

/* What every kernel's table has in the same shape. */
#define COMMON(K)                                                   \
    static int K##_swap(void *plan, int a, int b)                   \
    {                                                               \
        return P(K##_plan_swap)(plan, a, b);                        \
    }                                                               \
    static double K##_kernel_ms(const void *plan)                   \
    {                                                               \
        return P(K##_plan_kernel_ms)(plan);                         \
    }                                                               \
    static void K##_destroy(void *plan)                             \
    {                                                               \
        P(K##_plan_destroy)(plan);                                  \
        /* what the wrapper keeps (OpenCL: the context and program   \
         * plans share), before -t's code is unloaded */             \
        P(K##_release)();                                           \
    }
#define TABLE(K, NARRAYS, ...)                                                                  \
    static const PlanOps K##_ops = {.kernel = #K, .narrays = NARRAYS, .create = K##_create,       \
                                    .upload = K##_upload, .download = K##_download,              \
                                    .launch = K##_launch, .swap = K##_swap,                      \
                                    .kernel_ms = K##_kernel_ms, .destroy = K##_destroy,          \
                                    .strerror = P(K##_strerror), .build_log = P(K##_build_log), \
                                    __VA_ARGS__}

/* Two arrays A and B of one kernel K: transfers by plan id. */
#define TRANSFERS2(K, A, B)                                                         \
    static int K##_upload(void *plan, int array, const double *host)               \
    {                                                                               \
        switch (array) {                                                            \
        case P(K##_plan_array_##A): return P(K##_plan_upload_##A)(plan, host);      \
        case P(K##_plan_array_##B): return P(K##_plan_upload_##B)(plan, host);      \
        default: return P(K##_ERR_ARGUMENT);                                        \
        }                                                                           \
    }                                                                               \
    static int K##_download(void *plan, int array, double *host)                   \
    {                                                                               \
        switch (array) {                                                            \
        case P(K##_plan_array_##A): return P(K##_plan_download_##A)(plan, host);    \
        case P(K##_plan_array_##B): return P(K##_plan_download_##B)(plan, host);    \
        default: return P(K##_ERR_ARGUMENT);                                        \
        }                                                                           \
    }                                                                               \
    static int K##_create(void **plan, const int (*e)[3])                          \
    {                                                                               \
        P(K##_plan) *p = NULL;                                                      \
        int rc = P(K##_plan_create)(&p, e[0][0], e[0][1], e[0][2], e[1][0], e[1][1], e[1][2]); \
        *plan = p;                                                                  \
        return rc;                                                                  \
    }

#ifdef GLUE_V1
#include "v1.h"
/* v1(Block<double> mesh, int n, int var, int num_blocks, int num_vars) */
static int v1_create(void **plan, const int (*e)[3])
{
    P(v1_plan) *p = NULL;
    int rc = P(v1_plan_create)(&p, e[0][0], e[0][1], e[0][2]);
    *plan = p;
    return rc;
}
static int v1_upload(void *plan, int array, const double *host)
{
    return array == P(v1_plan_array_mesh) ? P(v1_plan_upload_mesh)(plan, host) : P(v1_ERR_ARGUMENT);
}
static int v1_download(void *plan, int array, double *host)
{
    return array == P(v1_plan_array_mesh) ? P(v1_plan_download_mesh)(plan, host) : P(v1_ERR_ARGUMENT);
}
static int v1_launch(void *plan, const int *s)
{
    return P(v1_plan_launch)(plan, s[0], s[1], s[2], s[3]);
}
COMMON(v1)
TABLE(v1, 1);
#endif

#ifdef GLUE_V2
#include "v2.h"
/* v2(Block<double> input, Block<double> output, int n, int var, int num_blocks, int num_vars) */
TRANSFERS2(v2, input, output)
static int v2_launch(void *plan, const int *s)
{
    return P(v2_plan_launch)(plan, s[0], s[1], s[2], s[3]);
}
COMMON(v2)
TABLE(v2, 2);
#endif

#ifdef GLUE_V3
#include "v3.h"
/* v3(Block<double> in, Block<double> out), with halo 1 */
TRANSFERS2(v3, in, out)
static int v3_launch(void *plan, const int *s)
{
    (void)s;
    return P(v3_plan_launch)(plan);
}
COMMON(v3)
TABLE(v3, 2);
#endif

#ifdef GLUE_V2R
#include "v2r.h"
/* v2r(Block<double> input, Block<double> output, int n, int var, int num_blocks,
 *     int num_vars, int bx, int by, int ghost, int gz): v2 with the ghost exchange */
TRANSFERS2(v2r, input, output)
static int v2r_launch(void *plan, const int *s)
{
    return P(v2r_plan_launch)(plan, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
}
COMMON(v2r)
TABLE(v2r, 2);
#endif

#ifdef GLUE_COPY
#include "copy.h"
/* copy(Block<double> src, Block<double> dst) */
TRANSFERS2(copy, src, dst)
static int copy_launch(void *plan, const int *s)
{
    (void)s;
    return P(copy_plan_launch)(plan);
}
COMMON(copy)
TABLE(copy, 2);
#endif

#ifdef GLUE_STENCIL7
#include "stencil7.h"
/* stencil7(Block<double> array, Block<double> work), halo 1, index_order(c): miniAMR's
 * loop body, on batches of blocks given as row tables */
TRANSFERS2(stencil7, array, work)
static int stencil7_launch(void *plan, const int *s)
{
    (void)s;
    return P(stencil7_plan_launch)(plan);
}
static int stencil7_create_batch(void **plan, int capacity, const int (*e)[3])
{
    P(stencil7_plan) *p = NULL;
    int rc = P(stencil7_plan_create_batch)(&p, capacity, e[0][0], e[0][1], e[0][2], e[1][0], e[1][1], e[1][2]);
    *plan = p;
    return rc;
}
static int stencil7_upload_rows(void *plan, int array, int first, int count, double ***const *tables)
{
    switch (array) {
    case P(stencil7_plan_array_array): return P(stencil7_plan_upload_rows_array)(plan, first, count, tables);
    case P(stencil7_plan_array_work): return P(stencil7_plan_upload_rows_work)(plan, first, count, tables);
    default: return P(stencil7_ERR_ARGUMENT);
    }
}
static int stencil7_download_rows(void *plan, int array, int first, int count, double ***const *tables)
{
    switch (array) {
    case P(stencil7_plan_array_array): return P(stencil7_plan_download_rows_array)(plan, first, count, tables);
    case P(stencil7_plan_array_work): return P(stencil7_plan_download_rows_work)(plan, first, count, tables);
    default: return P(stencil7_ERR_ARGUMENT);
    }
}
static int stencil7_launch_batch(void *plan, int count)
{
    return P(stencil7_plan_launch_batch)(plan, count);
}
static int stencil7_attach(void *plan, int array, double *host)
{
    return P(stencil7_plan_attach)(plan, array, host);
}
static int stencil7_launch_batch_async(void *plan, int count)
{
    return P(stencil7_plan_launch_batch_async)(plan, count);
}
static int stencil7_wait(void *plan)
{
    return P(stencil7_plan_wait)(plan);
}

static int stencil7_select(void *plan, int count, const int *blocks)
{
    return P(stencil7_plan_select)(plan, count, blocks);
}
COMMON(stencil7)
TABLE(stencil7, 2, .create_batch = stencil7_create_batch, .upload_rows = stencil7_upload_rows,
      .download_rows = stencil7_download_rows, .launch_batch = stencil7_launch_batch,
      .attach = stencil7_attach, .launch_batch_async = stencil7_launch_batch_async, .wait = stencil7_wait,
      .select = stencil7_select);
#endif

#ifndef GLUE_NAME
#define GLUE_NAME "runtime"
#endif

const KernelSet P(kernels) = {
    GLUE_NAME,
#ifdef GLUE_V1
    &v1_ops,
#else
    NULL,
#endif
#ifdef GLUE_V2
    &v2_ops,
#else
    NULL,
#endif
#ifdef GLUE_V3
    &v3_ops,
#else
    NULL,
#endif
#ifdef GLUE_COPY
    &copy_ops,
#else
    NULL,
#endif
#ifdef GLUE_V2R
    &v2r_ops,
#else
    NULL,
#endif
#ifdef GLUE_STENCIL7
    &stencil7_ops,
#else
    NULL,
#endif
};
