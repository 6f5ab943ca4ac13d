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
 * that returns: the point loop's point epilogue) each column's planes move down one. The
 * loads are grid accesses, so pass_global_memory gives them the array's boundary
 * condition: a window holds what the body's reads would have read. */
#include "passes.h"

#include <string.h>

#include "build.h"
#include "params.h"
#include "lower.h"
#include "placement.h"

/* w[z][c] = view[idx + dx][idy + dy][idz + dz] for plane z (from the box's lowest)
 * of column c, guarded where the array has no boundary rule (below). */
static Node *load(const Box *w, Symbol *root, int c, int z)
{
    Arena *a = w->a;
    const Build B = build_none(a);
    long long off[3] = {w->lo[0] + c % w->n[0], w->lo[1] + c / w->n[0], w->lo[2] + z};
    Node *ix[3];
    for (int d = 0; d < 3; d++)
        ix[d] = lower_coord(a, d, off[d]);
    Node *src = b_grid(&B, w->view, ix, 3);
    src->type = w->elem;
    /* Without a boundary rule nothing guards a read: a window's planes and columns
     * reach where some point's reads do, which for the points near the edge may lie
     * past the storage. Those elements are never read; they are left 0. */
    unsigned mask = 0;
    for (int d = 0; d < 3 && root->bc == BC_NONE; d++)
        if (off[d] < -root->halo || off[d] > root->halo || w->view != root)
            mask |= 1u << d;
    src = lower_storage_guard(a, src, ix, mask);
    return b_expr_stmt(&B, b_assign(&B, '=', lower_box_at(w, off), src));
}

/* w[z][c] = w[z + 1][c] */
static Node *shift(const Box *w, int c, int z)
{
    const Build B = build_none(w->a);
    long long off[3] = {w->lo[0] + c % w->n[0], w->lo[1] + c / w->n[0], w->lo[2] + z};
    Node *dst = lower_box_at(w, off);
    off[2]++;
    return b_expr_stmt(&B, b_assign(&B, '=', dst, lower_box_at(w, off)));
}

/* The window of array s: declared in the prologue, its reads replaced, its loads
 * added to `first` (the thread's first point) and `each` (every point) and its
 * moves to `epilogue`. */
static void build_window(Arena *a, Function *k, Symbol *s, const StreamWindow *sw, Node *first, Node *each,
                         Node *epilogue)
{
    const Build B = build_none(a);
    Box w = lower_box(a, arena_printf(a, "imcl_%s_w", s->name), sw->t.view, s->type->elem, 3, sw->t.min,
                      sw->t.max);
    Node *prologue = ast_points(k)->u.points.prologue;
    if (sw->t.alias_decl) {
        /* The alias's offset is known before the body: declare it first. */
        ast_remove_stmt(sw->t.alias_decl);
        ast_append_stmt(a, prologue, sw->t.alias_decl);
    }
    ast_append_stmt(a, prologue,
                    b_comment(&B, arena_printf(a, "'%s' along z: a window of the %d value%s a point reads, "
                                                  "%d loaded per point", s->name, sw->values,
                                               sw->values == 1 ? "" : "s", sw->columns)));
    ast_append_stmt(a, prologue, b_decl(&B, w.sym, NULL));
    for (int c = 0; c < w.n[0] * w.n[1]; c++) {
        for (int z = sw->zlo[c]; z < sw->zhi[c]; z++) {
            ast_append_stmt(a, first, load(&w, s, c, z));
            ast_append_stmt(a, epilogue, shift(&w, c, z));
        }
        if (sw->zlo[c] <= sw->zhi[c])
            ast_append_stmt(a, each, load(&w, s, c, sw->zhi[c]));
    }
    lower_box_replace_reads(&w, ast_point_body(k));
}

int pass_stream_z(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    const Build B = build_none(a);
    const TuneParams *tp = c->tp;
    if (!tp->stream_z || k->grid_dims != 3)
        return 0;
    Node *first = b_block(&B);
    Node *each = b_block(&B);
    Node *epilogue = b_block(&B);
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
        diag_internal(c->diag, k->loc, "stream_z: kernel '%s' has no array to keep along z", k->name);
        return 1;
    }
    /* The first point of the thread: idz is the first z of its block. */
    Node *first_z = b_bin(&B, '*', b_builtin(&B, BI_GROUP_Z), b_int(&B, tp->coarsen[2]));
    Node *start = b_bin(&B, OP_EQ, lower_coord(a, 2, 0), first_z);
    first_z->type = start->type = first_z->u.binary.lhs->type = type_scalar(TY_INT);
    Node *pre = b_block(&B);
    if (first->u.block.stmts.len) {
        ast_append_stmt(a, pre, b_comment(&B, "the thread's first point loads the planes below the top one"));
        ast_append_stmt(a, pre, b_if(&B, start, first, NULL));
    }
    ast_append_stmt(a, pre, b_comment(&B, "every point loads the top plane of each window"));
    for (int i = 0; i < each->u.block.stmts.len; i++)
        ast_append_stmt(a, pre, each->u.block.stmts.items[i]);
    /* pre's statements go first in the body: nothing the body declares is used. */
    Node *body = ast_point_body(k);
    NodeList *stmts = &body->u.block.stmts;
    for (int i = pre->u.block.stmts.len - 1; i >= 0; i--) {
        Node *st = pre->u.block.stmts.items[i];
        if (stmts->len)
            ast_insert_before(a, stmts->items[0], st);
        else
            ast_append_stmt(a, body, st);
    }
    if (epilogue->u.block.stmts.len) {
        Node *ep = ast_points(k)->u.points.point_epilogue;
        ast_append_stmt(a, ep, b_comment(&B, "the windows move down one plane for the next point"));
        for (int i = 0; i < epilogue->u.block.stmts.len; i++)
            ast_append_stmt(a, ep, epilogue->u.block.stmts.items[i]);
    }
    ast_fix_parents(k->body);
    return 0;
}
