/* Oracle driver of tests/lang/unused.imcl: parameters of every kind that the body
 * never uses. The generated code must compile cleanly (-Wall -Wextra -Werror) and
 * the wrapper must accept and ignore them. Output values are exact integers. */
#include "lang_common.h"

#include "c/unused_params.h"
#ifdef CHECK_CUDA
#include "cuda/unused_params.h"
#else
#include "opencl/unused_params.h"
#endif

static void test_unused(Lang *L)
{
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *img = lang_alloc(n, sizeof(float)), *oinit = lang_alloc(n, sizeof(float));
    double *blk = lang_dalloc(2 * 3 * 4), *e = lang_dalloc(n);
    const float arr[3] = {1, 2, 3};
    for (long p = 0; p < n; p++) oinit[p] = NAN, e[p] = (double)(p % w) + 100.0 * (double)(p / w);
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "unused_params");
        void *ii = lang_in(L, "ignored_img", T_FLOAT, n, img);
        void *ib = lang_in(L, "ignored_blk", T_DOUBLE, 24, blk);
        void *ia = lang_in(L, "ignored_arr", T_FLOAT, 3, arr);
        void *o = lang_out(L, "o", T_FLOAT, n, oinit, e, &sh);
        int rc = CHECK_CALL(b, unused_params, ii, w, h, o, w, h, ib, 2, 3, 4, ia, 1.5f, 7, 2.5);
        lang_call_end(L, rc, CHECK_STRERROR(b, unused_params, rc), LANG_BUILD_LOG(b, unused_params));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "unused");
    test_unused(&L);
    return lang_finish(&L);
}
