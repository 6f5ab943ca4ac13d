/* End-to-end check of samples/life: one generation of Conway's Game of Life on
 * Image<int> (0/1 cells), constant boundary (dead outside). Compared exactly. See
 * check_common.h for what else is checked. */
#include "check_common.h"

#include "c/life.h"
#ifdef CHECK_CUDA
#include "cuda/life.h"
#else
#include "opencl/life.h"
#endif

static int cell(const int *v, int w, int h, int x, int y)
{
    if (x < 0 || x >= w || y < 0 || y >= h) return 0;
    return v[(long)y * w + x];
}

int main(int argc, char **argv)
{
    int ext[2] = {37, 29};
    check_sizes("life", argc, argv, 2, ext);
    const int w = ext[0], h = ext[1];
    const long n = (long)w * h;
    const size_t bytes = (size_t)n * sizeof(int);

    int *v = gbuf_alloc(bytes), *v_orig = malloc(bytes), *expect = malloc(bytes);
    Lcg g;
    lcg_seed(&g, 1970);
    for (long i = 0; i < n; i++) v[i] = lcg_bit(&g, 0.35);
    memcpy(v_orig, v, bytes);

    /* Oracle: B3/S23. */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int sum = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (dx || dy) sum += cell(v, w, h, x + dx, y + dy);
            int alive = cell(v, w, h, x, y);
            expect[(long)y * w + x] = alive ? (sum == 2 || sum == 3) : (sum == 3);
        }

    Report r = {"life", {0, 0}, 0.0, n};
    Shape s = {w, h, 1, 0, 2};
    for (int b = 0; b < 2; b++) {
        int *o = gbuf_alloc(bytes);
        memset(o, 0xFF, bytes); /* -1: unwritten points show */
        int rc = CHECK_CALL(b, life, v, w, h, o, w, h);
        if (check_rc(&r, b, rc, CHECK_STRERROR(b, life, rc)))
            check_cmp(&r, b, "o", cmp_int(check_backend_name[b], o, expect, &s));
        check_guards(&r, b, "v", v, bytes);
        check_guards(&r, b, "o", o, bytes);
        check_unchanged(&r, b, "v", v, v_orig, bytes);
        /* A NULL array is an argument error. */
        check_refused(&r, b, CHECK_CALL(b, life, v, w, h, NULL, w, h), -1, "a NULL output array");
        /* Grid arrays of different extents are an argument error (o as w x h-1). */
        if (h > 1)
            check_refused(&r, b, CHECK_CALL(b, life, v, w, h, o, w, h - 1), -1, "grid arrays of different extents");
        gbuf_free(o);
    }
    gbuf_free(v);
    free(v_orig);
    free(expect);
    return check_finish(&r);
}
