/* End-to-end check of samples/sum27: the 27-point loop stencil (thesis listing 3.2)
 * on Block<double>, constant boundary (value 0). See check_common.h for what is
 * checked and the tolerances. */
#include "check_common.h"

#include "c/sum27.h"
#ifdef CHECK_CUDA
#include "cuda/sum27.h"
#else
#include "opencl/sum27.h"
#endif

int main(int argc, char **argv)
{
    int ext[3] = {13, 11, 9};
    check_sizes("sum27", argc, argv, 3, ext);
    const int w = ext[0], h = ext[1], d = ext[2];
    const long n = (long)w * h * d;
    const size_t bytes = (size_t)n * sizeof(double);

    double *in = gbuf_alloc(bytes), *in_orig = malloc(bytes), *expect = malloc(bytes);
    Lcg g;
    lcg_seed(&g, 27);
    for (long i = 0; i < n; i++) in[i] = 2.0 * lcg_unit(&g) - 1.0;
    memcpy(in_orig, in, bytes);

    /* Oracle: the sum of the 3x3x3 neighbourhood, 0 outside the block. */
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double acc = 0.0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int xx = x + dx, yy = y + dy, zz = z + dz;
                            if (xx >= 0 && xx < w && yy >= 0 && yy < h && zz >= 0 && zz < d)
                                acc += in[((long)zz * h + yy) * w + xx];
                        }
                expect[((long)z * h + y) * w + x] = acc;
            }

    Report r = {"sum27", {0, 0}, 0.0, n};
    Shape s = {w, h, d, 0, 3};
    for (int b = 0; b < 2; b++) {
        double *out = gbuf_alloc(bytes);
        memset(out, 0xFF, bytes); /* NaN: the kernel's "output = 0" must happen on every point */
        int rc = CHECK_CALL(b, sum27, in, w, h, d, out, w, h, d);
        if (check_rc(&r, b, rc, CHECK_STRERROR(b, sum27, rc)))
            check_cmp(&r, b, "output", cmp_double(check_backend_name[b], out, expect, &s));
        check_guards(&r, b, "input", in, bytes);
        check_guards(&r, b, "output", out, bytes);
        check_unchanged(&r, b, "input", in, in_orig, bytes);
        /* A NULL array is an argument error. */
        check_refused(&r, b, CHECK_CALL(b, sum27, in, w, h, d, NULL, w, h, d), -1, "a NULL output array");
        gbuf_free(out);
    }
    gbuf_free(in);
    free(in_orig);
    free(expect);
    return check_finish(&r);
}
