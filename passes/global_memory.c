/* pass_global_memory: grid accesses become linear buffer accesses with boundary
 * handling (thesis eq. 3.10, section 3.1.2). */
#include "passes.h"

#include <string.h>

#include "backend.h"
#include "lower.h"

/* ((z + h) * (height + 2h) + (y + h)) * (width + 2h) + (x + h), plus the alias offset. */
static Node *linear_index(Lower *L, Symbol *view, Node **ix, int n, Loc loc)
{
    Arena *a = L->a;
    Node *lin = lower_linear(a, symbol_root(view), ix, n, loc);
    if (view->kind == SYM_ALIAS && view->offset_var)
        lin = lower_add(a, ast_build_var_ref(a, view->offset_var, loc), lin, loc);
    return lin;
}

/* ---- row pointers (Backend.row_pointers) ------------------------------------------
 * A C compiler vectorises the loop over x of a row only when it knows that the
 * arrays do not overlap; with full-array pointers and index arithmetic over
 * idy and idz, gcc checks that at run time for every row, or gives up. So in the
 * row body an array whose every access is idx + a, idy + b, idz + c (constants, on
 * the array itself, no guard and no index function) is reached through one pointer
 * per row it touches, imcl_row_A_yb_zc, to A's element (0, idy + b, idz + c), as
 * imcl_row_A_yb_zc[idx + a]; the backend passes them as restrict parameters of the
 * row function. A row's pointer is all the row function needs of an array, so it
 * runs alike on arrays stored densely and on row tables (the C reference's PK_rows). */

typedef struct Rows {
    NodeList body;      /* the grid accesses of the row body */
} Rows;

/* The constant offsets of access acc from the point in each dimension, when it has
 * the row form; its boundary handling (lower_boundary) must leave it alone. */
static bool row_form(Lower *L, Node *acc, long long *off)
{
    Symbol *view = acc->u.access.sym;
    if (symbol_root(view) != view)
        return false;
    Node *ix[3];
    if (lower_boundary(L, acc, ix))
        return false;
    for (int d = 0; d < acc->u.access.n; d++)
        if (ix[d] != acc->u.access.ix[d] || !analyze_const_offset(ix[d], (Builtin)(BI_IDX + d), &off[d]))
            return false;
    /* rows far apart are not worth a pointer of their own (nor an int of their own) */
    for (int d = 1; d < acc->u.access.n; d++)
        if (off[d] < -64 || off[d] > 64)
            return false;
    return true;
}

static bool in_list(const NodeList *l, const Node *n)
{
    for (int i = 0; i < l->len; i++)
        if (l->items[i] == n)
            return true;
    return false;
}

/* The row pointer of array s to row (dy, dz), or NULL. */
static RowPtr *find_row(const Function *k, const Symbol *s, long long dy, long long dz)
{
    for (int i = 0; i < k->nrows; i++)
        if (k->rows[i].array == s && k->rows[i].dy == dy && k->rows[i].dz == dz)
            return &k->rows[i];
    return NULL;
}

/* imcl_row_in, imcl_row_in_ym1, imcl_row_in_yp1_zm2: the name of a row pointer. */
static const char *row_name(Arena *a, const Symbol *s, int dy, int dz)
{
    char y[24] = "", z[24] = "";
    if (dy)
        snprintf(y, sizeof y, "_y%c%d", dy < 0 ? 'm' : 'p', dy < 0 ? -dy : dy);
    if (dz)
        snprintf(z, sizeof z, "_z%c%d", dz < 0 ? 'm' : 'p', dz < 0 ? -dz : dz);
    return arena_printf(a, "imcl_row_%s%s%s", s->name, y, z);
}

/* Function.rows: a pointer per array and row that the row body reaches, for the
 * arrays whose accesses in the row body all have the row form. None when the body
 * assigns a scalar parameter: each point must start from the caller's value, which
 * the point function gets as a copy and a loop would not. */
static void plan_rows(Lower *L, Rows *r)
{
    Function *k = L->k;
    Node *split = pass_interior_split(k);
    NodeList vars = ast_query(L->a, split ? split->u.if_.then : ast_point_body(k), AST_VAR);
    for (int i = 0; i < vars.len; i++)
        if (vars.items[i]->u.var.sym->kind == SYM_PARAM && ast_is_lvalue_use(vars.items[i]))
            return;
    r->body = ast_query(L->a, split ? split->u.if_.then : ast_point_body(k), AST_GRID_ACCESS);
    /* 1: accessed in the row body, every time in the row form; 2: not always */
    int *use = arena_alloc(L->a, sizeof(int) * (size_t)(k->nparams + 1));
    memset(use, 0, sizeof(int) * (size_t)(k->nparams + 1));
    for (int i = 0; i < r->body.len; i++) {
        Node *acc = r->body.items[i];
        long long off[3];
        int p = symbol_root(acc->u.access.sym)->param_index;
        if (p >= 0 && p < k->nparams && use[p] != 2)
            use[p] = row_form(L, acc, off) ? 1 : 2;
    }
    /* the rows, in parameter order, then by dz and dy (at most one per access) */
    k->rows = arena_alloc(L->a, sizeof(RowPtr) * (size_t)(r->body.len + 1));
    for (int p = 0; p < k->nparams; p++) {
        if (use[p] != 1)
            continue;
        int first = k->nrows;
        for (int i = 0; i < r->body.len; i++) {
            Node *acc = r->body.items[i];
            long long off[3] = {0, 0, 0};
            if (acc->u.access.sym != k->params[p] || !row_form(L, acc, off) || find_row(k, k->params[p], off[1], off[2]))
                continue;
            int j = k->nrows++;
            for (; j > first && (k->rows[j - 1].dz > off[2] || (k->rows[j - 1].dz == off[2] && k->rows[j - 1].dy > off[1])); j--)
                k->rows[j] = k->rows[j - 1];
            k->rows[j] = (RowPtr){k->params[p], (int)off[1], (int)off[2], NULL};
        }
        for (int j = first; j < k->nrows; j++) {
            RowPtr *rp = &k->rows[j];
            rp->sym = ast_build_symbol(L->a, row_name(L->a, rp->array, rp->dy, rp->dz), SYM_LOCAL, rp->array->type,
                                       rp->array->loc);
        }
    }
    if (!k->nrows)
        return;
    /* The row body runs in a loop over idx: a `return` (this point is done) jumps to
     * the end of the loop's body instead. */
    Node *body = split ? split->u.if_.then : ast_point_body(k);
    NodeList ret = ast_query(L->a, body, AST_RETURN);
    for (int i = 0; i < ret.len; i++)
        ast_replace(ret.items[i], ast_build_goto(L->a, "imcl_next_point", ret.items[i]->loc));
    if (ret.len)
        ast_append_stmt(L->a, body, ast_build_label(L->a, "imcl_next_point", (Loc){0}));
}

/* imcl_row_A_yb_zc[idx + a] for access acc of the row form. */
static Node *row_access(Lower *L, Node *acc, RowPtr *row)
{
    Node *buf = ast_build_buf_access(L->a, row->sym, ast_copy(L->a, acc->u.access.ix[0]), acc->loc);
    buf->type = acc->u.access.sym->type->elem;
    return buf;
}

/* The row pointer of access acc of the row body, or NULL when it has none. */
static RowPtr *access_row(Lower *L, Node *acc)
{
    long long off[3] = {0, 0, 0};
    if (!L->rows || !L->k->nrows || !in_list(&L->rows->body, acc) || !row_form(L, acc, off))
        return NULL;
    return find_row(L->k, acc->u.access.sym, off[1], off[2]);
}

static Node *lower_access(Lower *L, Node *acc)
{
    Symbol *view = acc->u.access.sym;
    Symbol *root = symbol_root(view);
    RowPtr *row = access_row(L, acc);
    if (row)
        return row_access(L, acc, row);
    Node *ix[3];
    Node *guard = lower_boundary(L, acc, ix);
    Node *buf = ast_build_buf_access(L->a, root, linear_index(L, view, ix, acc->u.access.n, acc->loc), acc->loc);
    buf->type = root->type->elem;
    if (L->rows && view == root) {
        /* the storage coordinates too, for the C reference's row tables */
        for (int d = 0; d < acc->u.access.n; d++)
            buf->u.access.at[d] = lower_plus_halo(L->a, ast_copy(L->a, ix[d]), root->halo, acc->loc);
        buf->u.access.nat = acc->u.access.n;
    }
    return lower_guarded(L, guard, buf, root, acc->loc);
}

/* `m[i][j]` of a fixed-size array parameter `T m[A][B]` becomes `m[i*B + j]`. */
static Node *lower_fixed(Lower *L, Node *n)
{
    Node *chain[TYPE_MAX_DIMS];
    int k = 0;
    Node *base = n;
    while (base->kind == AST_INDEX && k < TYPE_MAX_DIMS) {
        chain[k++] = base;
        base = base->u.index.base;
    }
    Symbol *s = base->u.var.sym;
    Node *lin = NULL;
    for (int d = 0; d < k; d++) {
        Node *ix = chain[k - 1 - d]->u.index.index;
        lin = lin ? lower_add(L->a, lower_mul(L->a, lin, ast_build_int(L->a, s->type->dims[d], n->loc), n->loc), ix, n->loc)
                  : ix;
    }
    Node *buf = ast_build_buf_access(L->a, s, lin, n->loc);
    buf->type = s->type->elem;
    return buf;
}

static Node *mutate(Node *n, void *p)
{
    Lower *L = p;
    switch (n->kind) {
    case AST_GRID_ACCESS:
        return lower_access(L, n);
    case AST_EXTENT:
        n->u.extent.sym = symbol_root(n->u.extent.sym);
        return n;
    case AST_INDEX: {
        if (n->parent && n->parent->kind == AST_INDEX && n->parent->u.index.base == n)
            return n;
        Node *base = n;
        while (base->kind == AST_INDEX)
            base = base->u.index.base;
        if (base->kind == AST_VAR && base->u.var.sym->kind == SYM_PARAM)
            return lower_fixed(L, n);
        return n;
    }
    case AST_DECL: {
        /* An alias declaration becomes the int that holds its element offset. */
        Symbol *s = n->u.decl.sym;
        if (s->kind != SYM_ALIAS)
            return n;
        Symbol *off = ast_build_symbol(L->a, s->name, SYM_LOCAL, type_scalar(TY_INT), s->loc);
        Node *init = s->alias_offset ? ast_copy(L->a, s->alias_offset) : ast_build_int(L->a, 0, n->loc);
        if (s->alias_base->kind == SYM_ALIAS && s->alias_base->offset_var)
            init = lower_add(L->a, ast_build_var_ref(L->a, s->alias_base->offset_var, n->loc), init, n->loc);
        s->offset_var = off;
        Node *d = ast_build_decl(L->a, off, init, n->loc);
        d->u.decl.is_const = true;
        return d;
    }
    default:
        return n;
    }
}

/* Writes that may fall outside their array are dropped: the statement holding
 * the write runs only when every written element is inside. */
static void guard_writes(Lower *L)
{
    NodeList acc = ast_query(L->a, ast_point_body(L->k), AST_GRID_ACCESS);
    for (int i = 0; i < acc.len; i++) {
        Node *w = acc.items[i];
        Symbol *root = symbol_root(w->u.access.sym);
        if (!ast_is_lvalue_use(w) || root->bc == BC_NONE)
            continue;
        Node *cond = lower_inside_cond(L, w);
        if (!cond)
            continue;
        Node *stmt = ast_enclosing_stmt(w);
        if (!stmt || stmt->kind != AST_EXPR_STMT) {
            diag_error(L->diag, w->loc,
                       "write to '%s' that may fall outside the array must be an expression statement",
                       w->u.access.sym->name);
            L->errors++;
            continue;
        }
        /* Several writes in one statement: join their guards. */
        Node *parent = stmt->parent;
        if (parent && parent->kind == AST_IF && parent->u.if_.then == stmt && !parent->u.if_.els &&
            parent->loc.line == 0) {
            Node *both = ast_build_binary(L->a, OP_AND, parent->u.if_.cond, cond, w->loc);
            both->type = type_scalar(TY_INT);
            parent->u.if_.cond = both;
            both->parent = parent;
            continue;
        }
        Node *guard = ast_build_if(L->a, cond, NULL, NULL, (Loc){0});
        ast_replace(stmt, guard);
        guard->u.if_.then = stmt;
        stmt->parent = guard;
    }
}

int pass_global_memory(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    Diag *diag = c->diag;
    Lower L = {a, k, diag, 0, analyze_footprint(a, k), NULL};
    Rows rows = {0};
    if (c->backend->row_pointers && k->is_kernel) {
        plan_rows(&L, &rows);
        L.rows = &rows;
    }
    guard_writes(&L);
    /* A point loop's parts in the order a thread runs them: the aliases its prologue
     * declares (pass_shared_memory, pass_stream_z, pass_register_cache) get their
     * offsets before the reads through them. */
    ast_mutate(k->body, mutate, &L);
    ast_fix_parents(k->body);
    return L.errors;
}
