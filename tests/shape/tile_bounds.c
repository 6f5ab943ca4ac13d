/* Do the loads of a shared-memory tile stay inside the buffers? (tests/shape, %bounds)
 *
 * The OpenCL kernel imcl generated (KERNEL_CL) is compiled as C under
 * AddressSanitizer, with the OpenCL built-ins defined below, and every work-item of
 * the launch (the wrappers' geometry: ceil(N / (block x coarsening)) groups per
 * dimension, BX x BY x BZ work-items each) is run one after another. Barriers are
 * no-ops, so the tiles a work-item reads are incomplete and the outputs are
 * meaningless; what counts is that every global-memory access lies inside its
 * buffer, each allocated with its exact size: AddressSanitizer stops the program
 * at the first access outside one. CASE selects the kernel and its arguments. */
#include <stdio.h>
#include <stdlib.h>

#define __kernel
#define __global
#define __local
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
static int imcl_emu_group[3], imcl_emu_local[3];
#define get_group_id(d) ((size_t)imcl_emu_group[(d)])
#define get_local_id(d) ((size_t)imcl_emu_local[(d)])
#define barrier(flags) ((void)0)
#define CLK_LOCAL_MEM_FENCE 0

#include KERNEL_CL

static void *exact(long n, size_t size)
{
    void *p = calloc((size_t)n, size);
    if (!p) {
        fprintf(stderr, "tile_bounds: out of memory\n");
        exit(1);
    }
    return p;
}

static int groups(int n, int b, int c) { return (n + b * c - 1) / (b * c); }

#define LAUNCH(W, H, D, CALL)                                                                   \
    for (int gz = 0; gz < groups((D), BZ, CZ); gz++)                                            \
        for (int gy = 0; gy < groups((H), BY, CY); gy++)                                        \
            for (int gx = 0; gx < groups((W), BX, CX); gx++)                                    \
                for (int tz = 0; tz < BZ; tz++)                                                 \
                    for (int ty = 0; ty < BY; ty++)                                             \
                        for (int tx = 0; tx < BX; tx++) {                                       \
                            imcl_emu_group[0] = gx, imcl_emu_group[1] = gy, imcl_emu_group[2] = gz; \
                            imcl_emu_local[0] = tx, imcl_emu_local[1] = ty, imcl_emu_local[2] = tz; \
                            CALL;                                                               \
                        }

int main(void)
{
#if defined(CASE_SUM7)
    /* constant boundary, grid 13 x 11 x 9 */
    const int w = 13, h = 11, d = 9;
    double *in = exact((long)w * h * d, sizeof(double)), *out = exact((long)w * h * d, sizeof(double));
    LAUNCH(w, h, d, sum7(in, w, h, d, out, w, h, d, w, h, d, 1, NULL));
#elif defined(CASE_HALO)
    /* boundary none with a ghost layer, grid 13 x 11 x 9 */
    const int w = 13, h = 11, d = 9;
    const long n = (long)(w + 2) * (h + 2) * (d + 2);
    double *in = exact(n, sizeof(double)), *out = exact(n, sizeof(double));
    LAUNCH(w, h, d, halo(in, w, h, d, out, w, h, d, w, h, d, 1, NULL));
#elif defined(CASE_ALIAS_END)
    /* three 4 x 4 x 1 blocks with a ghost layer, stacked in z; the alias is the last */
    const int nx = 4, ny = 4, nz = 1, nv = 3, v = nv - 1, depth = nv * (nz + 2) - 2;
    double *in = exact((long)nv * (nx + 2) * (ny + 2) * (nz + 2), sizeof(double));
    double *out = exact((long)nx * ny * nz, sizeof(double));
    LAUNCH(nx, ny, nz, alias_end(in, nx, ny, depth, out, nx, ny, nz, nx, ny, nz, v, nx, ny, nz, 1, NULL));
#elif defined(CASE_ALIAS2)
    /* an Image of 37 x 31, the alias two rows down, grid 37 x 29 */
    const int w = 37, h = 29, ih = h + 2;
    int *in = exact((long)w * ih, sizeof(int)), *out = exact((long)w * h, sizeof(int));
    LAUNCH(w, h, 1, alias2(in, w, ih, out, w, h, w, h, 2 * w, w, h, 1, 1, NULL));
#else
#error "no CASE"
#endif
    free(in);
    free(out);
    printf("tile_bounds: every access inside its buffer\n");
    return 0;
}
