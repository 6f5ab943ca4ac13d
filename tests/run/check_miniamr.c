/* End-to-end check of samples/miniamr: miniAMR's 7-point average on Block<double>
 * arrays stored with a ghost layer one cell wide (halo(in:1, out:1), boundary none).
 * The wrappers take the interior extents; the buffers hold (w+2)*(h+2)*(d+2)
 * elements. The ghost cells of `in` hold values unlike the interior ones (so reading
 * them, or failing to, shows), and the ghost cells of `out` must come back exactly
 * as they were: the kernel does not write them, and the wrapper must not lose them.
 * See check_common.h for what else is checked and the tolerances. */
#include "check_common.h"

#include "c/miniamr.h"
#ifdef CHECK_CUDA
#include "cuda/miniamr.h"
#else
#include "opencl/miniamr.h"
#endif

int main(int argc, char **argv)
{
    int ext[3] = {13, 11, 9};
    check_sizes("miniamr", argc, argv, 3, ext);
    const int w = ext[0], h = ext[1], d = ext[2];
    const int pw = w + 2, ph = h + 2, pd = d + 2; /* storage extents */
    const long n = (long)pw * ph * pd;
    const size_t bytes = (size_t)n * sizeof(double);
#define P(x, y, z) ((((long)(z) + 1) * ph + ((y) + 1)) * pw + ((x) + 1)) /* interior (x,y,z), -1..extent */
#define IS_HALO(i) ((i) % pw == 0 || (i) % pw == pw - 1 || ((i) / pw) % ph == 0 || ((i) / pw) % ph == ph - 1 || \
                    (i) / ((long)pw * ph) == 0 || (i) / ((long)pw * ph) == pd - 1)

    double *in = gbuf_alloc(bytes), *in_orig = malloc(bytes);
    double *out_init = malloc(bytes), *expect = malloc(bytes);
    Lcg g;
    lcg_seed(&g, 2014);
    for (long i = 0; i < n; i++) {
        in[i] = IS_HALO(i) ? 10.0 + lcg_unit(&g) : lcg_unit(&g);
        out_init[i] = IS_HALO(i) ? 20.0 + lcg_unit(&g) : -1000.0 - lcg_unit(&g);
    }
    memcpy(in_orig, in, bytes);

    /* Oracle: ghost cells of out unchanged, interior = 7-point average (reads of
     * in's ghost cells are plain reads). */
    memcpy(expect, out_init, bytes);
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                expect[P(x, y, z)] = (in[P(x - 1, y, z)] + in[P(x + 1, y, z)] + in[P(x, y - 1, z)] +
                                      in[P(x, y + 1, z)] + in[P(x, y, z - 1)] + in[P(x, y, z + 1)] + in[P(x, y, z)]) /
                                     7.0;

    Report r = {"miniamr", {0, 0}, 0.0, (long)w * h * d};
    Shape s = {pw, ph, pd, 1, 3};
    for (int b = 0; b < 2; b++) {
        double *out = gbuf_alloc(bytes);
        memcpy(out, out_init, bytes);
        int rc = CHECK_CALL(b, miniamr, in, w, h, d, out, w, h, d);
        if (check_rc(&r, b, rc, CHECK_STRERROR(b, miniamr, rc))) {
            /* The whole storage, ghost cells included, against the oracle ... */
            check_cmp(&r, b, "out", cmp_double(check_backend_name[b], out, expect, &s));
            /* ... and the ghost cells bit for bit. */
            long changed = 0;
            for (long i = 0; i < n; i++)
                if (IS_HALO(i) && memcmp(&out[i], &out_init[i], sizeof(double)) != 0) changed++;
            if (changed) {
                fprintf(stderr, "check miniamr: %s wrapper changed %ld ghost cells of 'out'\n",
                        check_backend_name[b], changed);
                r.failed[b] = 1;
            }
        }
        check_guards(&r, b, "in", in, bytes);
        check_guards(&r, b, "out", out, bytes);
        check_unchanged(&r, b, "in", in, in_orig, bytes);
        /* A NULL array is an argument error. */
        check_refused(&r, b, CHECK_CALL(b, miniamr, in, w, h, d, NULL, w, h, d), -1, "a NULL output array");
        gbuf_free(out);
    }
    gbuf_free(in);
    free(in_orig);
    free(out_init);
    free(expect);
    return check_finish(&r);
}
