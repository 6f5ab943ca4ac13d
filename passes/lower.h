/* Internal to passes/: the pieces of grid-access lowering that the global-memory
 * and texture-memory passes share (index arithmetic and boundary handling). */
#ifndef IMCL_LOWER_H
#define IMCL_LOWER_H

#include "analysis.h"
#include "ast.h"

typedef struct Lower {
    Arena *a;
    Function *k;
    Diag *diag;
    int errors;
    Footprint *fp;   /* of k's body before the pass: decides which reads need guards */
    struct Rows *rows;  /* pass_global_memory: the row body's accesses (row pointers) */
} Lower;

/* int-typed `l + r` and `l * r`. */
Node *lower_add(Arena *a, Node *l, Node *r, Loc loc);
Node *lower_mul(Arena *a, Node *l, Node *r, Loc loc);
/* x + h, folded into x's own constant term when it has one (idx - 1 + 1 is idx). */
Node *lower_plus_halo(Arena *a, Node *x, int h, Loc loc);
/* Extent of the array's storage in dim d: extent + 2*halo. */
Node *lower_storage_extent(Arena *a, Symbol *root, int d, Loc loc);
/* The guard `imcl_in(x, n, h) && ...` of grid access acc over the dimensions not
 * proven inside its array's storage, or NULL when every one is. */
Node *lower_inside_cond(Lower *L, Node *acc);
/* Boundary handling of the read acc (a grid access) by explicit index arithmetic:
 * fills ix[d] with the index of each dimension, passed through imcl_clamp,
 * imcl_wrap or imcl_mirror where the condition needs it, and returns the guard a
 * constant boundary needs (NULL when none). Writes and `none` get neither. */
Node *lower_boundary(Lower *L, Node *acc, Node **ix);
/* `guard ? read : v`, v the boundary value of root (converted to its element type). */
Node *lower_guarded(Lower *L, Node *guard, Node *read, Symbol *root, Loc loc);

/* A local array holding an array's elements at the offsets lo[d] .. lo[d] + n[d] - 1
 * from the grid point, box[z][y][x] (box[y][x] for 2 dimensions): pass_stream_z's
 * windows and pass_register_cache's values. */
typedef struct Box {
    Arena *a;
    Symbol *sym;
    Symbol *view;       /* whose reads it replaces */
    Type *elem;
    int dims;
    long long lo[3];
    int n[3];
} Box;

/* The box `name` of elem over the offsets lo..hi of view's reads (not declared). */
Box lower_box(Arena *a, const char *name, Symbol *view, Type *elem, int dims, const long long *lo,
              const long long *hi);
/* box[off - lo], off a constant offset in each dimension. */
Node *lower_box_at(const Box *b, const long long *off);
/* Every read of b->view in root becomes a read of the box: each index the read's
 * offset from the grid coordinate minus lo, a literal where the offset is constant. */
void lower_box_replace_reads(const Box *b, Node *root);
/* The linear index of element ix (n coordinates) in root's storage, halo included:
 * ((z + h) * (height + 2h) + (y + h)) * (width + 2h) + (x + h). */
Node *lower_linear(Arena *a, Symbol *root, Node **ix, int n, Loc loc);
/* `cond && inside` (cond may be NULL; cond itself when mask is 0), inside telling
 * whether element ix of `view` lies in its root's storage: for an array,
 * imcl_in(ix[d], extent, halo) in the dimensions d of `mask`; for an alias, its
 * address (alias offsets included) inside the buffer. */
Node *lower_in_storage(Arena *a, Node *cond, Symbol *view, Node **ix, int dims, unsigned mask);
/* `inside ? read : 0`, inside being lower_in_storage for the read's array; read
 * itself when mask is 0. For loads without a boundary rule that may reach past the
 * storage. */
Node *lower_storage_guard(Arena *a, Node *read, Node **ix, unsigned mask);
/* idx + off (idy, idz for d 1, 2), int-typed. */
Node *lower_coord(Arena *a, int d, long long off);

#endif
