/* Oracle driver of tests/lang/kernel_names.imcl: kernels named half, kernel, double4
 * and get_global_id, each writing k*x + 1000*y. Integers exact. */
#include "lang_common.h"

#include "c/double4.h"
#include "c/get_global_id.h"
#include "c/half.h"
#include "c/kernel.h"
#ifdef CHECK_CUDA
#include "cuda/double4.h"
#include "cuda/get_global_id.h"
#include "cuda/half.h"
#include "cuda/kernel.h"
#else
#include "opencl/double4.h"
#include "opencl/get_global_id.h"
#include "opencl/half.h"
#include "opencl/kernel.h"
#endif

#define RUN(K, k)                                                                                   \
    do {                                                                                            \
        for (long p = 0; p < n; p++) e[p] = (k) * (p % w) + 1000 * (p / w);                         \
        for (int b = 0; b < 2; b++) {                                                               \
            lang_call_begin(&L, b, #K);                                                             \
            void *o = lang_out(&L, "o", T_INT, n, init, e, &sh);                                    \
            int rc = CHECK_CALL(b, K, o, w, h);                                                     \
            lang_call_end(&L, rc, CHECK_STRERROR(b, K, rc), LANG_BUILD_LOG(b, K));                  \
        }                                                                                           \
    } while (0)

int main(void)
{
    Lang L;
    lang_begin(&L, "kernel_names");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) init[p] = INT_MIN;
    Shape sh = shape2(w, h);
    RUN(half, 1);
    RUN(kernel, 2);
    RUN(double4, 3);
    RUN(get_global_id, 4);
    return lang_finish(&L);
}
