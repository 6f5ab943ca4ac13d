/* pass_stream_z: z-marching (2.5D blocking) with windows of planes in registers.
 *
 * With stream_z = S a thread computes S points one above the other: the driver
 * gives the passes coarsen_z = S with one thread per block in z, so
 * pass_thread_mapping walks them as z coarsening. Each read-only Block in global
 * memory whose footprint is known (placement_stream_window) is then read through a window
 * private to the thread, w[dz][dy][dx] over the footprint's box: for every column
 * (dx, dy) its reads touch, the planes dz from the lowest to the highest offset the
 * column is read at. The thread's first point loads every plane but the top one,
 * each point loads the top plane (one new load per column where the body read
 * every plane of it), the body reads the window, and after the point (even one
 * that returns: Function.point_epilogue) each column's planes move down one. The
 * loads are grid accesses, so pass_global_memory gives them the array's boundary
 * condition: a window holds what the body's reads would have read. */
#include "passes.h"

#include <string.h>

#include "params.h"
#include "placement.h"

typedef struct Window {
    Arena *a;
    Symbol *root;
    Symbol *view;
    Symbol *w;             /* T imcl_<array>_w[nz][ny][nx] */
    long long lo[3];       /* the box of offsets the window covers */
    int n[3];
} Window;

static Loc none(void)
{
    return (Loc){0};
}

static Node *typed(Node *n)
{
    n->type = type_scalar(TY_INT);
    return n;
}

static Node *lit(Arena *a, long long v)
{
    return ast_build_int(a, v, none());
}

/* b + off, b - |off|, or b alone. */
static Node *plus(Arena *a, Node *b, long long off)
{
    if (!off)
        return b;
    return typed(ast_build_binary(a, off < 0 ? '-' : '+', b, lit(a, off < 0 ? -off : off), none()));
}

static Node *coord(Arena *a, int d, long long off)
{
    return plus(a, typed(ast_build_builtin(a, (Builtin)(BI_IDX + d), none())), off);
}

/* w[iz][iy][ix], each index a node. */
static Node *window_at(Window *w, Node *ix[3])
{
    Node *cur = ast_build_var_ref(w->a, w->w, none());
    for (int d = 2; d >= 0; d--) {
        cur = ast_build_index(w->a, cur, ix[d], none());
        cur->type = w->root->type->elem;
    }
    return cur;
}

static Node *window_const(Window *w, long long dx, long long dy, long long dz)
{
    Node *ix[3] = {lit(w->a, dx - w->lo[0]), lit(w->a, dy - w->lo[1]), lit(w->a, dz - w->lo[2])};
    return window_at(w, ix);
}

/* The window's index in dimension d of a read whose index there is e: its offset
 * from the grid coordinate minus the window's origin, a literal when the offset
 * is a constant, else `e - idx - lo` with the coordinate taken out where e is
 * written `idx + e'` or `idx - e'`. */
static Node *window_index(Window *w, Node *e, int d)
{
    Arena *a = w->a;
    Builtin b = (Builtin)(BI_IDX + d);
    long long off;
    if (analyze_const_offset(e, b, &off))
        return lit(a, off - w->lo[d]);
    Node *rel = NULL;
    if (e->kind == AST_BINARY && (e->u.binary.op == '+' || e->u.binary.op == '-')) {
        Node *l = e->u.binary.lhs, *r = e->u.binary.rhs;
        bool lb = l->kind == AST_BUILTIN && l->u.builtin.which == b;
        bool rb = r->kind == AST_BUILTIN && r->u.builtin.which == b;
        if (lb && e->u.binary.op == '+')
            rel = r;
        else if (lb)
            rel = typed(ast_build_unary(a, '-', r, none()));
        else if (rb && e->u.binary.op == '+')
            rel = l;
    }
    if (!rel)
        rel = typed(ast_build_binary(a, '-', e, typed(ast_build_builtin(a, b, none())), none()));
    return plus(a, rel, -w->lo[d]);
}

static Node *replace_reads(Node *n, void *p)
{
    Window *w = p;
    if (n->kind != AST_GRID_ACCESS || n->u.access.sym != w->view)
        return n;
    Node *ix[3];
    for (int d = 0; d < 3; d++)
        ix[d] = window_index(w, n->u.access.ix[d], d);
    return window_at(w, ix);
}

/* w[z][c] = view[idx + dx][idy + dy][idz + dz] for plane z of column c. */
static Node *load(Window *w, int c, int z)
{
    Arena *a = w->a;
    long long dx = w->lo[0] + c % w->n[0], dy = w->lo[1] + c / w->n[0], dz = w->lo[2] + z;
    Node *ix[3] = {coord(a, 0, dx), coord(a, 1, dy), coord(a, 2, dz)};
    Node *src = ast_build_grid_access(a, w->view, ix, 3, none());
    src->type = w->root->type->elem;
    /* Without a boundary rule nothing guards a read: a window's planes and columns
     * reach where some point's reads do, which for the points near the edge may lie
     * past the storage. Those elements are never read; they are left 0. */
    Symbol *r = w->root;
    Node *cond = NULL;
    long long off[3] = {dx, dy, dz};
    for (int d = 0; d < 3 && r->bc == BC_NONE; d++) {
        if (off[d] >= -r->halo && off[d] <= r->halo && w->view == r)
            continue;
        Node *c = ast_build_call(a, "imcl_in", none());
        ast_append_arg(a, c, ast_copy(a, ix[d]));
        ast_append_arg(a, c, ast_build_extent(a, r, d, none()));
        ast_append_arg(a, c, lit(a, r->halo));
        typed(c);
        cond = cond ? typed(ast_build_binary(a, OP_AND, cond, c, none())) : c;
    }
    if (cond) {
        Node *zero = type_is_float(r->type->elem)
            ? ast_build_float(a, 0.0, r->type->elem->kind == TY_FLOAT ? "0.0f" : "0.0", r->type->elem, none())
            : lit(a, 0);
        src = ast_build_cond(a, cond, src, zero, none());
        src->type = r->type->elem;
    }
    Node *dst = window_const(w, dx, dy, dz);
    return ast_build_expr_stmt(a, ast_build_assign(a, '=', dst, src, none()), none());
}

static Node *shift(Window *w, int c, int z)
{
    long long dx = w->lo[0] + c % w->n[0], dy = w->lo[1] + c / w->n[0], dz = w->lo[2] + z;
    Node *dst = window_const(w, dx, dy, dz);
    Node *src = window_const(w, dx, dy, dz + 1);
    return ast_build_expr_stmt(w->a, ast_build_assign(w->a, '=', dst, src, none()), none());
}

/* The window of array s: declared in the prologue, its reads replaced, its loads
 * added to `first` (the thread's first point) and `each` (every point) and its
 * moves to `epilogue`. */
static void build_window(Arena *a, Function *k, Symbol *s, const StreamWindow *sw, Node *first, Node *each,
                         Node *epilogue)
{
    Window w = {a, s, sw->t.view, NULL, {0}, {0}};
    int dims[3];
    for (int d = 0; d < 3; d++) {
        w.lo[d] = sw->t.min[d];
        w.n[d] = sw->n[d];
        dims[2 - d] = w.n[d];
    }
    if (sw->t.alias_decl) {
        /* The alias's offset is known before the body: declare it first. */
        ast_remove_stmt(sw->t.alias_decl);
        ast_append_stmt(a, k->prologue, sw->t.alias_decl);
    }
    w.w = ast_build_symbol(a, arena_printf(a, "imcl_%s_w", s->name), SYM_LOCAL,
                           type_array(a, s->type->elem, 3, dims), none());
    ast_append_stmt(a, k->prologue,
                    ast_build_comment(a, arena_printf(a, "'%s' along z: a window of the %d value%s a point reads, "
                                                         "%d loaded per point", s->name, sw->values,
                                                      sw->values == 1 ? "" : "s", sw->columns), none()));
    ast_append_stmt(a, k->prologue, ast_build_decl(a, w.w, NULL, none()));
    for (int c = 0; c < w.n[0] * w.n[1]; c++) {
        for (int z = sw->zlo[c]; z < sw->zhi[c]; z++) {
            ast_append_stmt(a, first, load(&w, c, z));
            ast_append_stmt(a, epilogue, shift(&w, c, z));
        }
        if (sw->zlo[c] <= sw->zhi[c])
            ast_append_stmt(a, each, load(&w, c, sw->zhi[c]));
    }
    ast_mutate(k->body, replace_reads, &w);
}

int pass_stream_z(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    const TuneParams *tp = c->tp;
    if (!tp->stream_z || k->grid_dims != 3)
        return 0;
    Node *first = ast_build_block(a, none());
    Node *each = ast_build_block(a, none());
    Node *epilogue = ast_build_block(a, none());
    if (!k->prologue)
        k->prologue = ast_build_block(a, none());
    int streamed = 0;
    for (int p = 0; p < k->nparams; p++) {
        Symbol *s = k->params[p];
        const char *why;
        StreamWindow sw;
        if (s->mem != MEM_GLOBAL || !placement_stream_window(a, k, s, &sw, &why))
            continue;
        build_window(a, k, s, &sw, first, each, epilogue);
        streamed++;
    }
    if (!streamed) {
        /* params_for_kernel refuses these; reaching here is a compiler bug. */
        diag_error(c->diag, k->loc, "internal error: stream_z: kernel '%s' has no array to keep along z", k->name);
        return 1;
    }
    /* The first point of the thread: idz is the first z of its block. */
    Node *start = typed(ast_build_binary(a, OP_EQ, typed(ast_build_builtin(a, BI_IDZ, none())),
                                         typed(ast_build_binary(a, '*', typed(ast_build_builtin(a, BI_GROUP_Z, none())),
                                                                lit(a, tp->coarsen[2]), none())),
                                         none()));
    Node *pre = ast_build_block(a, none());
    if (first->u.block.stmts.len) {
        ast_append_stmt(a, pre, ast_build_comment(a, "the thread's first point loads the planes below the top "
                                                     "one", none()));
        ast_append_stmt(a, pre, ast_build_if(a, start, first, NULL, none()));
    }
    ast_append_stmt(a, pre, ast_build_comment(a, "every point loads the top plane of each window", none()));
    for (int i = 0; i < each->u.block.stmts.len; i++)
        ast_append_stmt(a, pre, each->u.block.stmts.items[i]);
    /* pre's statements go first in the body: nothing the body declares is used. */
    NodeList *stmts = &k->body->u.block.stmts;
    for (int i = pre->u.block.stmts.len - 1; i >= 0; i--) {
        Node *st = pre->u.block.stmts.items[i];
        if (stmts->len)
            ast_insert_before(a, stmts->items[0], st);
        else
            ast_append_stmt(a, k->body, st);
    }
    if (epilogue->u.block.stmts.len) {
        Node *ep = ast_build_block(a, none());
        ast_append_stmt(a, ep, ast_build_comment(a, "the windows move down one plane for the next point", none()));
        for (int i = 0; i < epilogue->u.block.stmts.len; i++)
            ast_append_stmt(a, ep, epilogue->u.block.stmts.items[i]);
        k->point_epilogue = ep;
    }
    ast_fix_parents(k->body);
    ast_fix_parents(k->prologue);
    return 0;
}
