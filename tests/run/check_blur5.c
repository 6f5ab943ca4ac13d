/* End-to-end check of samples/blur5: 5x5 weighted blur on Image<float> with a
 * float mask[5][5] parameter (mask[i][j] is element i*5 + j; i is the x offset + 2,
 * j the y offset + 2), clamped boundary. Inputs are multiples of 1/256 and weights
 * multiples of 1/64, so the weighted sum is exact in float in any order. The mask
 * is random, hence not symmetric: a transposed mask is caught. See check_common.h
 * for what is checked and the tolerances. */
#include "check_common.h"

#include "c/blur5.h"
#ifdef CHECK_CUDA
#include "cuda/blur5.h"
#else
#include "opencl/blur5.h"
#endif

/* in[x][y] with the clamped boundary. */
static double atc(const float *a, int w, int h, int x, int y)
{
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return a[(long)y * w + x];
}

int main(int argc, char **argv)
{
    int ext[2] = {37, 29};
    check_sizes("blur5", argc, argv, 2, ext);
    const int w = ext[0], h = ext[1];
    const long n = (long)w * h;
    const size_t bytes = (size_t)n * sizeof(float);
    const size_t mbytes = 25 * sizeof(float);

    float *in = gbuf_alloc(bytes), *in_orig = malloc(bytes);
    float *mask = gbuf_alloc(mbytes), mask_orig[25];
    double *expect = malloc((size_t)n * sizeof(double));
    Lcg g;
    lcg_seed(&g, 5);
    for (long i = 0; i < n; i++) in[i] = lcg_quantized(&g, 8);
    for (int i = 0; i < 25; i++) mask[i] = lcg_quantized(&g, 6);
    memcpy(in_orig, in, bytes);
    memcpy(mask_orig, mask, mbytes);

    /* Oracle. */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double acc = 0.0;
            for (int i = -2; i <= 2; i++)
                for (int j = -2; j <= 2; j++) acc += mask[(i + 2) * 5 + (j + 2)] * atc(in, w, h, x + i, y + j);
            expect[(long)y * w + x] = acc;
        }

    Report r = {"blur5", {0, 0}, 0.0, n};
    Shape s = {w, h, 1, 0, 2};
    for (int b = 0; b < 2; b++) {
        float *out = gbuf_alloc(bytes);
        memset(out, 0xFF, bytes); /* NaN: unwritten points show */
        int rc = CHECK_CALL(b, blur5, in, w, h, out, w, h, mask);
        if (check_rc(&r, b, rc, CHECK_STRERROR(b, blur5, rc)))
            check_cmp(&r, b, "out", cmp_float(check_backend_name[b], out, expect, &s));
        check_guards(&r, b, "in", in, bytes);
        check_guards(&r, b, "out", out, bytes);
        check_guards(&r, b, "mask", mask, mbytes);
        check_unchanged(&r, b, "in", in, in_orig, bytes);
        check_unchanged(&r, b, "mask", mask, mask_orig, mbytes);
        /* A NULL array is an argument error. */
        check_refused(&r, b, CHECK_CALL(b, blur5, in, w, h, NULL, w, h, mask), -1, "a NULL output array");
        gbuf_free(out);
    }
    gbuf_free(in);
    gbuf_free(mask);
    free(in_orig);
    free(expect);
    return check_finish(&r);
}
