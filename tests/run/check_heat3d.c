/* End-to-end check of samples/heat3d: one explicit heat step on Block<double>, constant
 * boundary 1 (the iterate pragma leaves the one-shot wrapper as it is; PK_plan_iterate is
 * checked by tests/iterate). See check_common.h for what is checked and the tolerances. */
#include "check_common.h"

#include "c/heat3d.h"
#ifdef CHECK_CUDA
#include "cuda/heat3d.h"
#else
#include "opencl/heat3d.h"
#endif

/* a[x][y][z] with the constant boundary: 1 outside the block. */
static double at1(const double *a, int w, int h, int d, int x, int y, int z)
{
    if (x < 0 || x >= w || y < 0 || y >= h || z < 0 || z >= d) return 1.0;
    return a[((long)z * h + y) * w + x];
}

int main(int argc, char **argv)
{
    int ext[3] = {13, 11, 9};
    check_sizes("heat3d", argc, argv, 3, ext);
    const int w = ext[0], h = ext[1], d = ext[2];
    const long n = (long)w * h * d;
    const size_t bytes = (size_t)n * sizeof(double);
    const double c = 0.125;

    double *a = gbuf_alloc(bytes), *a_orig = malloc(bytes), *expect = malloc(bytes);
    Lcg g;
    lcg_seed(&g, 11);
    for (long i = 0; i < n; i++) a[i] = lcg_unit(&g);
    memcpy(a_orig, a, bytes);

    /* Oracle. */
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                expect[((long)z * h + y) * w + x] = at1(a, w, h, d, x, y, z) + c * (at1(a, w, h, d, x - 1, y, z)
                    + at1(a, w, h, d, x + 1, y, z) + at1(a, w, h, d, x, y - 1, z) + at1(a, w, h, d, x, y + 1, z)
                    + at1(a, w, h, d, x, y, z - 1) + at1(a, w, h, d, x, y, z + 1) - 6.0 * at1(a, w, h, d, x, y, z));

    Report r = {"heat3d", {0, 0}, 0.0, n};
    Shape s = {w, h, d, 0, 3};
    for (int k = 0; k < 2; k++) {
        double *b = gbuf_alloc(bytes);
        memset(b, 0xFF, bytes); /* NaN: unwritten points show */
        int rc = CHECK_CALL(k, heat3d, a, w, h, d, b, w, h, d, c);
        if (check_rc(&r, k, rc, CHECK_STRERROR(k, heat3d, rc)))
            check_cmp(&r, k, "b", cmp_double(check_backend_name[k], b, expect, &s));
        check_guards(&r, k, "a", a, bytes);
        check_guards(&r, k, "b", b, bytes);
        check_unchanged(&r, k, "a", a, a_orig, bytes);
        /* The two arrays of iterate trade roles: extents that differ are refused. */
        check_refused(&r, k, CHECK_CALL(k, heat3d, a, w, h, d, b, w, h, d - 1, c), -1,
                      "arrays of iterate with different extents");
        gbuf_free(b);
    }
    gbuf_free(a);
    free(a_orig);
    free(expect);
    return check_finish(&r);
}
