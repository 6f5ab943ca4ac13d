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
 * (Function.point_prologue), so every lane of the warp takes part in every shuffle;
 * the loads are grid accesses, given A's boundary condition by pass_global_memory,
 * so a lane past the edge reads what the boundary says, or (none) 0 past the
 * storage. */
#include "passes.h"

#include "lower.h"
#include "params.h"
#include "placement.h"

static Loc none(void)
{
    return (Loc){0};
}

static Node *int_node(Node *n)
{
    n->type = type_scalar(TY_INT);
    return n;
}

static Node *lit(Arena *a, long long v)
{
    return ast_build_int(a, v, none());
}

/* A's element at offsets off from the point's coordinates xyz. These are locals,
 * not idx/idy/idz: pass_global_memory then proves nothing about the load from the
 * point's being inside the grid (a lane past the edge loads too) and applies the
 * boundary condition in every dimension; without one (none) the load is guarded by
 * the storage's extent and gives 0 outside it. */
static Node *load(Arena *a, Symbol *root, Symbol *view, int dims, Symbol **xyz, const long long *off)
{
    Node *ix[3];
    for (int d = 0; d < dims; d++) {
        ix[d] = ast_build_var_ref(a, xyz[d], none());
        if (off[d])
            ix[d] = int_node(ast_build_binary(a, off[d] < 0 ? '-' : '+', ix[d], lit(a, off[d] < 0 ? -off[d] : off[d]),
                                              none()));
    }
    Node *src = ast_build_grid_access(a, view, ix, dims, none());
    src->type = root->type->elem;
    return lower_storage_guard(a, src, ix, root->bc == BC_NONE ? (1u << dims) - 1 : 0);
}

static Node *shfl(Arena *a, Node *v, Node *lane, Type *t)
{
    Node *c = ast_build_call(a, "imcl_shfl", none());
    ast_append_arg(a, c, v);
    ast_append_arg(a, c, lane);
    c->type = t;
    return c;
}

/* The statements that fill array s's box at the point, appended to `pp`. */
static void build_cache(Arena *a, Function *k, Symbol *s, const RegisterCache *rc, Symbol *lane, Symbol **xyz,
                        Node *pp)
{
    Type *t = s->type->elem;
    int dims = rc->t.dims;
    Box box = lower_box(a, arena_printf(a, "imcl_%s_r", s->name), rc->t.view, t, dims, rc->t.min, rc->t.max);
    if (rc->t.alias_decl) {
        /* The alias's offset is known before the body: declare it first. */
        ast_remove_stmt(rc->t.alias_decl);
        ast_append_stmt(a, k->prologue, rc->t.alias_decl);
    }
    ast_append_stmt(a, k->prologue,
                    ast_build_comment(a, arena_printf(a, "'%s' in registers of the warp: %d row%s in %d register%s "
                                                         "per thread, %d value%s a point reads",
                                                      s->name, rc->rows, rc->rows == 1 ? "" : "s", rc->registers,
                                                      rc->registers == 1 ? "" : "s", rc->values,
                                                      rc->values == 1 ? "" : "s"), none()));
    ast_append_stmt(a, k->prologue, ast_build_decl(a, box.sym, NULL, none()));
    ast_append_stmt(a, pp, ast_build_comment(a, arena_printf(a, "'%s': each lane loads its part of the rows, "
                                                                "then takes the values from the lanes that hold "
                                                                "them", s->name), none()));
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
            reg[sl] = ast_build_symbol(a, arena_printf(a, "imcl_%s_%d_%d", s->name, r, sl), SYM_LOCAL, t, none());
            Node *decl = ast_build_decl(a, reg[sl], load(a, s, rc->t.view, dims, xyz, o), none());
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
                v = ast_build_var_ref(a, reg[0], none());
            } else {
                /* lane l takes element l + kx of the row from lane (l + kx) & 31 */
                Node *pick = ast_build_cond(a, int_node(ast_build_binary(a, OP_GE, ast_build_var_ref(a, lane, none()),
                                                                           lit(a, kx), none())),
                                            ast_build_var_ref(a, reg[0], none()), ast_build_var_ref(a, reg[1], none()),
                                            none());
                pick->type = t;
                Node *from = int_node(ast_build_binary(a, '&', int_node(ast_build_binary(a, '+',
                                                                                          ast_build_var_ref(a, lane, none()),
                                                                                          lit(a, kx), none())),
                                                       lit(a, PLACEMENT_WARP - 1), none()));
                v = shfl(a, pick, from, t);
            }
            ast_append_stmt(a, pp, ast_build_expr_stmt(a, ast_build_assign(a, '=', lower_box_at(&box, at), v, none()),
                                                       none()));
        }
    }
    lower_box_replace_reads(&box, k->body);
}

int pass_register_cache(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    Node *pp = NULL;
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
            pp = ast_build_block(a, none());
            if (!k->prologue)
                k->prologue = ast_build_block(a, none());
            /* Blocks are whole warps wide: a warp is 32 threads of one row. */
            lane = ast_build_symbol(a, "imcl_lane", SYM_LOCAL, type_scalar(TY_INT), none());
            Node *init = int_node(ast_build_binary(a, '&', int_node(ast_build_builtin(a, BI_THREAD_X, none())),
                                                   lit(a, PLACEMENT_WARP - 1), none()));
            Node *decl = ast_build_decl(a, lane, init, none());
            decl->u.decl.is_const = true;
            ast_append_stmt(a, k->prologue, ast_build_comment(a, "the thread's lane in its warp", none()));
            ast_append_stmt(a, k->prologue, decl);
            static const char *names[] = {"imcl_x", "imcl_y", "imcl_z"};
            ast_append_stmt(a, pp, ast_build_comment(a, "the point's coordinates (the lanes past the grid's edge load "
                                                        "what their neighbours need)", none()));
            for (int d = 0; d < k->grid_dims; d++) {
                xyz[d] = ast_build_symbol(a, names[d], SYM_LOCAL, type_scalar(TY_INT), none());
                Node *cd = ast_build_decl(a, xyz[d], lower_coord(a, d, 0), none());
                cd->u.decl.is_const = true;
                ast_append_stmt(a, pp, cd);
            }
        }
        build_cache(a, k, s, &rc, lane, xyz, pp);
    }
    if (pp) {
        k->point_prologue = pp;
        ast_fix_parents(k->body);
        ast_fix_parents(k->prologue);
        ast_fix_parents(k->point_prologue);
    }
    return 0;
}
