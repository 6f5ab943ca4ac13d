/* pass_register_cache: read-only arrays cached in the registers of a warp
 * (mem_<array> register, CUDA; Falch & Elster 2014, thesis 2.4.3 and 3.7).
 *
 * The 32 threads of a warp compute 32 points next to each other along x (blocks
 * are whole warps wide, and coarsening in x interleaves them a block apart). For
 * array A, lane l holds, for every row (dy, dz) of the footprint's box its reads
 * touch, the elements r0 = A[idx + x0][idy + dy][idz + dz] (x0 the row's first x
 * offset read) and, when the row reads further, r1 = A[idx + x0 + 32][...]: together
 * the warp holds the 32 + x1 - x0 elements of the row it needs. The element at
 * offset dx of lane l is element p = l + k of the row, k = dx - x0, held by lane
 * (l + k) mod 32 in r0 when l + k < 32, that is when the holder's lane is at least
 * k, and in r1 otherwise: one shuffle,
 *     imcl_shfl(imcl_lane >= k ? r0 : r1, (imcl_lane + k) & 31)
 * in which every lane chooses what it gives by its own lane. The values every point
 * reads go to a box (passes/lower.c) that the body reads instead of A. All of it
 * runs per point before the test that skips points past the grid's edge
 * (the point loop's point prologue), so every lane of the warp takes part in every shuffle;
 * the loads are grid accesses, given A's boundary condition by pass_global_memory,
 * so a lane past the edge reads what the boundary says, or (none) 0 past the
 * storage. */
#include "passes.h"

#include "build.h"
#include "lower.h"
#include "params.h"
#include "placement.h"

/* A's element at offsets off from the point's coordinates xyz. These are locals,
 * not idx/idy/idz: pass_global_memory then proves nothing about the load from the
 * point's being inside the grid (a lane past the edge loads too) and applies the
 * boundary condition in every dimension; without one (none) the load is guarded by
 * the storage's extent and gives 0 outside it. */
static Node *load(Arena *a, Symbol *root, Symbol *view, int dims, Symbol **xyz, const long long *off)
{
    const Build B = build_none(a);
    Node *ix[3];
    for (int d = 0; d < dims; d++) {
        ix[d] = b_offset(&B, b_var(&B, xyz[d]), off[d]);
    }
    Node *src = b_grid(&B, view, ix, dims);
    src->type = root->type->elem;
    return lower_storage_guard(a, src, ix, root->bc == BC_NONE ? (1u << dims) - 1 : 0);
}

static Node *shfl(Arena *a, Node *v, Node *lane, Type *t)
{
    const Build B = build_none(a);
    Node *c = b_call(&B, "imcl_shfl");
    ast_append_arg(a, c, v);
    ast_append_arg(a, c, lane);
    c->type = t;
    return c;
}

/* The statements that fill array s's box at the point, appended to `pp`. */
static void build_cache(Arena *a, Function *k, Symbol *s, const RegisterCache *rc, Symbol *lane, Symbol **xyz,
                        Node *pp)
{
    const Build B = build_none(a);
    Type *t = s->type->elem;
    int dims = rc->t.dims;
    Box box = lower_box(a, arena_printf(a, "imcl_%s_r", s->name), rc->t.view, t, dims, rc->t.min, rc->t.max);
    Node *prologue = ast_points(k)->u.points.prologue;
    if (rc->t.alias_decl) {
        /* The alias's offset is known before the body: declare it first. */
        ast_remove_stmt(rc->t.alias_decl);
        ast_append_stmt(a, prologue, rc->t.alias_decl);
    }
    ast_append_stmt(a, prologue,
                    b_comment(&B, arena_printf(a, "'%s' in registers of the warp: %d row%s in %d register%s "
                                               "per thread, %d value%s a point reads",
                                               s->name, rc->rows, rc->rows == 1 ? "" : "s", rc->registers,
                                               rc->registers == 1 ? "" : "s", rc->values,
                                               rc->values == 1 ? "" : "s")));
    ast_append_stmt(a, prologue, b_decl(&B, box.sym, NULL));
    ast_append_stmt(a, pp, b_comment(&B, arena_printf(a, "'%s': each lane loads its part of the rows, "
                                                         "then takes the values from the lanes that hold "
                                                         "them", s->name)));
    int rows = rc->n[1] * rc->n[2];
    for (int r = 0; r < rows; r++) {
        bool any = false;
        for (int x = 0; x < rc->n[0]; x++)
            any |= rc->used[r * rc->n[0] + x];
        if (!any)
            continue;
        /* The row's registers start at its first element the body reads; the
         * second only where it reads further. */
        int first = 0, last = 0;
        while (!rc->used[r * rc->n[0] + first])
            first++;
        for (int x = first; x < rc->n[0]; x++)
            if (rc->used[r * rc->n[0] + x])
                last = x;
        long long off[3] = {rc->t.min[0] + first, rc->t.min[1] + r % rc->n[1], rc->t.min[2] + r / rc->n[1]};
        Symbol *reg[2];
        for (int sl = 0; sl < (last > first ? 2 : 1); sl++) {
            long long o[3] = {off[0] + (long long)PLACEMENT_WARP * sl, off[1], off[2]};
            reg[sl] = b_symbol(&B, arena_printf(a, "imcl_%s_%d_%d", s->name, r, sl), SYM_LOCAL, t);
            Node *decl = b_decl(&B, reg[sl], load(a, s, rc->t.view, dims, xyz, o));
            decl->u.decl.is_const = true;
            ast_append_stmt(a, pp, decl);
        }
        for (int x = first; x <= last; x++) {
            if (!rc->used[r * rc->n[0] + x])
                continue;
            long long at[3] = {rc->t.min[0] + x, off[1], off[2]};
            int kx = x - first;
            Node *v;
            if (kx == 0) {
                v = b_var(&B, reg[0]);
            } else {
                /* lane l takes element l + kx of the row from lane (l + kx) & 31 */
                Node *pick = b_cond(&B, b_ibin(&B, OP_GE, b_var(&B, lane), b_int(&B, kx)), b_var(&B, reg[0]),
                                    b_var(&B, reg[1]));
                pick->type = t;
                Node *from = b_ibin(&B, '&', b_ibin(&B, '+', b_var(&B, lane), b_int(&B, kx)),
                                    b_int(&B, PLACEMENT_WARP - 1));
                v = shfl(a, pick, from, t);
            }
            ast_append_stmt(a, pp, b_expr_stmt(&B, b_assign(&B, '=', lower_box_at(&box, at), v)));
        }
    }
    lower_box_replace_reads(&box, ast_point_body(k));
}

int pass_register_cache(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    const Build B = build_none(a);
    Node *prologue = ast_points(k)->u.points.prologue, *pp = NULL;
    Symbol *lane = NULL, *xyz[3] = {NULL, NULL, NULL};
    for (int p = 0; p < k->nparams; p++) {
        Symbol *s = k->params[p];
        if (s->mem != MEM_REGISTER)
            continue;
        RegisterCache rc;
        const char *why;
        if (!placement_register_cache(a, k, s, &rc, &why)) {
            /* params_for_kernel refuses these; reaching here is a compiler bug. */
            diag_internal(c->diag, s->loc, "'%s' cannot be in registers: %s", s->name, why);
            return 1;
        }
        if (!pp) {
            pp = ast_points(k)->u.points.point_prologue;
            /* Blocks are whole warps wide: a warp is 32 threads of one row. */
            lane = b_symbol(&B, "imcl_lane", SYM_LOCAL, type_scalar(TY_INT));
            Node *init = b_ibin(&B, '&', b_builtin(&B, BI_THREAD_X), b_int(&B, PLACEMENT_WARP - 1));
            Node *decl = b_decl(&B, lane, init);
            decl->u.decl.is_const = true;
            ast_append_stmt(a, prologue, b_comment(&B, "the thread's lane in its warp"));
            ast_append_stmt(a, prologue, decl);
            static const char *names[] = {"imcl_x", "imcl_y", "imcl_z"};
            ast_append_stmt(a, pp, b_comment(&B, "the point's coordinates (the lanes past the grid's edge load "
                                                 "what their neighbours need)"));
            for (int d = 0; d < k->grid_dims; d++) {
                xyz[d] = b_symbol(&B, names[d], SYM_LOCAL, type_scalar(TY_INT));
                Node *cd = b_decl(&B, xyz[d], lower_coord(a, d, 0));
                cd->u.decl.is_const = true;
                ast_append_stmt(a, pp, cd);
            }
        }
        build_cache(a, k, s, &rc, lane, xyz, pp);
    }
    if (pp)
        ast_fix_parents(k->body);
    return 0;
}
