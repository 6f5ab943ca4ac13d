/* Oracle driver of tests/lang/math.imcl: math functions on int, float and double
 * arguments and mixed types. The oracle calls libm's float functions (sqrtf, ...)
 * for float-typed results and the double ones otherwise; min/max/clamp follow the
 * usual arithmetic conversions (so max(uint, int) compares as unsigned).
 * Tolerances: float results |g-e| <= max(1e-5|e|, 1e-6) and double results
 * max(1e-12|e|, 1e-12), which cover the error bounds OpenCL and CUDA allow their
 * functions (at most 16 ulp); integer results exact. The "float stays float" checks
 * (sqrt(f) - (float)sqrt(f)) must be exactly 0. */
#include "lang_common.h"

#include "c/mathd.h"
#include "c/mathf.h"
#ifdef CHECK_CUDA
#include "cuda/mathd.h"
#include "cuda/mathf.h"
#else
#include "opencl/mathd.h"
#include "opencl/mathf.h"
#endif

enum { N = 64, NF = 34, ND = 51, NI = 15 };

static float minf_(float a, float b) { return a < b ? a : b; }
static float maxf_(float a, float b) { return a > b ? a : b; }
static double mind_(double a, double b) { return a < b ? a : b; }
static double maxd_(double a, double b) { return a > b ? a : b; }

static void inputs(double *v, double *w, int *i, int *j)
{
    Lcg g;
    lcg_seed(&g, 91);
    for (int p = 0; p < N; p++) {
        v[p] = 0.25 + (double)(lcg_next(&g) % 30) / 8.0;       /* [0.25, 4) */
        w[p] = (double)((int)(lcg_next(&g) % 64) - 32) / 8.0; /* [-4, 4), halves included */
        i[p] = (int)(lcg_next(&g) % 101) - 50;
        j[p] = (int)(lcg_next(&g) % 60) + 1;
    }
    v[0] = 1.0, w[0] = -2.5, w[1] = 2.5, w[2] = 0.0, w[3] = -0.5, i[0] = -50, i[1] = 0, i[2] = 2, j[0] = 1;
}

static void test_mathf(Lang *L)
{
    double v[N], w[N];
    int ii[N], jj[N];
    inputs(v, w, ii, jj);
    float x[2 * N];
    for (int p = 0; p < N; p++) x[p] = (float)v[p], x[N + p] = (float)w[p];
    double *e = lang_dalloc(N * NF);
    float *init = lang_alloc(N * NF, sizeof(float));
    for (int p = 0; p < N; p++) {
        float fv = x[p], fw = x[N + p];
        const double r[NF] = {
            sqrtf(fv), cbrtf(fw), expf(fw), exp2f(fw), logf(fv), log2f(fv), log10f(fv), powf(fv, fw), sinf(fw),
            cosf(fw), tanf(fw * 0.25f), asinf(fw * 0.25f), acosf(fw * 0.25f), atanf(fw), atan2f(fw, fv), sinhf(fw),
            coshf(fw), tanhf(fw), floorf(fw), ceilf(fw), roundf(fw), truncf(fw), fabsf(fw), fmodf(fw, fv),
            fminf(fv, fw), fmaxf(fv, fw), hypotf(fv, fw), minf_(fv, fw), maxf_(fv, fw),
            minf_(maxf_(fw, -1.0f), 1.0f), fabsf(fw), minf_((float)(int)fw, fv), maxf_(fw, 2.0f),
            minf_(maxf_((float)(int)(fw * 4), 0.5f), 2.0f)};
        for (int k = 0; k < NF; k++) e[k * N + p] = r[k];
    }
    for (int k = 0; k < N * NF; k++) init[k] = NAN;
    Shape sh = shape2(N, NF);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "mathf");
        void *ix = lang_in(L, "x", T_FLOAT, 2 * N, x);
        void *of = lang_out(L, "f", T_FLOAT, N * NF, init, e, &sh);
        int rc = CHECK_CALL(b, mathf, ix, N, 2, of, N, NF, N);
        lang_call_end(L, rc, CHECK_STRERROR(b, mathf, rc), LANG_BUILD_LOG(b, mathf));
    }
}

static void test_mathd(Lang *L)
{
    double v[N], w[N];
    int ii[N], jj[N];
    inputs(v, w, ii, jj);
    double x[2 * N];
    int ix[2 * N];
    for (int p = 0; p < N; p++) x[p] = v[p], x[N + p] = w[p], ix[p] = ii[p], ix[N + p] = jj[p];
    double *ed = lang_dalloc(N * ND), *ei = lang_dalloc(N * NI), *dinit = lang_dalloc(N * ND);
    int *iinit = lang_alloc(N * NI, sizeof(int));
    for (int p = 0; p < N; p++) {
        double dv = v[p], dw = w[p];
        int i = ii[p], j = jj[p];
        unsigned u = (unsigned)j * 100000000u;
        float fv = (float)dv;
        const double r[ND] = {
            sqrt(dv), cbrt(dw), exp(dw), exp2(dw), log(dv), log2(dv), log10(dv), pow(dv, dw), sin(dw), cos(dw),
            tan(dw * 0.25), asin(dw * 0.25), acos(dw * 0.25), atan(dw), atan2(dw, dv), sinh(dw), cosh(dw), tanh(dw),
            floor(dw), ceil(dw), round(dw), trunc(dw), fabs(dw), fmod(dw, dv), fmin(dv, dw), fmax(dv, dw),
            hypot(dv, dw), mind_(dv, dw), maxd_(dv, dw), mind_(maxd_(dw, -1.0), 1.0), fabs(dw),
            /* integer arguments */
            sqrt((double)j), sqrt(2.0) * 1e8, exp((double)(i / 10)), log((double)j), pow(2.0, (double)(j % 40)),
            pow((double)j, 0.5), sin((double)i) + cos((double)j), floor((double)i) + ceil((double)j), fabs((double)i),
            atan2((double)i, (double)j), fmod((double)i, 7.0), hypot((double)i, (double)j),
            /* mixed */
            pow(2.0, dv), mind_(1.5, dv), mind_(maxd_((double)i, 0.5), 10.0), maxf_((float)j, 2.5f),
            /* float stays float */
            0, 0, 0, 0};
        (void)fv;
        for (int k = 0; k < ND; k++) ed[k * N + p] = r[k];
        int ai = i < 0 ? -i : i;
        unsigned mu = (unsigned)i < 3u ? (unsigned)i : 3u;
        unsigned mx = u > (unsigned)i ? u : (unsigned)i;
        unsigned m1 = u > 1u ? u : 1u;
        int mc = (signed char)i < (unsigned char)j ? (signed char)i : (unsigned char)j;
        int ms = (short)i > (unsigned short)j ? (short)i : (unsigned short)j;
        const double q[NI] = {ai, ai - 30, (ai - 30) / 4, ai - 30 < 0, i < j ? i : j, i > j ? i : j,
                              clampi(i, -10, 10), mu == 3u, (double)(mx % 1000000u), (double)(int)(m1 / 7u), mc,
                              ms - 100, clampi(i * 3, j, 100),
                              (double)((int)floor(dw * 10) + (int)ceil(dw * 10) * 100), 2147483647};
        for (int k = 0; k < NI; k++) ei[k * N + p] = q[k];
    }
    for (int k = 0; k < N * ND; k++) dinit[k] = NAN;
    for (int k = 0; k < N * NI; k++) iinit[k] = INT_MIN;
    Shape shd = shape2(N, ND), shi = shape2(N, NI);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "mathd");
        void *px = lang_in(L, "x", T_DOUBLE, 2 * N, x);
        void *pix = lang_in(L, "ix", T_INT, 2 * N, ix);
        void *od = lang_out(L, "d", T_DOUBLE, N * ND, dinit, ed, &shd);
        void *oi = lang_out(L, "iout", T_INT, N * NI, iinit, ei, &shi);
        int rc = CHECK_CALL(b, mathd, px, N, 2, pix, N, 2, od, N, ND, oi, N, NI, N);
        lang_call_end(L, rc, CHECK_STRERROR(b, mathd, rc), LANG_BUILD_LOG(b, mathd));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "math");
    test_mathf(&L);
    test_mathd(&L);
    return lang_finish(&L);
}
