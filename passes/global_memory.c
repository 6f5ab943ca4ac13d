/* pass_global_memory: grid accesses become linear buffer accesses with boundary
 * handling (thesis eq. 3.10, section 3.1.2). */
#include "passes.h"

#include <string.h>

#include "lower.h"

/* ((z + h) * (height + 2h) + (y + h)) * (width + 2h) + (x + h), plus the alias offset. */
static Node *linear_index(Lower *L, Symbol *view, Node **ix, int n, Loc loc)
{
    Arena *a = L->a;
    Symbol *root = symbol_root(view);
    int h = root->halo;
    Node *lin = lower_plus_halo(a, ix[n - 1], h, loc);
    for (int d = n - 2; d >= 0; d--)
        lin = lower_add(a, lower_mul(a, lin, lower_storage_extent(a, root, d, loc), loc),
                        lower_plus_halo(a, ix[d], h, loc), loc);
    if (view->kind == SYM_ALIAS && view->offset_var)
        lin = lower_add(a, ast_build_var_ref(a, view->offset_var, loc), lin, loc);
    return lin;
}

static Node *lower_access(Lower *L, Node *acc)
{
    Symbol *view = acc->u.access.sym;
    Symbol *root = symbol_root(view);
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
