/* End-to-end check of samples/sum7: 7-point sum on Block<double>, constant boundary
 * (value 0). See check_common.h for what is checked and the tolerances. */
#include "check_common.h"

#include "c/sum7.h"
#ifdef CHECK_CUDA
#include "cuda/sum7.h"
#else
#include "opencl/sum7.h"
#endif

/* input[x][y][z] with the constant boundary: 0 outside the block. */
static double at0(const double *a, int w, int h, int d, int x, int y, int z)
{
    if (x < 0 || x >= w || y < 0 || y >= h || z < 0 || z >= d) return 0.0;
    return a[((long)z * h + y) * w + x];
}

int main(int argc, char **argv)
{
    int ext[3] = {13, 11, 9};
    check_sizes("sum7", argc, argv, 3, ext);
    const int w = ext[0], h = ext[1], d = ext[2];
    const long n = (long)w * h * d;
    const size_t bytes = (size_t)n * sizeof(double);

    double *in = gbuf_alloc(bytes), *in_orig = malloc(bytes), *expect = malloc(bytes);
    Lcg g;
    lcg_seed(&g, 7);
    for (long i = 0; i < n; i++) in[i] = 2.0 * lcg_unit(&g) - 1.0;
    memcpy(in_orig, in, bytes);

    /* Oracle. */
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                expect[((long)z * h + y) * w + x] =
                    at0(in, w, h, d, x - 1, y, z) + at0(in, w, h, d, x + 1, y, z) + at0(in, w, h, d, x, y - 1, z) +
                    at0(in, w, h, d, x, y + 1, z) + at0(in, w, h, d, x, y, z - 1) + at0(in, w, h, d, x, y, z + 1) +
                    at0(in, w, h, d, x, y, z);

    Report r = {"sum7", {0, 0}, 0.0, n};
    Shape s = {w, h, d, 0, 3};
    for (int b = 0; b < 2; b++) {
        double *out = gbuf_alloc(bytes);
        memset(out, 0xFF, bytes); /* NaN: unwritten points show */
        int rc = CHECK_CALL(b, sum7, in, w, h, d, out, w, h, d);
        if (check_rc(&r, b, rc, CHECK_STRERROR(b, sum7, rc)))
            check_cmp(&r, b, "output", cmp_double(check_backend_name[b], out, expect, &s));
        check_guards(&r, b, "input", in, bytes);
        check_guards(&r, b, "output", out, bytes);
        check_unchanged(&r, b, "input", in, in_orig, bytes);
        /* A NULL array is an argument error. */
        check_refused(&r, b, CHECK_CALL(b, sum7, in, w, h, d, NULL, w, h, d), -1, "a NULL output array");
        /* More elements than an int index reaches is an argument error, found
         * before any memory is touched (the buffers here are small). */
        check_refused(&r, b, CHECK_CALL(b, sum7, in, 50000, 43000, 2, out, 50000, 43000, 2), -1,
                      "arrays of more than 2^31-1 elements");
        gbuf_free(out);
    }
    gbuf_free(in);
    free(in_orig);
    free(expect);
    return check_finish(&r);
}
