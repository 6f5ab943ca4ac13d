/* Placements (mem_<array>, docs/tuning.md): which memories an array may live in,
 * the shared-memory tile it needs, and the capacity of a constant-memory array.
 * The space dump lists exactly the placements allowed here, and params_for_kernel
 * refuses the others with the reason given here. */
#include "placement.h"

#include <math.h>
#include <string.h>

/* True when expression n may be evaluated before the kernel body: it reads only
 * literals, scalar parameters the body never assigns, array extents and the grid
 * size. */
static bool invariant(const Function *k, const Node *n)
{
    switch (n->kind) {
    case AST_INT_LIT:
    case AST_FLOAT_LIT:
    case AST_EXTENT:
        return true;
    case AST_BUILTIN:
        return n->u.builtin.which >= BI_W && n->u.builtin.which <= BI_D;
    case AST_VAR:
        return n->u.var.sym->kind == SYM_PARAM && type_is_scalar(n->u.var.sym->type) &&
               !ast_assigns(ast_point_body(k), n->u.var.sym);
    case AST_UNARY:
        return n->u.unary.op < OP_PREINC && invariant(k, n->u.unary.operand);
    case AST_BINARY:
        return n->u.binary.op != ',' && invariant(k, n->u.binary.lhs) && invariant(k, n->u.binary.rhs);
    case AST_COND:
        return invariant(k, n->u.cond.cond) && invariant(k, n->u.cond.then) && invariant(k, n->u.cond.els);
    case AST_CAST:
        return invariant(k, n->u.cast.expr);
    default:
        return false;
    }
}

/* The top-level statement of k's body that declares alias v, or NULL. */
static Node *top_level_decl(const Function *k, const Symbol *v)
{
    const NodeList *l = &ast_point_body(k)->u.block.stmts;
    for (int i = 0; i < l->len; i++)
        if (l->items[i]->kind == AST_DECL && l->items[i]->u.decl.sym == v)
            return l->items[i];
    return NULL;
}

bool placement_shared_tile(Arena *a, Function *k, Symbol *s, SharedTile *t, const char **why)
{
    memset(t, 0, sizeof *t);
    int n = type_grid_dims(s->type);
    t->dims = n;
    NodeList acc = ast_query_accesses(a, ast_point_body(k), s);
    if (acc.len == 0) {
        *why = "the kernel never reads it";
        return false;
    }
    Footprint *fp = analyze_footprint(a, k);
    for (int i = 0; i < acc.len; i++) {
        Node *x = acc.items[i];
        Symbol *view = x->u.access.sym;
        if (!t->view)
            t->view = view;
        if (view != t->view) {
            *why = "it is read through more than one view (the array and an alias, or two aliases)";
            return false;
        }
        const AccessFootprint *af = footprint_of(fp, x);
        for (int d = 0; d < n; d++) {
            if (!af || !af->known[d]) {
                *why = "its footprint is not known at compile time";
                return false;
            }
            if (i == 0 || af->min[d] < t->min[d])
                t->min[d] = af->min[d];
            if (i == 0 || af->max[d] > t->max[d])
                t->max[d] = af->max[d];
        }
    }
    if (t->view->kind == SYM_ALIAS) {
        Node *decl = top_level_decl(k, t->view);
        if (t->view->alias_base != s || !decl ||
            (t->view->alias_offset && !invariant(k, t->view->alias_offset))) {
            *why = "it is read through an alias whose offset is not known before the tile is loaded";
            return false;
        }
        t->alias_decl = decl;
    }
    for (int d = 0; d < n; d++)
        if (t->max[d] - t->min[d] > 64) {
            *why = "its footprint is wider than 64 points";
            return false;
        }
    return true;
}

long long placement_constant_elems(const Function *k, const Symbol *s, const SpaceOptions *o)
{
    const Type *t = s->type;
    if (t->kind == TY_ARRAY) {
        long long n = 1;
        for (int d = 0; d < t->ndims; d++)
            n *= t->dims[d];
        return n;
    }
    /* A grid array: as large as the grid, from --size or literal grid_size extents. */
    long long ext[3] = {1, 1, 1};
    int dims = type_grid_dims(t);
    for (int d = 0; d < dims; d++) {
        long long v;
        if (o->size && d < o->size_dims)
            ext[d] = o->size[d];
        else if (!o->size && k->grid_kind == GRID_SIZE && k->grid_size[d] && ast_const_int(k->grid_size[d], &v) && v > 0)
            ext[d] = v;
        else
            return -1;
    }
    long long n = 1;
    for (int d = 0; d < dims; d++)
        n *= ext[d] + 2 * s->halo;
    return n;
}

bool placement_allowed(Arena *a, Function *k, Symbol *s, MemKind m, const SpaceOptions *o, const char **why)
{
    *why = NULL;
    if (m == MEM_GLOBAL)
        return true;
    if (m == MEM_REGISTER && o->backend->gpu && !o->backend->warp_shuffles) {
        *why = "register caching needs the warp shuffles of CUDA";
        return false;
    }
    if (s->access & ACC_WRITE) {
        *why = "the kernel writes it (only global memory can be written)";
        return false;
    }
    if ((m == MEM_TEXTURE || m == MEM_CONSTANT) && s == k->iterate[0]) {
        *why = arena_printf(a, "it trades roles with '%s' after each step (iterate), which needs a buffer",
                            k->iterate[1]->name);
        return false;
    }
    switch (m) {
    case MEM_REGISTER: {
        RegisterCache rc;
        return placement_register_cache(a, k, s, &rc, why);
    }
    case MEM_SHARED: {
        if (!type_is_grid(s->type)) {
            *why = "shared memory holds tiles of an Image or Block";
            return false;
        }
        SharedTile t;
        return placement_shared_tile(a, k, s, &t, why);
    }
    case MEM_TEXTURE: {
        if (!type_is_grid(s->type)) {
            *why = "texture memory holds an Image or Block";
            return false;
        }
        NodeList acc = ast_query_accesses(a, ast_point_body(k), s);
        if (acc.len == 0) {
            *why = "the kernel never reads it";
            return false;
        }
        for (int i = 0; i < acc.len; i++)
            for (Symbol *v = acc.items[i]->u.access.sym; v->kind == SYM_ALIAS; v = v->alias_base)
                if (v->alias_offset) {
                    *why = "it is read through an alias with an offset, which a texture cannot address";
                    return false;
                }
        return true;
    }
    case MEM_CONSTANT: {
        long long elems = placement_constant_elems(k, s, o);
        if (o->backend->constant_needs_size && elems < 0) {
            *why = "CUDA constant arrays need a size known at compile time (give --size)";
            return false;
        }
        if (elems * type_size(s->type->elem) > o->constant_limit) {
            *why = arena_printf(a, "it takes %lld bytes, more than the %lld bytes of constant memory",
                                elems * type_size(s->type->elem), o->constant_limit);
            return false;
        }
        return true;
    }
    default:
        UNREACHABLE();
    }
}

/* True for a literal 0 (integer or floating, not -0.0). */
static bool literal_zero(const Node *v)
{
    long long i;
    if (v->kind == AST_FLOAT_LIT)
        return v->u.lit.fval == 0.0 && !signbit(v->u.lit.fval);
    return ast_const_int(v, &i) && i == 0;
}

TextureAddress placement_texture_address(const Symbol *s)
{
    s = symbol_root((Symbol *)s);
    /* Storage coordinates run over [0, n + 2h): imcl_clamp(i, n, h) + h is the
     * clamp-to-edge of i + h, and imcl_in(i, n, h) says i + h is inside, so the
     * hardware modes serve halo arrays too. */
    if (s->bc == BC_CLAMPED)
        return TEXTURE_CLAMP_EDGE;
    if (s->bc == BC_CONSTANT && (!s->bc_value || literal_zero(s->bc_value)))
        return TEXTURE_BORDER_ZERO;
    return TEXTURE_EXPLICIT;
}

/* The columns of the window and the planes each holds, from the footprint of
 * every read: a read whose x and y offsets are single constants touches one
 * column, others every column of their x-y box. */
static void stream_columns(Arena *a, Function *k, Symbol *s, StreamWindow *w)
{
    int cols = w->n[0] * w->n[1];
    w->zlo = arena_alloc(a, sizeof(int) * (size_t)cols);
    w->zhi = arena_alloc(a, sizeof(int) * (size_t)cols);
    for (int c = 0; c < cols; c++) {
        w->zlo[c] = 1;
        w->zhi[c] = 0;
    }
    Footprint *fp = analyze_footprint(a, k);
    NodeList acc = ast_query_accesses(a, ast_point_body(k), s);
    for (int i = 0; i < acc.len; i++) {
        const AccessFootprint *af = footprint_of(fp, acc.items[i]);
        int zl = (int)(af->min[2] - w->t.min[2]), zh = (int)(af->max[2] - w->t.min[2]);
        for (long long y = af->min[1]; y <= af->max[1]; y++)
            for (long long x = af->min[0]; x <= af->max[0]; x++) {
                int c = (int)(x - w->t.min[0] + w->n[0] * (y - w->t.min[1]));
                if (w->zlo[c] > w->zhi[c] || zl < w->zlo[c])
                    w->zlo[c] = zl;
                if (zh > w->zhi[c])
                    w->zhi[c] = zh;
            }
    }
    for (int c = 0; c < cols; c++)
        if (w->zlo[c] <= w->zhi[c]) {
            w->columns++;
            w->values += w->zhi[c] - w->zlo[c] + 1;
        }
}

bool placement_stream_window(Arena *a, Function *k, Symbol *s, StreamWindow *w, const char **why)
{
    memset(w, 0, sizeof *w);
    if (!s->type || s->type->kind != TY_BLOCK) {
        *why = "it is not a Block";
        return false;
    }
    if (s->access & ACC_WRITE) {
        *why = "the kernel writes it";
        return false;
    }
    if (!placement_shared_tile(a, k, s, &w->t, why))
        return false;
    for (int d = 0; d < 3; d++) {
        if (w->t.max[d] - w->t.min[d] >= PLACEMENT_MAX_WINDOW) {
            *why = arena_printf(a, "its footprint is wider than %d points", PLACEMENT_MAX_WINDOW);
            return false;
        }
        w->n[d] = (int)(w->t.max[d] - w->t.min[d] + 1);
    }
    stream_columns(a, k, s, w);
    return true;
}

bool placement_register_cache(Arena *a, Function *k, Symbol *s, RegisterCache *rc, const char **why)
{
    memset(rc, 0, sizeof *rc);
    if (s->access & ACC_WRITE) {
        *why = "the kernel writes it (only global memory can be written)";
        return false;
    }
    if (!type_is_grid(s->type)) {
        *why = "registers of a warp cache an Image or Block";
        return false;
    }
    if (!placement_shared_tile(a, k, s, &rc->t, why))
        return false;
    int dims = rc->t.dims;
    if (rc->t.max[0] - rc->t.min[0] >= PLACEMENT_WARP) {
        *why = arena_printf(a, "its footprint is %d points or wider in x, more than a warp holds", PLACEMENT_WARP);
        return false;
    }
    long long cells = 1;
    for (int d = 0; d < 3; d++) {
        rc->n[d] = d < dims ? (int)(rc->t.max[d] - rc->t.min[d] + 1) : 1;
        cells *= rc->n[d];
    }
    rc->used = arena_alloc(a, sizeof(bool) * (size_t)cells);
    Footprint *fp = analyze_footprint(a, k);
    NodeList acc = ast_query_accesses(a, ast_point_body(k), s);
    for (int i = 0; i < acc.len; i++) {
        const AccessFootprint *af = footprint_of(fp, acc.items[i]);
        long long lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        for (int d = 0; d < dims; d++) {
            lo[d] = af->min[d] - rc->t.min[d];
            hi[d] = af->max[d] - rc->t.min[d];
        }
        for (long long z = lo[2]; z <= hi[2]; z++)
            for (long long y = lo[1]; y <= hi[1]; y++)
                for (long long x = lo[0]; x <= hi[0]; x++)
                    rc->used[(z * rc->n[1] + y) * rc->n[0] + x] = true;
    }
    for (int r = 0; r < rc->n[1] * rc->n[2]; r++) {
        int in_row = 0, first = -1, last = -1;
        for (int x = 0; x < rc->n[0]; x++)
            if (rc->used[r * rc->n[0] + x]) {
                in_row++;
                last = x;
                if (first < 0)
                    first = x;
            }
        rc->rows += in_row > 0;
        rc->registers += in_row == 0 ? 0 : last > first ? 2 : 1;
        rc->values += in_row;
    }
    return true;
}
