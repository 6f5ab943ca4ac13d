/* End-to-end check of samples/sobel: Sobel gradient magnitude on Image<float>,
 * clamped boundary. Inputs are multiples of 1/256, so gx, gy and gx*gx + gy*gy are
 * exact in float; only sqrt's rounding is left to the float tolerance. See
 * check_common.h for what is checked and the tolerances. */
#include "check_common.h"

#include "c/sobel.h"
#ifdef CHECK_CUDA
#include "cuda/sobel.h"
#else
#include "opencl/sobel.h"
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
    check_sizes("sobel", argc, argv, 2, ext);
    const int w = ext[0], h = ext[1];
    const long n = (long)w * h;
    const size_t bytes = (size_t)n * sizeof(float);

    float *in = gbuf_alloc(bytes), *in_orig = malloc(bytes);
    double *expect = malloc((size_t)n * sizeof(double));
    Lcg g;
    lcg_seed(&g, 1968);
    for (long i = 0; i < n; i++) in[i] = lcg_quantized(&g, 8);
    memcpy(in_orig, in, bytes);

    /* Oracle. */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double gx = -atc(in, w, h, x - 1, y - 1) + atc(in, w, h, x + 1, y - 1) - 2 * atc(in, w, h, x - 1, y) +
                        2 * atc(in, w, h, x + 1, y) - atc(in, w, h, x - 1, y + 1) + atc(in, w, h, x + 1, y + 1);
            double gy = -atc(in, w, h, x - 1, y - 1) - 2 * atc(in, w, h, x, y - 1) - atc(in, w, h, x + 1, y - 1) +
                        atc(in, w, h, x - 1, y + 1) + 2 * atc(in, w, h, x, y + 1) + atc(in, w, h, x + 1, y + 1);
            expect[(long)y * w + x] = sqrt(gx * gx + gy * gy);
        }

    Report r = {"sobel", {0, 0}, 0.0, n};
    Shape s = {w, h, 1, 0, 2};
    for (int b = 0; b < 2; b++) {
        float *out = gbuf_alloc(bytes);
        memset(out, 0xFF, bytes); /* NaN: unwritten points show */
        int rc = CHECK_CALL(b, sobel, in, w, h, out, w, h);
        if (check_rc(&r, b, rc, CHECK_STRERROR(b, sobel, rc)))
            check_cmp(&r, b, "out", cmp_float(check_backend_name[b], out, expect, &s));
        check_guards(&r, b, "in", in, bytes);
        check_guards(&r, b, "out", out, bytes);
        check_unchanged(&r, b, "in", in, in_orig, bytes);
        /* A NULL array is an argument error. */
        check_refused(&r, b, CHECK_CALL(b, sobel, in, w, h, NULL, w, h), -1, "a NULL output array");
        gbuf_free(out);
    }
    gbuf_free(in);
    free(in_orig);
    free(expect);
    return check_finish(&r);
}
