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
 * the array itself, no guard and no index function) is reached through
 * imcl_row_A, a pointer to A's element (0, idy, idz), as imcl_row_A[idx + a + b * w
 * + c * w * h] (w, h: its storage extents); the backend passes it as a restrict
 * parameter of the row function. */

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
    return true;
}

static bool in_list(const NodeList *l, const Node *n)
{
    for (int i = 0; i < l->len; i++)
        if (l->items[i] == n)
            return true;
    return false;
}

/* Function.rows: the arrays whose accesses in the row body all have the row form.
 * None when the body assigns a scalar parameter: each point must start from the
 * caller's value, which the point function gets as a copy and a loop would not. */
static void plan_rows(Lower *L, Rows *r)
{
    Function *k = L->k;
    Node *split = pass_interior_split(k);
    NodeList vars = ast_query(L->a, split ? split->u.if_.then : k->body, AST_VAR);
    for (int i = 0; i < vars.len; i++)
        if (vars.items[i]->u.var.sym->kind == SYM_PARAM && ast_is_lvalue_use(vars.items[i]))
            return;
    r->body = ast_query(L->a, split ? split->u.if_.then : k->body, AST_GRID_ACCESS);
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
    bool any = false;
    for (int i = 0; i < k->nparams; i++)
        any |= use[i] == 1;
    if (!any)
        return;
    k->rows = arena_alloc(L->a, sizeof(Symbol *) * (size_t)(k->nparams + 1));
    for (int i = 0; i < k->nparams; i++) {
        Symbol *s = k->params[i];
        k->rows[i] = use[i] == 1 ? ast_build_symbol(L->a, arena_printf(L->a, "imcl_row_%s", s->name), SYM_LOCAL,
                                                    s->type, s->loc)
                                 : NULL;
    }
    /* The row body runs in a loop over idx: a `return` (this point is done) jumps to
     * the end of the loop's body instead. */
    Node *body = split ? split->u.if_.then : k->body;
    NodeList ret = ast_query(L->a, body, AST_RETURN);
    for (int i = 0; i < ret.len; i++)
        ast_replace(ret.items[i], ast_build_goto(L->a, "imcl_next_point", ret.items[i]->loc));
    if (ret.len)
        ast_append_stmt(L->a, body, ast_build_label(L->a, "imcl_next_point", (Loc){0}));
}

/* lin + c * e, as lin + e, lin - e, lin + c * e or lin - c * e. */
static Node *plus_times(Arena *a, Node *lin, long long c, Node *e, Loc loc)
{
    long long m = c < 0 ? -c : c;
    Node *n = ast_build_binary(a, c < 0 ? '-' : '+', lin, m == 1 ? e : lower_mul(a, ast_build_int(a, m, loc), e, loc),
                               loc);
    n->type = type_scalar(TY_INT);
    return n;
}

/* imcl_row_A[idx + a + b * w + c * w * h] for access acc of the row form. */
static Node *row_access(Lower *L, Node *acc, Symbol *row)
{
    Arena *a = L->a;
    Symbol *root = acc->u.access.sym;
    long long off[3] = {0, 0, 0};
    row_form(L, acc, off);
    Node *lin = ast_copy(a, acc->u.access.ix[0]);
    Node *stride = NULL;
    for (int d = 1; d < acc->u.access.n; d++) {
        Node *e = lower_storage_extent(a, root, d - 1, acc->loc);
        stride = stride ? lower_mul(a, stride, e, acc->loc) : e;
        if (off[d])
            lin = plus_times(a, lin, off[d], ast_copy(a, stride), acc->loc);
    }
    Node *buf = ast_build_buf_access(a, row, lin, acc->loc);
    buf->type = root->type->elem;
    return buf;
}

static Node *lower_access(Lower *L, Node *acc)
{
    Symbol *view = acc->u.access.sym;
    Symbol *root = symbol_root(view);
    Rows *r = L->rows;
    if (r && L->k->rows && L->k->rows[root->param_index] && in_list(&r->body, acc))
        return row_access(L, acc, L->k->rows[root->param_index]);
    Node *ix[3];
    Node *guard = lower_boundary(L, acc, ix);
    Node *buf = ast_build_buf_access(L->a, root, linear_index(L, view, ix, acc->u.access.n, acc->loc), acc->loc);
    buf->type = root->type->elem;
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
    NodeList acc = ast_query(L->a, L->k->body, AST_GRID_ACCESS);
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
    /* The prologues first: the aliases the prologue declares (pass_shared_memory,
     * pass_stream_z, pass_register_cache) get their offsets before the reads
     * through them. */
    if (k->prologue) {
        ast_mutate(k->prologue, mutate, &L);
        ast_fix_parents(k->prologue);
    }
    if (k->point_prologue) {
        ast_mutate(k->point_prologue, mutate, &L);
        ast_fix_parents(k->point_prologue);
    }
    ast_mutate(k->body, mutate, &L);
    ast_fix_parents(k->body);
    return L.errors;
}
