/* bench/an5d/loops.h: the hand-written loops of the AN5D set (loops.c), one per kernel
 * and precision: hand_<name>_<f|d>(in, out, nx, ny[, nz]) computes out from in over the
 * whole nx x ny (x nz) grid, x fastest in memory, reads outside the grid being 0. */
#ifndef AN5D_LOOPS_H
#define AN5D_LOOPS_H

#define AN5D_HAND2(name, T) void hand_##name(const T *restrict in, T *restrict out, int nx, int ny);
#define AN5D_HAND3(name, T)                                                                     \
    void hand_##name(const T *restrict in, T *restrict out, int nx, int ny, int nz);

#define AN5D_HANDS(S, T)                                                                        \
    AN5D_HAND2(star2d1r_##S, T) AN5D_HAND2(star2d2r_##S, T)                                     \
    AN5D_HAND2(star2d3r_##S, T) AN5D_HAND2(star2d4r_##S, T)                                     \
    AN5D_HAND2(box2d1r_##S, T) AN5D_HAND2(box2d2r_##S, T)                                       \
    AN5D_HAND2(box2d3r_##S, T) AN5D_HAND2(box2d4r_##S, T)                                       \
    AN5D_HAND3(star3d1r_##S, T) AN5D_HAND3(star3d2r_##S, T)                                     \
    AN5D_HAND3(star3d3r_##S, T) AN5D_HAND3(star3d4r_##S, T)                                     \
    AN5D_HAND3(box3d1r_##S, T) AN5D_HAND3(box3d2r_##S, T)                                       \
    AN5D_HAND3(box3d3r_##S, T) AN5D_HAND3(box3d4r_##S, T)                                       \
    AN5D_HAND2(j2d5pt_##S, T) AN5D_HAND2(j2d9pt_##S, T) AN5D_HAND2(j2d9pt_gol_##S, T)           \
    AN5D_HAND3(j3d27pt_##S, T) AN5D_HAND2(gradient2d_##S, T)

AN5D_HANDS(f, float)
AN5D_HANDS(d, double)

#endif /* AN5D_LOOPS_H */
