/* pass_global_memory: grid accesses become linear buffer accesses with boundary
 * handling (thesis eq. 3.10, section 3.1.2). */
#include "passes.h"

#include <string.h>

#include "analysis.h"

typedef struct Lower {
    Arena *a;
    Function *k;
    Diag *diag;
    int errors;
    Footprint *fp;
} Lower;

static Node *call2(Arena *a, const char *name, Node *x, Node *n, int halo, Loc loc)
{
    Node *c = ast_build_call(a, name, loc);
    ast_append_arg(a, c, x);
    ast_append_arg(a, c, n);
    ast_append_arg(a, c, ast_build_int(a, halo, loc));
    c->type = type_scalar(TY_INT);
    return c;
}

static Node *add(Arena *a, Node *l, Node *r, Loc loc)
{
    Node *n = ast_build_binary(a, '+', l, r, loc);
    n->type = type_scalar(TY_INT);
    return n;
}

static Node *mul(Arena *a, Node *l, Node *r, Loc loc)
{
    Node *n = ast_build_binary(a, '*', l, r, loc);
    n->type = type_scalar(TY_INT);
    return n;
}

/* x + h, folded into x's own constant term when it has one (idx - 1 + 1 is idx). */
static Node *plus_halo(Arena *a, Node *x, int h, Loc loc)
{
    long long c;
    if (!h)
        return x;
    if (x->kind == AST_BINARY && (x->u.binary.op == '+' || x->u.binary.op == '-') &&
        ast_const_int(x->u.binary.rhs, &c)) {
        long long sum = (x->u.binary.op == '+' ? c : -c) + h;
        Node *e = x->u.binary.lhs;
        if (sum == 0)
            return e;
        Node *n = ast_build_binary(a, sum > 0 ? '+' : '-', e, ast_build_int(a, sum > 0 ? sum : -sum, loc), loc);
        n->type = type_scalar(TY_INT);
        return n;
    }
    return add(a, x, ast_build_int(a, h, loc), loc);
}

/* Extent of the array's storage in dim d: extent + 2*halo. */
static Node *storage_extent(Arena *a, Symbol *root, int d, Loc loc)
{
    Node *e = ast_build_extent(a, root, d, loc);
    return plus_halo(a, e, 2 * root->halo, loc);
}

/* ((z + h) * (height + 2h) + (y + h)) * (width + 2h) + (x + h), plus the alias offset. */
static Node *linear_index(Lower *L, Symbol *view, Node **ix, int n, Loc loc)
{
    Arena *a = L->a;
    Symbol *root = symbol_root(view);
    int h = root->halo;
    Node *lin = plus_halo(a, ix[n - 1], h, loc);
    for (int d = n - 2; d >= 0; d--)
        lin = add(a, mul(a, lin, storage_extent(a, root, d, loc), loc), plus_halo(a, ix[d], h, loc), loc);
    if (view->kind == SYM_ALIAS && view->offset_var)
        lin = add(a, ast_build_var_ref(a, view->offset_var, loc), lin, loc);
    return lin;
}

/* The guard `imcl_in(x, n, h) && ...` over the dimensions not proven inside, or NULL. */
static Node *inside_cond(Lower *L, Node *acc)
{
    Arena *a = L->a;
    Symbol *root = symbol_root(acc->u.access.sym);
    Node *cond = NULL;
    for (int d = 0; d < acc->u.access.n; d++) {
        if (analyze_access_inside(L->k, L->fp, acc, d))
            continue;
        Node *c = call2(a, "imcl_in", ast_copy(a, acc->u.access.ix[d]),
                        ast_build_extent(a, root, d, acc->loc), root->halo, acc->loc);
        cond = cond ? ast_build_binary(a, OP_AND, cond, c, acc->loc) : c;
        cond->type = type_scalar(TY_INT);
    }
    return cond;
}

static Node *boundary_value(Lower *L, Symbol *root, Loc loc)
{
    Type *elem = root->type->elem;
    if (root->bc_value && root->bc_value->type == elem)
        return ast_copy(L->a, root->bc_value);
    if (root->bc_value)
        return ast_build_cast(L->a, elem, ast_copy(L->a, root->bc_value), loc);
    if (type_is_float(elem))
        return ast_build_float(L->a, 0.0, elem->kind == TY_FLOAT ? "0.0f" : "0.0", elem, loc);
    Node *z = ast_build_int(L->a, 0, loc);
    return z;
}

static Node *lower_access(Lower *L, Node *acc)
{
    Arena *a = L->a;
    Symbol *view = acc->u.access.sym;
    Symbol *root = symbol_root(view);
    Node *ix[3];
    int n = acc->u.access.n;
    for (int d = 0; d < n; d++)
        ix[d] = acc->u.access.ix[d];
    bool write = ast_is_lvalue_use(acc);
    Node *guard = NULL;
    if (!write && root->bc != BC_NONE) {
        if (root->bc == BC_CONSTANT) {
            guard = inside_cond(L, acc);
        } else {
            const char *fn = root->bc == BC_CLAMPED ? "imcl_clamp"
                           : root->bc == BC_PERIODIC ? "imcl_wrap" : "imcl_mirror";
            for (int d = 0; d < n; d++)
                if (!analyze_access_inside(L->k, L->fp, acc, d))
                    ix[d] = call2(a, fn, ix[d], ast_build_extent(a, root, d, acc->loc), root->halo, acc->loc);
        }
    }
    Node *buf = ast_build_buf_access(a, root, linear_index(L, view, ix, n, acc->loc), acc->loc);
    buf->type = root->type->elem;
    if (!guard)
        return buf;
    Node *c = ast_build_cond(a, guard, buf, boundary_value(L, root, acc->loc), acc->loc);
    c->type = root->type->elem;
    return c;
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
        lin = lin ? add(L->a, mul(L->a, lin, ast_build_int(L->a, s->type->dims[d], n->loc), n->loc), ix, n->loc) : ix;
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
            init = add(L->a, ast_build_var_ref(L->a, s->alias_base->offset_var, n->loc), init, n->loc);
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
        Node *cond = inside_cond(L, w);
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

int pass_global_memory(Arena *a, Function *k, Diag *diag)
{
    Lower L = {a, k, diag, 0, analyze_footprint(a, k)};
    guard_writes(&L);
    ast_mutate(k->body, mutate, &L);
    ast_fix_parents(k->body);
    if (k->prologue) {
        ast_mutate(k->prologue, mutate, &L);
        ast_fix_parents(k->prologue);
    }
    return L.errors;
}
