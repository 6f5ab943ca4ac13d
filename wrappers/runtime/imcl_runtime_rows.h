// What the host runtimes written once into an output folder share (the C reference's
// imcl_runtime_c.c, OpenCL's imcl_runtime_opencl.c, CUDA's imcl_runtime_cuda.cu): the text
// of a return code, the size of an array's storage and the copies between a block's dense
// storage and an application's row tables or pitched memory. Written beside each of them
// as imcl_runtime_rows.h (backend_c.c, backend_opencl.c, backend_cuda.c;
// docs/architecture.md, "Host runtime"). These // lines are not copied.
/* Helpers of this folder's host runtime: the text of a return code, the size of an
 * array's storage, and the copies of PK_plan_upload_rows_<a> and the others of its kind
 * between a plan's dense storage and the application's row tables or pitched memory.
 * Static: each runtime file that includes it has its own. */
#ifndef IMCL_RUNTIME_ROWS_H_IMCLTAG
#define IMCL_RUNTIME_ROWS_H_IMCLTAG

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* (a file that includes this header and does not call one of them is no error) */
#if defined(__GNUC__)
#define IMCL_ROWS_HELPER static inline __attribute__((unused))
#else
#define IMCL_ROWS_HELPER static inline
#endif

/* PK_strerror: the text of each return code of a K.h (PK_OK 0, PK_ERR_ARGUMENT -1, ...). */
IMCL_ROWS_HELPER const char *imcl_runtime_strerror(int code)
{
    switch (code) {
    case 0: return "success";
    case -1: return "invalid argument (NULL array, extent below 1, or grid arrays of different "
                    "extents)";
    case -2: return "no usable device";
    case -3: return "device memory allocation failed";
    case -4: return "copy between host and device failed";
    case -5: return "kernel build failed";
    case -6: return "kernel launch failed";
    default: return "unknown error";
    }
}

/* The bytes of an array's storage: `capacity` blocks of an Image or Block (dims 2 or 3)
 * of `extent` with a halo on each side, or a fixed-size array of `count` elements. */
IMCL_ROWS_HELPER size_t imcl_rows_bytes(int dims, int halo, size_t elem, size_t count,
                                        int capacity, const int extent[3])
{
    size_t elems = dims ? (size_t)capacity : count;
    for (int d = 0; d < dims; d++)
        elems *= (size_t)extent[d] + 2 * (size_t)halo;
    return elems * elem;
}

/* The checks of PK_plan_upload_rows_<a> and the others of its kind before the pitches:
 * row tables, or else the host memory to read (up) or write, an Image or Block (dims 2 or
 * 3), blocks first to first + count - 1 among the plan's capacity. Nonzero when one fails. */
IMCL_ROWS_HELPER int imcl_rows_refused(int dims, int capacity, int up, int first, int count,
                                       const void *tables, const void *src, const void *dst)
{
    return (!tables && !(up ? src : dst)) || !dims || first < 0 || count < 0
        || count > capacity - first;
}

/* PK_plan_select's check: `count` blocks, at most the capacity, each listed in `blocks`
 * and below the capacity. Nonzero when it fails; a NULL list (every block) passes. */
IMCL_ROWS_HELPER int imcl_select_refused(int capacity, int count, const int *blocks)
{
    if (!blocks)
        return 0;
    if (count < 0 || count > capacity)
        return 1;
    for (int i = 0; i < count; i++)
        if (blocks[i] < 0 || blocks[i] >= capacity)
            return 1;
    return 0;
}

/* PK_plan_select's host side once checked: the list into *selected (room for `capacity`,
 * allocated at the first selection; freed and NULL for every block, `blocks` NULL) and
 * the count a launch of the plan computes into *launch. 0, or -3 (PK_ERR_MEMORY) with
 * every block selected. */
IMCL_ROWS_HELPER int imcl_select_keep(int capacity, int count, const int *blocks,
                                      int **selected, int *launch)
{
    if (blocks && !*selected)
        *selected = (int *)malloc(sizeof(int) * (size_t)capacity);
    if (!blocks || !*selected) {
        free(*selected);
        *selected = NULL;
        *launch = capacity;
        return blocks ? -3 : 0;
    }
    memcpy(*selected, blocks, sizeof(int) * (size_t)count);
    *launch = count;
    return 0;
}

/* One block's storage of an Image or Block: its rows' length, its rows per plane, its
 * rows (an Image: one plane). */
typedef struct imcl_rows_shape {
    size_t w, h, rows;
    int block; /* a Block: tables are T ***tables[b] */
} imcl_rows_shape;

/* The shape of a block of extent `extent` (halo on each side); 0, or -1 when pitched host
 * memory (no tables) has rows, planes or blocks that overlap. */
IMCL_ROWS_HELPER int imcl_rows_shape_of(imcl_rows_shape *s, int dims, int halo,
                                        const int extent[3], const void *tables,
                                        ptrdiff_t row_pitch, ptrdiff_t plane_pitch,
                                        ptrdiff_t block_pitch)
{
    s->block = dims == 3;
    s->w = (size_t)extent[0] + 2 * (size_t)halo;
    s->h = (size_t)extent[1] + 2 * (size_t)halo;
    s->rows = s->block ? s->h * ((size_t)extent[2] + 2 * (size_t)halo) : s->h;
    if (!tables && (row_pitch < (ptrdiff_t)s->w
            || (s->block && plane_pitch / (ptrdiff_t)s->h < row_pitch)
            || block_pitch / (ptrdiff_t)(s->rows / s->h)
                    < (s->block ? plane_pitch : row_pitch * (ptrdiff_t)s->h)))
        return -1;
    return 0;
}

/* `count` blocks between dense storage (their rows one after the other) and the row
 * tables `tables` (T **const * or T ***const *: block b's row y of plane z), or else host
 * memory src / dst with the pitches given in elements: into dense (up) or out of it. */
IMCL_ROWS_HELPER void imcl_rows_copy(const imcl_rows_shape *s, unsigned char *dense,
                                     size_t elem, int count, int up, const void *tables,
                                     const void *src, void *dst, ptrdiff_t row_pitch,
                                     ptrdiff_t plane_pitch, ptrdiff_t block_pitch)
{
    const size_t w = s->w, n = (size_t)count * s->rows;
    for (size_t r = 0; r < n; r++) {
        const size_t b = r / s->rows, y = r % s->h, z = r % s->rows / s->h;
        const ptrdiff_t at = ((ptrdiff_t)b * block_pitch + (ptrdiff_t)y * row_pitch
                              + (ptrdiff_t)z * plane_pitch) * (ptrdiff_t)elem;
        const void *row = !tables ? NULL
            : s->block ? ((void **const *const *)tables)[b][z][y]
                       : ((void *const *const *)tables)[b][y];
        if (up)
            memcpy(dense + r * w * elem, tables ? row : (const unsigned char *)src + at, w * elem);
        else
            memcpy(tables ? (void *)row : (unsigned char *)dst + at, dense + r * w * elem,
                   w * elem);
    }
}

#endif
