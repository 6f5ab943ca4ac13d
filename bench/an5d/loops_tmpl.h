/* bench/an5d/loops_tmpl.h: the hand loops of loops.c for one element type T (suffix S, f
 * or d, square root SQRT) and one radius R; included by loops.c only. Each stencil is a
 * statement macro over an accessor A(i, j[, k]) (the tap at that offset from the point):
 * E2/E3 guard the read (0 outside the grid), I2/I3 read row (j[, k]) of the row table rp
 * at x + i, unguarded (a row outside the grid is a row of zeros). */
#ifndef AN5D_TMPL_ONCE
#define AN5D_TMPL_ONCE
#define AN5D_RN_(b, rad, s) hand_##b##rad##r_##s
#define AN5D_RN(b, rad, s) AN5D_RN_(b, rad, s)
#define RN(b) AN5D_RN(b, R, S) /* hand_star2d1r_f */
#define AN5D_TN_(b, s) hand_##b##_##s
#define AN5D_TN(b, s) AN5D_TN_(b, s)
#define TN(b) AN5D_TN(b, S) /* hand_j2d5pt_f */
#define AN5D_HN_(b, s) an5d_##b##_##s
#define AN5D_HN(b, s) AN5D_HN_(b, s)
#define HN(b) AN5D_HN(b, S) /* an5d_at2_f: helpers of one type */

#define E2(i, j) HN(at2)(in, nx, ny, x + (i), y + (j))
#define E3(i, j, k) HN(at3)(in, nx, ny, nz, x + (i), y + (j), z + (k))
#define I2(i, j) rp[(j) + rad_][x + (i)]
#define I3(i, j, k) rp[((k) + rad_) * (2 * rad_ + 1) + (j) + rad_][x + (i)]
/* the weight of tap t of a star or box, (t + 1) / PW: PW a power of two in the function */
#define W(t) ((T)((t) + 1) / (T)PW)

/* star: t = 0 the center, then for k = 1..R and each axis: -k, +k; weights W(t) */
#define STAR2D(A, v)                                                                            \
    do {                                                                                        \
        v = W(0) * A(0, 0);                                                                     \
        _Pragma("GCC unroll 16")                                                                \
        for (int k = 1, t = 1; k <= R; k++, t += 4) {                                           \
            v += W(t) * A(-k, 0);                                                               \
            v += W(t + 1) * A(k, 0);                                                            \
            v += W(t + 2) * A(0, -k);                                                           \
            v += W(t + 3) * A(0, k);                                                            \
        }                                                                                       \
    } while (0)
#define STAR3D(A, v)                                                                            \
    do {                                                                                        \
        v = W(0) * A(0, 0, 0);                                                                  \
        _Pragma("GCC unroll 16")                                                                \
        for (int k = 1, t = 1; k <= R; k++, t += 6) {                                           \
            v += W(t) * A(-k, 0, 0);                                                            \
            v += W(t + 1) * A(k, 0, 0);                                                         \
            v += W(t + 2) * A(0, -k, 0);                                                        \
            v += W(t + 3) * A(0, k, 0);                                                         \
            v += W(t + 4) * A(0, 0, -k);                                                        \
            v += W(t + 5) * A(0, 0, k);                                                         \
        }                                                                                       \
    } while (0)
/* box: taps z outermost, x innermost, t counting them; weights W(t) */
#define BOX2D(A, v)                                                                             \
    do {                                                                                        \
        v = 0;                                                                                  \
        for (int j = -R, t = 0; j <= R; j++)                                                    \
            for (int i = -R; i <= R; i++, t++)                                                  \
                v += W(t) * A(i, j);                                                            \
    } while (0)
#define BOX3D(A, v)                                                                             \
    do {                                                                                        \
        v = 0;                                                                                  \
        for (int k = -R, t = 0; k <= R; k++)                                                    \
            for (int j = -R; j <= R; j++)                                                       \
                for (int i = -R; i <= R; i++, t++)                                              \
                    v += W(t) * A(i, j, k);                                                     \
    } while (0)
/* the same, unrolled (the small boxes, computed point by point) */
#define BOX2D_U(A, v)                                                                           \
    do {                                                                                        \
        v = 0;                                                                                  \
        _Pragma("GCC unroll 5") for (int j = -R, t = 0; j <= R; j++)                            \
            _Pragma("GCC unroll 5") for (int i = -R; i <= R; i++, t++)                          \
                v += W(t) * A(i, j);                                                            \
    } while (0)
#define BOX3D_U(A, v)                                                                           \
    do {                                                                                        \
        v = 0;                                                                                  \
        _Pragma("GCC unroll 3") for (int k = -R, t = 0; k <= R; k++)                            \
            _Pragma("GCC unroll 3") for (int j = -R; j <= R; j++)                               \
                _Pragma("GCC unroll 3") for (int i = -R; i <= R; i++, t++)                      \
                    v += W(t) * A(i, j, k);                                                     \
    } while (0)
/* j2d5pt: center 13, x-1 3, x+1 5, y-1 7, y+1 11, over 39 */
#define J2D5PT(A, v)                                                                            \
    v = ((T)13 * A(0, 0) + (T)3 * A(-1, 0) + (T)5 * A(1, 0) + (T)7 * A(0, -1)                   \
         + (T)11 * A(0, 1)) / (T)39
/* j2d9pt: the radius-2 star in the star order, 23 19 17 13 11 7 5 3 2, over 100 */
#define J2D9PT(A, v)                                                                            \
    v = ((T)23 * A(0, 0) + (T)19 * A(-1, 0) + (T)17 * A(1, 0) + (T)13 * A(0, -1)                \
         + (T)11 * A(0, 1) + (T)7 * A(-2, 0) + (T)5 * A(2, 0) + (T)3 * A(0, -2)                 \
         + (T)2 * A(0, 2)) / (T)100
/* j2d9pt_gol: the 3x3 box row by row, weights 1..9, over 45 */
#define J2D9PT_GOL(A, v)                                                                        \
    do {                                                                                        \
        v = 0;                                                                                  \
        _Pragma("GCC unroll 3") for (int j = -1, t = 1; j <= 1; j++)                            \
            _Pragma("GCC unroll 3") for (int i = -1; i <= 1; i++, t++)                          \
                v += (T)t * A(i, j);                                                            \
        v /= (T)45;                                                                             \
    } while (0)
/* j3d27pt: the 3x3x3 box plane by plane, weights 1, 3, ..., 53, over 729 */
#define J3D27PT(A, v)                                                                           \
    do {                                                                                        \
        v = 0;                                                                                  \
        _Pragma("GCC unroll 3") for (int k = -1, t = 1; k <= 1; k++)                            \
            _Pragma("GCC unroll 3") for (int j = -1; j <= 1; j++)                               \
                _Pragma("GCC unroll 3") for (int i = -1; i <= 1; i++, t += 2)                   \
                    v += (T)t * A(i, j, k);                                                     \
        v /= (T)729;                                                                            \
    } while (0)
/* gradient2d: c + 1 / sqrt(2^-13 + 1 (c-w)^2 + 1.25 (c-e)^2 + 1.5 (c-s)^2 + 1.75 (c-n)^2) */
#define GRADIENT2D(A, v)                                                                        \
    do {                                                                                        \
        const T c_ = A(0, 0);                                                                   \
        const T dw = c_ - A(-1, 0), de = c_ - A(1, 0);                                          \
        const T ds = c_ - A(0, -1), dn = c_ - A(0, 1);                                          \
        v = c_ + (T)1 / SQRT((T)0.0001220703125 + (T)1 * dw * dw + (T)1.25 * de * de            \
                             + (T)1.5 * ds * ds + (T)1.75 * dn * dn);                           \
    } while (0)

/* A 2D kernel: STENCIL(A, v) per point, rows in parallel. Each row's table rp points at
 * the rows y - rad .. y + rad (the zero row where outside the grid); the first and last
 * rad points read through E2, the others through I2. */
#define POINTS2D(STENCIL, rad)                                                                  \
    enum { rad_ = rad };                                                                        \
    T *zero = HN(zeros)(nx);                                                                    \
    int x0, x1;                                                                                 \
    an5d_span(nx, rad, &x0, &x1);                                                               \
    _Pragma("omp parallel for schedule(static)") for (int y = 0; y < ny; y++)                   \
    {                                                                                           \
        T *restrict o = out + (long)y * nx;                                                     \
        const T *rp[2 * rad + 1];                                                               \
        for (int j = -rad; j <= rad; j++)                                                       \
            rp[j + rad] = y + j >= 0 && y + j < ny ? in + (long)(y + j) * nx : zero;            \
        for (int x = 0; x < x0; x++)                                                            \
            STENCIL(E2, o[x]);                                                                  \
        _Pragma("omp simd") for (int x = x0; x < x1; x++)                                       \
        {                                                                                       \
            T v_;                                                                               \
            STENCIL(I2, v_);                                                                    \
            o[x] = v_;                                                                          \
        }                                                                                       \
        for (int x = x1; x < nx; x++)                                                           \
            STENCIL(E2, o[x]);                                                                  \
    }                                                                                           \
    free(zero);
/* A 3D kernel: planes in parallel, the table of the (2 rad + 1)^2 rows around (y, z). */
#define POINTS3D(STENCIL, rad)                                                                  \
    enum { rad_ = rad };                                                                        \
    T *zero = HN(zeros)(nx);                                                                    \
    int x0, x1;                                                                                 \
    an5d_span(nx, rad, &x0, &x1);                                                               \
    _Pragma("omp parallel for schedule(static)") for (int z = 0; z < nz; z++)                   \
    for (int y = 0; y < ny; y++) {                                                              \
        T *restrict o = out + ((long)z * ny + y) * nx;                                          \
        const T *rp[(2 * rad + 1) * (2 * rad + 1)];                                             \
        for (int k = -rad, r = 0; k <= rad; k++)                                                \
            for (int j = -rad; j <= rad; j++, r++)                                              \
                rp[r] = z + k >= 0 && z + k < nz && y + j >= 0 && y + j < ny                    \
                            ? in + ((long)(z + k) * ny + y + j) * nx                            \
                            : zero;                                                             \
        for (int x = 0; x < x0; x++)                                                            \
            STENCIL(E3, o[x]);                                                                  \
        _Pragma("omp simd") for (int x = x0; x < x1; x++)                                       \
        {                                                                                       \
            T v_;                                                                               \
            STENCIL(I3, v_);                                                                    \
            o[x] = v_;                                                                          \
        }                                                                                       \
        for (int x = x1; x < nx; x++)                                                           \
            STENCIL(E3, o[x]);                                                                  \
    }                                                                                           \
    free(zero);
#endif /* AN5D_TMPL_ONCE */

#if R == 1
/* a row of nx zeros, the rows outside the grid */
static T *HN(zeros)(int nx)
{
    T *z = calloc((size_t)nx, sizeof(T));
    if (!z) {
        fprintf(stderr, "an5d: out of memory\n");
        exit(1);
    }
    return z;
}

/* in(x, y[, z]), 0 outside the grid */
static inline T HN(at2)(const T *in, int nx, int ny, int x, int y)
{
    return x >= 0 && x < nx && y >= 0 && y < ny ? in[(long)y * nx + x] : (T)0;
}

static inline T HN(at3)(const T *in, int nx, int ny, int nz, int x, int y, int z)
{
    return x >= 0 && x < nx && y >= 0 && y < ny && z >= 0 && z < nz
               ? in[((long)z * ny + y) * nx + x]
               : (T)0;
}

void TN(j2d5pt)(const T *restrict in, T *restrict out, int nx, int ny)
{
    POINTS2D(J2D5PT, 1)
}

void TN(j2d9pt)(const T *restrict in, T *restrict out, int nx, int ny)
{
    POINTS2D(J2D9PT, 2)
}

void TN(j2d9pt_gol)(const T *restrict in, T *restrict out, int nx, int ny)
{
    POINTS2D(J2D9PT_GOL, 1)
}

void TN(j3d27pt)(const T *restrict in, T *restrict out, int nx, int ny, int nz)
{
    POINTS3D(J3D27PT, 1)
}

void TN(gradient2d)(const T *restrict in, T *restrict out, int nx, int ny)
{
    POINTS2D(GRADIENT2D, 1)
}
#endif /* R == 1 */

void RN(star2d)(const T *restrict in, T *restrict out, int nx, int ny)
{
    enum { PW = AN5D_P2(AN5D_TOT(1 + 4 * R)) };
    POINTS2D(STAR2D, R)
}

void RN(star3d)(const T *restrict in, T *restrict out, int nx, int ny, int nz)
{
    enum { PW = AN5D_P2(AN5D_TOT(1 + 6 * R)) };
    POINTS3D(STAR3D, R)
}

/* Boxes of up to 27 taps are computed point by point, their taps unrolled. Larger ones:
 * the inner points of a row start at 0 and take the taps of one row of the neighbourhood
 * at a time, out_row[x] += sum over i of W(t + R + i) * in_row[x + i] (a vector loop along
 * x, the loop over i unrolled); a row outside the grid adds nothing. */
#if R <= 2
void RN(box2d)(const T *restrict in, T *restrict out, int nx, int ny)
{
    enum { PW = AN5D_P2(AN5D_TOT((2 * R + 1) * (2 * R + 1))) };
    POINTS2D(BOX2D_U, R)
}
#else
void RN(box2d)(const T *restrict in, T *restrict out, int nx, int ny)
{
    enum { s = 2 * R + 1, PW = AN5D_P2(AN5D_TOT(s * s)) };
    int x0, x1;
    an5d_span(nx, R, &x0, &x1);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < ny; y++) {
        T *restrict o = out + (long)y * nx;
        for (int x = 0; x < x0; x++)
            BOX2D(E2, o[x]);
        for (int x = x0; x < x1; x++)
            o[x] = 0;
        for (int j = -R, t = 0; j <= R; j++, t += s) {
            if (y + j < 0 || y + j >= ny)
                continue;
            const T *restrict row = in + (long)(y + j) * nx;
#pragma omp simd
            for (int x = x0; x < x1; x++) {
                T v = o[x];
#pragma GCC unroll 9
                for (int i = -R; i <= R; i++)
                    v += W(t + R + i) * row[x + i];
                o[x] = v;
            }
        }
        for (int x = x1; x < nx; x++)
            BOX2D(E2, o[x]);
    }
}

#endif

#if R == 1
void RN(box3d)(const T *restrict in, T *restrict out, int nx, int ny, int nz)
{
    enum { PW = AN5D_P2(AN5D_TOT(27)) };
    POINTS3D(BOX3D_U, R)
}
#else
void RN(box3d)(const T *restrict in, T *restrict out, int nx, int ny, int nz)
{
    enum { s = 2 * R + 1, PW = AN5D_P2(AN5D_TOT(s * s * s)) };
    int x0, x1;
    an5d_span(nx, R, &x0, &x1);
#pragma omp parallel for schedule(static)
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++) {
            T *restrict o = out + ((long)z * ny + y) * nx;
            for (int x = 0; x < x0; x++)
                BOX3D(E3, o[x]);
            for (int x = x0; x < x1; x++)
                o[x] = 0;
            for (int k = -R, t = 0; k <= R; k++)
                for (int j = -R; j <= R; j++, t += s) {
                    if (z + k < 0 || z + k >= nz || y + j < 0 || y + j >= ny)
                        continue;
                    const T *restrict row = in + ((long)(z + k) * ny + y + j) * nx;
#pragma omp simd
                    for (int x = x0; x < x1; x++) {
                        T v = o[x];
#pragma GCC unroll 9
                        for (int i = -R; i <= R; i++)
                            v += W(t + R + i) * row[x + i];
                        o[x] = v;
                    }
                }
            for (int x = x1; x < nx; x++)
                BOX3D(E3, o[x]);
        }
}
#endif
