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
} PlanOps;

/* The kernels of one backend; a kernel left out of a build is NULL. */
typedef struct KernelSet {
    const char *backend;
    const PlanOps *v1, *v2, *v3, *copy;
    const PlanOps *v2r; /* --resident: v2 with the ghost exchange as a second phase */
} KernelSet;

/* Built in (glue.c compiled with GLUE_PREFIX c_, ocl_, cuda_). */
extern const KernelSet c_kernels, ocl_kernels;
#ifdef PROXY_HAVE_CUDA
extern const KernelSet cuda_kernels;
#endif

/* ---- the mesh (mesh.c) ------------------------------------------------------------
 * blocks x vars grids of (n+2)^3 doubles, block-major: grid (b, v) starts at element
 * (b*vars + v) * (n+2)^3; cell (x, y, z), 0..n+1 each (0 and n+1 are the ghost
 * layer), is at (z*(n+2) + y)*(n+2) + x. Blocks form a bx x by x bz arrangement,
 * block (i, j, k) having number (k*by + j)*bx + i. */
typedef struct Mesh {
    int n, blocks, vars;
    int bx, by, bz;
    size_t grid;   /* (n+2)^3 */
    double *cell;  /* blocks * vars * grid */
} Mesh;

/* The near-cubic arrangement of `blocks`: bx >= by >= bz, bx*by*bz = blocks, with
 * the largest factor as small as it can be, then bz as large as it can be. */
void mesh_arrange(int blocks, int *bx, int *by, int *bz);
int mesh_alloc(Mesh *m, int n, int blocks, int vars);
void mesh_free(Mesh *m);
/* Deterministic values in [0, 1) in every cell, ghosts included. */
void mesh_init(Mesh *m, unsigned seed);
static inline double *mesh_grid(const Mesh *m, int b, int v)
{
    return m->cell + ((size_t)b * m->vars + v) * m->grid;
}
static inline size_t mesh_at(const Mesh *m, int x, int y, int z)
{
    size_t s = (size_t)m->n + 2;
    return ((size_t)z * s + y) * s + x;
}
/* miniAMR's communication: the face ghost cells of every block from the
 * neighbouring block, or on the faces of the domain by the reflective rule (the
 * ghost takes the value of the interior cell next to it). Edges and corners of the
 * ghost layer are not filled (the 7-point stencil never reads them). */
void mesh_fill_ghosts(Mesh *m);
/* The reference: miniAMR's 7-point stencil on every block and variable, written
 * as a plain loop (thesis listing 4.2): the average into a temporary, then copied
 * back. The sum is taken in the kernels' order: x-1, y-1, z-1, centre, z+1, y+1,
 * x+1. tmp holds n^3 doubles. */
void mesh_stencil_reference(Mesh *m, double *tmp);
/* sum[v] = sum over every interior cell of variable v (miniAMR's checksum). */
void mesh_checksums(const Mesh *m, double *sum);
/* Compares the interior cells of got and want: |g - w| <= rtol * |w| (0: exact).
 * Prints up to 5 differences to stderr; returns their count. */
long mesh_compare(const Mesh *got, const Mesh *want, double rtol, int stage);

/* ---- kernels configured at run time (runtime.c) ----------------------------------- */
/* Generates `kernel` for `backend` with imcl -t params into a fresh temporary
 * folder, compiles it with glue.c into a shared object and loads it. Prints what
 * failed and returns NULL on failure. */
const KernelSet *runtime_kernels(const char *backend, const char *kernel, const char *params, int keep);
void runtime_cleanup(void);

double now_s(void);

#endif
