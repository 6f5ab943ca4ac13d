/* Oracle driver of tests/lang/control.imcl: control flow, early return (outputs of
 * the points that return keep their initial values), and loop-variable offsets with
 * the default constant boundary (reads outside give 0). The oracle is the same
 * control flow written in C. Integers exact; floats exact (multiples of 1/64). */
#include "lang_common.h"

#include "c/early.h"
#include "c/flow.h"
#include "c/offsets.h"
#ifdef CHECK_CUDA
#include "cuda/early.h"
#include "cuda/flow.h"
#include "cuda/offsets.h"
#else
#include "opencl/early.h"
#include "opencl/flow.h"
#include "opencl/offsets.h"
#endif

static int flow_point(int v, int n)
{
    int r;
    if (v < -50) r = 1;
    else if (v < 0) r = 2;
    else if (v == 0) r = 3;
    else if (v <= 50) r = 4;
    else r = 5;
    int acc = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 1) continue;
        if (acc > 200 + v) break;
        acc += i * r;
    }
    int j = 0, wsum = 0;
    while (j < 10) {
        j++;
        if (j & 1) continue;
        wsum += j;
        if (wsum > v && v > 0) break;
    }
    int k = 0, dsum = 0;
    do {
        k++;
        if (k == 2) continue;
        dsum += k * k;
    } while (k < (v & 7));
    int m = 0;
    while (!(m * m > (v & 63))) m++;
    int f = 4;
    int pairs = 9 + 7 + 5 + 3 + 1;
    int nest = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b <= a; b++)
            if ((a + b + v) % 2 != 0) nest += a * 4 + b;
    int c = 3, p = 4, q = 2, x = 1, y = 2;
    int t = v > 0 ? (v > 10 ? 1 : 2) : v < -10 ? 3 : 4;
    int z = v < 0 ? -v : v;
    z += 7;
    z -= 3;
    z *= 5;
    z /= 3;
    z %= 1000;
    z <<= 2;
    z >>= 1;
    z &= 0x7ff;
    z |= 0x100;
    z ^= 0x55;
    z += 42;
    z += 0 + 1;
    z += 1;
    return r + 10 * acc + 10000 * wsum + 1000000 * dsum + 3 * m + 5 * f + 7 * pairs + 11 * nest + 13 * c + 17 * p +
           19 * q + 23 * t + 29 * z + 31 * x + 37 * y;
}

static void test_flow(Lang *L)
{
    const int w = 37, h = 29, nn = 25;
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 71);
    for (long p = 0; p < n; p++) {
        in[p] = (int)(lcg_next(&g) % 201) - 100;
        if (p % 19 == 0) in[p] = 0;
        init[p] = INT_MIN;
        e[p] = flow_point(in[p], nn);
    }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "flow");
        void *ii = lang_in(L, "in", T_INT, n, in);
        void *o = lang_out(L, "out", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, flow, ii, w, h, o, w, h, nn);
        lang_call_end(L, rc, CHECK_STRERROR(b, flow, rc), LANG_BUILD_LOG(b, flow));
    }
}

static void test_early(Lang *L)
{
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *in = lang_alloc(n, sizeof(float)), *i1 = lang_alloc(n, sizeof(float)), *i2 = lang_alloc(n, sizeof(float));
    int *i3 = lang_alloc(n, sizeof(int));
    double *e1 = lang_dalloc(n), *e2 = lang_dalloc(n), *e3 = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 72);
    for (long p = 0; p < n; p++) {
        in[p] = (float)((int)(lcg_next(&g) % 129) - 64) / 64.0f; /* -1 .. 1 */
        i1[p] = -1000.0f - (float)p, i2[p] = -2000.0f - (float)p, i3[p] = -3 - (int)p;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            float v = in[p];
            e1[p] = i1[p], e2[p] = i2[p], e3[p] = i3[p];
            if (v < -0.5f) continue;
            e1[p] = v * 2;
            int ret = 0;
            for (int i = 0; i < 10 && !ret; i++)
                for (int j = 0; j < 10; j++) {
                    if (i * 10 + j > (int)(v * 64) + 40) {
                        ret = 1;
                        break;
                    }
                    if (j > i) break;
                }
            if (ret) continue;
            e2[p] = v + 1;
            if (x % 3 == 0) continue; /* the do loop reaches k == 3 */
            if (y % 4 == 1) continue;
            e3[p] = x * 100 + y;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "early");
        void *ii = lang_in(L, "in", T_FLOAT, n, in);
        void *o1 = lang_out(L, "o1", T_FLOAT, n, i1, e1, &sh);
        void *o2 = lang_out(L, "o2", T_FLOAT, n, i2, e2, &sh);
        void *o3 = lang_out(L, "o3", T_INT, n, i3, e3, &sh);
        int rc = CHECK_CALL(b, early, ii, w, h, o1, w, h, o2, w, h, o3, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, early, rc), LANG_BUILD_LOG(b, early));
    }
}

static void test_offsets(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    const int r = 3;
    int *a = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 73);
    for (long p = 0; p < n; p++) a[p] = (int)(lcg_next(&g) % 9) + 1, init[p] = INT_MIN;
#define A(x, y) ((x) >= 0 && (x) < w && (y) >= 0 && (y) < h ? a[(long)(y) * w + (x)] : 0)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int acc = 0;
            for (int i = -2; i <= 2; i += 2)
                for (int j = 3; j >= -3; j -= 3) acc += (i + 3 + 7 * (j + 4)) * A(x + i, y + j);
            for (int i = -r; i <= r; i++) acc += 1000 * A(x + i, y - i);
            for (int k = 0; k > -4; k--) acc += 10000 * A(x + k, y);
            acc += 100000 * A(x + (A(x, y) > 4 ? 3 : -3), y);
            acc += 1000000 * A(x, y - 3);
            acc += 10000000 * (A(x, y) + A(x - 3, y) + A(x - 4, y) + A(x - 5, y));
            e[(long)y * w + x] = acc;
        }
#undef A
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w < 6 ? "offsets (small)" : "offsets");
        void *ia = lang_in(L, "a", T_INT, n, a);
        void *o = lang_out(L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, offsets, ia, w, h, o, w, h, r);
        lang_call_end(L, rc, CHECK_STRERROR(b, offsets, rc), LANG_BUILD_LOG(b, offsets));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "control");
    test_flow(&L);
    test_early(&L);
    test_offsets(&L, 37, 29);
    test_offsets(&L, 4, 3);
    return lang_finish(&L);
}
