/* miniamr-proxy: the pieces shared by its files.
 *
 * The kernels are reached through PlanOps, a table of adapters over the plan API
 * that imcl generates (K_plan_create, K_plan_upload_<a>, ...). glue.c builds the
 * tables of one backend; it is compiled once per backend at build time, and again
 * at run time when -t asks for another configuration (runtime.c). */
#ifndef MINIAMR_PROXY_H
#define MINIAMR_PROXY_H

#include <stddef.h>

/* The plan API of one generated kernel, over double arrays, with arrays named by
 * their plan id (declaration order) and int scalars in declaration order. */
typedef struct PlanOps {
    const char *kernel;                                   /* "v1", "v2", "v3", "copy", "v2r" */
    int narrays;
    int (*create)(void **plan, const int (*extent)[3]);   /* extent[array] = {w, h, d} */
    int (*upload)(void *plan, int array, const double *host);
    int (*download)(void *plan, int array, double *host);
    int (*launch)(void *plan, const int *scalars);
    int (*swap)(void *plan, int a, int b);
    double (*kernel_ms)(const void *plan);
    void (*destroy)(void *plan);
    const char *(*strerror)(int code);
    const char *(*build_log)(void);
    /* --kernel stencil7 only (NULL elsewhere): a plan for up to `capacity` blocks of
     * these extents, transfers of blocks first..first+count-1 from and into row tables
     * (tables[b][z][y], every row n+2 cells), one launch over blocks 0..count-1 */
    int (*create_batch)(void **plan, int capacity, const int (*extent)[3]);
    int (*upload_rows)(void *plan, int array, int first, int count, double ***const *tables);
    int (*download_rows)(void *plan, int array, int first, int count, double ***const *tables);
    int (*launch_batch)(void *plan, int count);
    /* --attach: the plan computes in host memory of the caller's (PK_plan_attach) */
    int (*attach)(void *plan, int array, double *host);
    /* a launch that returns at once (PK_plan_launch_batch_async), and its wait */
    int (*launch_batch_async)(void *plan, int count);
    int (*wait)(void *plan);
    /* --scatter: the blocks the launches compute (PK_plan_select) */
    int (*select)(void *plan, int count, const int *blocks);
} PlanOps;

/* The kernels of one backend; a kernel left out of a build is NULL. */
typedef struct KernelSet {
    const char *backend;
    const PlanOps *v1, *v2, *v3, *copy;
    const PlanOps *v2r; /* --resident: v2 with the ghost exchange as a second phase */
    const PlanOps *stencil7; /* miniAMR's loop body (samples/miniamr/stencil7.imcl) */
} KernelSet;

/* Built in (glue.c compiled with GLUE_PREFIX c_, ocl_, cuda_). */
extern const KernelSet c_kernels, ocl_kernels;
#ifdef PROXY_HAVE_CUDA
extern const KernelSet cuda_kernels;
#endif

/* ---- the mesh (mesh.c) ------------------------------------------------------------
 * blocks x vars grids of (n+2)^3 doubles (0 and n+1 are the ghost layer in each
 * dimension). Blocks form a bx x by x bz arrangement, block (i, j, k) having number
 * (k*by + j)*bx + i. Every grid is reached through a table of rows, as miniAMR
 * reaches its own: mesh_table(m, b, v)[z][y] is the row (y, z), n+2 cells, x fastest.
 * Two layouts:
 *  - dense (mesh_alloc; --kernel v1, v2, v3): block-major in `cell`, grid (b, v) at
 *    element (b*vars + v) * (n+2)^3, cell (x, y, z) at (z*(n+2) + y)*(n+2) + x; the
 *    tables point into it;
 *  - miniAMR's (mesh_alloc_tables; --kernel stencil7): every row its own allocation,
 *    for `capacity` blocks allocated at the start (miniAMR's max_num_blocks), of
 *    which the first `blocks` are in use (refinement changes their number);
 *  - miniAMR's tables over slabs (mesh_alloc_slabs; --kernel stencil7 --attach): the
 *    same tables, but the rows of each variable's `capacity` blocks lie in one
 *    page-aligned allocation, the variable's slab (block b's grid at element b *
 *    (n+2)^3), which a plan can compute in (PK_plan_attach). With `spare`, every
 *    variable has a second slab, reached through the tables `spare`, that a stage
 *    writes and then trades with the first (mesh_swap_var). With a `stride` S above
 *    1 (--scatter), block b lies in slot b*S + S-1 of a slab of capacity*S slots, as
 *    an AMR code's active blocks lie scattered among its free ones. */
typedef struct Mesh {
    int n, blocks, vars;
    int bx, by, bz;
    size_t grid;      /* (n+2)^3 */
    double *cell;     /* dense: blocks * vars * grid; over slabs: the slabs; NULL for miniAMR's layout */
    double ****rows;  /* rows[b*vars + v]: the table of block b's variable v */
    int capacity;     /* blocks allocated */
    int tables;       /* miniAMR's layout (its tables, refinement) */
    size_t slab;      /* over slabs: elements from one slab to the next in `cell`; else 0 */
    int stride;       /* over slabs: slots a block takes (block b in slot b*stride + stride-1) */
    double ****spare; /* over slabs with a spare: spare[b*vars + v], like rows; else NULL */
} Mesh;

/* The near-cubic arrangement of `blocks`: bx >= by >= bz, bx*by*bz = blocks, with
 * the largest factor as small as it can be, then bz as large as it can be. */
void mesh_arrange(int blocks, int *bx, int *by, int *bz);
int mesh_alloc(Mesh *m, int n, int blocks, int vars);
int mesh_alloc_tables(Mesh *m, int n, int blocks, int vars, int capacity);
int mesh_alloc_slabs(Mesh *m, int n, int blocks, int vars, int capacity, int spare, int stride);
void mesh_free(Mesh *m);
/* Deterministic values in [0, 1) in every cell, ghosts included (the same values
 * in either layout). */
void mesh_init(Mesh *m, unsigned seed);
static inline double *mesh_grid(const Mesh *m, int b, int v)
{
    return m->cell + ((size_t)b * m->vars + v) * m->grid;
}
static inline double ***mesh_table(const Mesh *m, int b, int v)
{
    return m->rows[(size_t)b * m->vars + v];
}
/* Over slabs: variable v's slab (its slot 0's first cell), or its spare slab. */
static inline double *mesh_slab(const Mesh *m, int v, int spare)
{
    return (spare ? m->spare : m->rows)[v][0][0] - (size_t)(m->stride - 1) * m->grid;
}
/* Over slabs: the slot of block b. */
static inline int mesh_slot(const Mesh *m, int b)
{
    return b * m->stride + m->stride - 1;
}
/* Over slabs with a spare: variable v's tables and those of its spare trade places
 * (pointers only), so that the values written into the spare become the variable's. */
void mesh_swap_var(Mesh *m, int v);
/* miniAMR's communication: the face ghost cells of every block from the
 * neighbouring block, or on the faces of the domain by the reflective rule (the
 * ghost takes the value of the interior cell next to it). Edges and corners of the
 * ghost layer are not filled (the 7-point stencil never reads them). */
void mesh_fill_ghosts(Mesh *m);
/* miniamr-proxy-mpi: the interior cells of block b's layer c (0..n+1) normal to dimension
 * dim, every variable's, into buf (out) or from it; and all of block b's cells, ghosts
 * included. Return the count of doubles. */
size_t mesh_layer(const Mesh *m, int b, int dim, int c, double *buf, int out);
size_t mesh_block(const Mesh *m, int b, double *buf, int out);
/* The reference: miniAMR's 7-point stencil on every block and variable, written
 * as a plain loop (thesis listing 4.2): the average into a temporary, then copied
 * back. The sum is taken in the order of the kernels that run on the layout: dense
 * (v1-v3) x-1, y-1, z-1, centre, z+1, y+1, x+1; miniAMR's (stencil7.imcl, miniAMR's
 * loop body verbatim) z-1, y-1, x-1, centre, x+1, y+1, z+1. tmp holds n^3 doubles. */
void mesh_stencil_reference(Mesh *m, double *tmp);
/* miniAMR's refinement, on every block at once (miniAMR's layout, n even): each
 * block splits into 8 of the same n (each cell's value / 8 into its 2x2x2 cells,
 * miniAMR's split_blocks), the arrangement doubling in every dimension; coarsening
 * joins each 2x2x2 group of blocks back into one (the sum of each 2x2x2 cells,
 * miniAMR's consolidate_blocks). Both keep the sum of every variable. Ghost cells
 * of the new blocks are zero. Return 0, or -1 when the blocks do not fit the
 * capacity (refine) or an arrangement dimension is odd (coarsen). */
int mesh_refine(Mesh *m);
int mesh_coarsen(Mesh *m);
/* sum[v] = sum over every interior cell of variable v (miniAMR's checksum). */
void mesh_checksums(const Mesh *m, double *sum);
/* Compares the interior cells of got and want: |g - w| <= rtol * |w| (0: exact).
 * Prints up to 5 differences to stderr; returns their count. */
long mesh_compare(const Mesh *got, const Mesh *want, double rtol, int stage);
/* The same for blocks first to first + count - 1 only. */
long mesh_compare_blocks(const Mesh *got, const Mesh *want, double rtol, int stage, int first, int count);

/* ---- kernels configured at run time (runtime.c) ----------------------------------- */
/* Generates `kernel` for `backend` with imcl -t params into a fresh temporary
 * folder, compiles it with glue.c into a shared object and loads it. Prints what
 * failed and returns NULL on failure. */
const KernelSet *runtime_kernels(const char *backend, const char *kernel, const char *params, int keep);
void runtime_cleanup(void);

double now_s(void);

#endif
