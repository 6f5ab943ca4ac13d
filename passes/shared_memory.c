/* pass_shared_memory: tiles of read-only arrays in shared (local) memory
 * (thesis 3.4, eq. 3.14-3.22).
 *
 * A block of B_x x B_y x B_z threads, each computing C_x x C_y x C_z points,
 * covers B_d * C_d points in dimension d starting at group_d * B_d * C_d. Its
 * reads of array A lie at offsets [min_d, max_d] (the footprint) from those
 * points, so the tile holds T_d = B_d * C_d + max_d - min_d points starting at
 * origin o_d = group_d * B_d * C_d + min_d. All threads load the tile together,
 * element i by thread i mod (threads per block), wait at a barrier, and every
 * read A[x][y][z] of the body becomes tile[((z - o_z) * T_y + (y - o_y)) * T_x + (x - o_x)].
 * The loads go through the array's boundary rule (pass_global_memory lowers
 * them), so the body's reads need no guard. */
#include "passes.h"

#include "build.h"
#include "lower.h"
#include "params.h"
#include "placement.h"

typedef struct Tile {
    Arena *a;
    Symbol *root;
    Symbol *tile;
    Symbol *origin[3];
    long long extent[3];
    int dims;
} Tile;

/* tile[((z - o_z) * T_y + (y - o_y)) * T_x + (x - o_x)] for a read at ix. */
static Node *tile_read(Tile *t, Node **ix, Loc loc)
{
    Arena *a = t->a;
    const Build B = build_none(a);
    Node *lin = NULL;
    for (int d = t->dims - 1; d >= 0; d--) {
        Node *rel = b_ibin(&B, '-', ix[d], ast_build_var_ref(a, t->origin[d], loc));
        lin = lin ? b_ibin(&B, '+', b_ibin(&B, '*', lin, b_int(&B, t->extent[d])), rel) : rel;
    }
    Node *r = ast_build_index(a, ast_build_var_ref(a, t->tile, loc), lin, loc);
    r->type = t->root->type->elem;
    return r;
}

static Node *replace_reads(Node *n, void *p)
{
    Tile *t = p;
    if (n->kind != AST_GRID_ACCESS || symbol_root(n->u.access.sym) != t->root)
        return n;
    return tile_read(t, n->u.access.ix, n->loc);
}

/* Declarations of the tile and its origin, then the cooperative load loop. */
static void build_load(Tile *t, const SharedTile *st, const TuneParams *tp, Node *prologue)
{
    Arena *a = t->a;
    const Build B = build_none(a);
    static const char *axes = "xyz";
    const char *name = t->root->name;
    long long elems = 1;
    StrBuf text = {0};
    sb_printf(&text, "'%s' in shared memory: a tile of ", name);
    for (int d = 0; d < t->dims; d++) {
        t->extent[d] = (long long)tp->block[d] * tp->coarsen[d] + st->max[d] - st->min[d];
        elems *= t->extent[d];
        sb_printf(&text, "%s%lld", d ? " x " : "", t->extent[d]);
    }
    sb_puts(&text, " points: the block's points and the footprint around them");
    ast_append_stmt(a, prologue, b_comment(&B, sb_str(&text)));
    sb_free(&text);

    for (int d = 0; d < t->dims; d++) {
        t->origin[d] = b_symbol(&B, arena_printf(a, "imcl_%s_%c0", name, axes[d]), SYM_LOCAL, type_scalar(TY_INT));
        Node *init = b_ibin(&B, '*', b_builtin(&B, (Builtin)(BI_GROUP_X + d)),
                            b_int(&B, (long long)tp->block[d] * tp->coarsen[d]));
        init = b_offset(&B, init, st->min[d]);
        Node *decl = b_decl(&B, t->origin[d], init);
        decl->u.decl.is_const = true;
        ast_append_stmt(a, prologue, decl);
    }
    int total = (int)elems;
    t->tile = b_symbol(&B, arena_printf(a, "imcl_%s_tile", name), SYM_LOCAL,
                       type_array(a, t->root->type->elem, 1, &total));
    t->tile->mem = MEM_SHARED;
    ast_append_stmt(a, prologue, b_decl(&B, t->tile, NULL));

    /* for (int imcl_i = thread; imcl_i < elems; imcl_i += threads) */
    int threads = tp->block[0] * tp->block[1] * tp->block[2];
    Symbol *i = b_symbol(&B, "imcl_i", SYM_LOCAL, type_scalar(TY_INT));
    Node *flat = b_builtin(&B, BI_THREAD_X);
    if (tp->block[1] > 1)
        flat = b_ibin(&B, '+', b_ibin(&B, '*', b_builtin(&B, BI_THREAD_Y), b_int(&B, tp->block[0])), flat);
    if (tp->block[2] > 1)
        flat = b_ibin(&B, '+',
                      b_ibin(&B, '*', b_builtin(&B, BI_THREAD_Z), b_int(&B, (long long)tp->block[0] * tp->block[1])),
                      flat);
    /* The loop body names the coordinates of element imcl_i: imcl_i / stride % extent. */
    Node *body = b_block(&B);
    Node *ix[3];
    long long stride = 1;
    for (int d = 0; d < t->dims; d++) {
        Node *e = b_var(&B, i);
        if (stride > 1)
            e = b_ibin(&B, '/', e, b_int(&B, stride));
        if (d < t->dims - 1)
            e = b_ibin(&B, '%', e, b_int(&B, t->extent[d]));
        Symbol *c = b_symbol(&B, arena_printf(a, "imcl_%c", axes[d]), SYM_LOCAL, type_scalar(TY_INT));
        Node *decl = b_decl(&B, c, b_ibin(&B, '+', b_var(&B, t->origin[d]), e));
        decl->u.decl.is_const = true;
        ast_append_stmt(a, body, decl);
        ix[d] = b_var(&B, c);
        stride *= t->extent[d];
    }
    Node *load = b_grid(&B, st->view, ix, t->dims);
    load->type = t->root->type->elem;
    /* An element is loaded only when some point of the grid reads it: its
     * coordinate is below the grid's extent plus the largest offset. The tile of
     * a partial block reaches further, and through an alias that may be past the
     * buffer's end. Without a boundary rule it must also lie in the storage. The
     * elements not loaded are never read; they are left 0. */
    Node *cond = NULL;
    for (int d = 0; d < t->dims; d++) {
        Node *limit = b_offset(&B, b_builtin(&B, (Builtin)(BI_W + d)), st->max[d]);
        Node *c = b_ibin(&B, '<', ast_copy(a, ix[d]), limit);
        cond = cond ? b_ibin(&B, OP_AND, cond, c) : c;
    }
    if (t->root->bc == BC_NONE)
        cond = lower_in_storage(a, cond, st->view, ix, t->dims, (1u << t->dims) - 1);
    Node *zero = type_is_float(t->root->type->elem)
        ? b_float(&B, 0.0, t->root->type->elem->kind == TY_FLOAT ? "0.0f" : "0.0", t->root->type->elem)
        : b_int(&B, 0);
    load = b_cond(&B, cond, load, zero);
    load->type = t->root->type->elem;
    Node *dst = b_index(&B, b_var(&B, t->tile), b_var(&B, i));
    dst->type = t->root->type->elem;
    ast_append_stmt(a, body, b_expr_stmt(&B, b_assign(&B, '=', dst, load)));
    Node *loop = b_for(&B, b_decl(&B, i, flat), b_ibin(&B, '<', b_var(&B, i), b_int(&B, elems)),
                       b_assign(&B, '+', b_var(&B, i), b_int(&B, threads)), body);
    ast_append_stmt(a, prologue, loop);
}

int pass_shared_memory(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    const Build B = build_none(a);
    const TuneParams *tp = c->tp;
    Diag *diag = c->diag;
    int errors = 0;
    Node *prologue = ast_points(k)->u.points.prologue;
    bool any = false;
    for (int p = 0; p < k->nparams; p++) {
        Symbol *s = k->params[p];
        if (s->mem != MEM_SHARED)
            continue;
        SharedTile st;
        const char *why;
        if (!placement_shared_tile(a, k, s, &st, &why)) {
            /* params_for_kernel refuses these; reaching here is a compiler bug. */
            diag_internal(diag, s->loc, "'%s' cannot be in shared memory: %s", s->name, why);
            errors++;
            continue;
        }
        any = true;
        if (st.alias_decl) {
            /* The alias's offset is known before the body: declare it first. */
            ast_remove_stmt(st.alias_decl);
            ast_append_stmt(a, prologue, st.alias_decl);
        }
        Tile t = {a, s, NULL, {NULL}, {0}, st.dims};
        build_load(&t, &st, tp, prologue);
        ast_mutate(ast_point_body(k), replace_reads, &t);
    }
    if (any) {
        ast_append_stmt(a, prologue, b_comment(&B, "every tile is complete before any thread reads it"));
        ast_append_stmt(a, prologue, b_node(&B, AST_BARRIER));
        ast_fix_parents(k->body);
    }
    return errors;
}
