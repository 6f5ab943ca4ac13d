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

static Loc none(void)
{
    return (Loc){0};
}

static Node *typed(Node *n)
{
    n->type = type_scalar(TY_INT);
    return n;
}

static Node *bin(Arena *a, int op, Node *l, Node *r)
{
    return typed(ast_build_binary(a, op, l, r, none()));
}

static Node *lit(Arena *a, long long v)
{
    return ast_build_int(a, v, none());
}

/* tile[((z - o_z) * T_y + (y - o_y)) * T_x + (x - o_x)] for a read at ix. */
static Node *tile_read(Tile *t, Node **ix, Loc loc)
{
    Arena *a = t->a;
    Node *lin = NULL;
    for (int d = t->dims - 1; d >= 0; d--) {
        Node *rel = bin(a, '-', ix[d], ast_build_var_ref(a, t->origin[d], loc));
        lin = lin ? bin(a, '+', bin(a, '*', lin, lit(a, t->extent[d])), rel) : rel;
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
    ast_append_stmt(a, prologue, ast_build_comment(a, sb_str(&text), none()));
    sb_free(&text);

    for (int d = 0; d < t->dims; d++) {
        t->origin[d] = ast_build_symbol(a, arena_printf(a, "imcl_%s_%c0", name, axes[d]), SYM_LOCAL,
                                        type_scalar(TY_INT), none());
        Node *init = bin(a, '*', ast_build_builtin(a, (Builtin)(BI_GROUP_X + d), none()),
                         lit(a, (long long)tp->block[d] * tp->coarsen[d]));
        if (st->min[d])
            init = bin(a, st->min[d] < 0 ? '-' : '+', init, lit(a, st->min[d] < 0 ? -st->min[d] : st->min[d]));
        Node *decl = ast_build_decl(a, t->origin[d], init, none());
        decl->u.decl.is_const = true;
        ast_append_stmt(a, prologue, decl);
    }
    int total = (int)elems;
    t->tile = ast_build_symbol(a, arena_printf(a, "imcl_%s_tile", name), SYM_LOCAL,
                               type_array(a, t->root->type->elem, 1, &total), none());
    t->tile->mem = MEM_SHARED;
    ast_append_stmt(a, prologue, ast_build_decl(a, t->tile, NULL, none()));

    /* for (int imcl_i = thread; imcl_i < elems; imcl_i += threads) */
    int threads = tp->block[0] * tp->block[1] * tp->block[2];
    Symbol *i = ast_build_symbol(a, "imcl_i", SYM_LOCAL, type_scalar(TY_INT), none());
    Node *flat = ast_build_builtin(a, BI_THREAD_X, none());
    if (tp->block[1] > 1)
        flat = bin(a, '+', bin(a, '*', ast_build_builtin(a, BI_THREAD_Y, none()), lit(a, tp->block[0])), flat);
    if (tp->block[2] > 1)
        flat = bin(a, '+', bin(a, '*', ast_build_builtin(a, BI_THREAD_Z, none()),
                                lit(a, (long long)tp->block[0] * tp->block[1])), flat);
    /* The loop body names the coordinates of element imcl_i: imcl_i / stride % extent. */
    Node *body = ast_build_block(a, none());
    Node *ix[3];
    long long stride = 1;
    for (int d = 0; d < t->dims; d++) {
        Node *e = ast_build_var_ref(a, i, none());
        if (stride > 1)
            e = bin(a, '/', e, lit(a, stride));
        if (d < t->dims - 1)
            e = bin(a, '%', e, lit(a, t->extent[d]));
        Symbol *c = ast_build_symbol(a, arena_printf(a, "imcl_%c", axes[d]), SYM_LOCAL, type_scalar(TY_INT), none());
        Node *decl = ast_build_decl(a, c, bin(a, '+', ast_build_var_ref(a, t->origin[d], none()), e), none());
        decl->u.decl.is_const = true;
        ast_append_stmt(a, body, decl);
        ix[d] = ast_build_var_ref(a, c, none());
        stride *= t->extent[d];
    }
    Node *load = ast_build_grid_access(a, st->view, ix, t->dims, none());
    load->type = t->root->type->elem;
    /* An element is loaded only when some point of the grid reads it: its
     * coordinate is below the grid's extent plus the largest offset. The tile of
     * a partial block reaches further, and through an alias that may be past the
     * buffer's end. Without a boundary rule it must also lie in the storage. The
     * elements not loaded are never read; they are left 0. */
    Node *cond = NULL;
    for (int d = 0; d < t->dims; d++) {
        Node *limit = ast_build_builtin(a, (Builtin)(BI_W + d), none());
        if (st->max[d])
            limit = bin(a, st->max[d] < 0 ? '-' : '+', limit, lit(a, st->max[d] < 0 ? -st->max[d] : st->max[d]));
        Node *c = bin(a, '<', ast_copy(a, ix[d]), limit);
        cond = cond ? bin(a, OP_AND, cond, c) : c;
    }
    if (t->root->bc == BC_NONE)
        cond = lower_in_storage(a, cond, st->view, ix, t->dims, (1u << t->dims) - 1);
    Node *zero = type_is_float(t->root->type->elem)
        ? ast_build_float(a, 0.0, t->root->type->elem->kind == TY_FLOAT ? "0.0f" : "0.0", t->root->type->elem, none())
        : lit(a, 0);
    load = ast_build_cond(a, cond, load, zero, none());
    load->type = t->root->type->elem;
    Node *dst = ast_build_index(a, ast_build_var_ref(a, t->tile, none()), ast_build_var_ref(a, i, none()), none());
    dst->type = t->root->type->elem;
    ast_append_stmt(a, body, ast_build_expr_stmt(a, ast_build_assign(a, '=', dst, load, none()), none()));
    Node *loop = ast_build_for(a, ast_build_decl(a, i, flat, none()),
                               bin(a, '<', ast_build_var_ref(a, i, none()), lit(a, elems)),
                               ast_build_assign(a, '+', ast_build_var_ref(a, i, none()), lit(a, threads), none()),
                               body, none());
    ast_append_stmt(a, prologue, loop);
}

int pass_shared_memory(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    const TuneParams *tp = c->tp;
    Diag *diag = c->diag;
    int errors = 0;
    Node *prologue = NULL;
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
        if (!prologue)
            prologue = ast_build_block(a, none());
        if (st.alias_decl) {
            /* The alias's offset is known before the body: declare it first. */
            ast_remove_stmt(st.alias_decl);
            ast_append_stmt(a, prologue, st.alias_decl);
        }
        Tile t = {a, s, NULL, {NULL}, {0}, st.dims};
        build_load(&t, &st, tp, prologue);
        ast_mutate(k->body, replace_reads, &t);
    }
    if (prologue) {
        ast_append_stmt(a, prologue, ast_build_comment(a, "every tile is complete before any thread reads it", none()));
        ast_append_stmt(a, prologue, ast_new(a, AST_BARRIER, none()));
        k->prologue = prologue;
        ast_fix_parents(k->body);
        ast_fix_parents(k->prologue);
    }
    return errors;
}
