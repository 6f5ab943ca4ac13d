/* Dead code out of the kernels and helpers, once, before any analysis
 * (analyze_liveness).
 *
 * A statement `x = e;`, `x op= e;`, `x++;` (or --) whose variable x, a scalar local or
 * scalar parameter, is not live after it is taken out; so is the initial value of a
 * local declaration that is not live after it, and the declaration of a local that is
 * no longer named at all. Removing a store can make the stores feeding it dead in
 * turn, so the pruning runs to a fixed point. What is kept, conservatively: a store
 * whose value expression has an effect of its own (an assignment, ++ or -- inside
 * it), every write to an array element (Images, Blocks, fixed-size arrays), loops
 * (even when their body became empty), for-loop initializations and steps. Calls
 * have no effect: math functions are pure, and a helper takes scalars by value and
 * cannot reach an array.
 *
 * The driver runs it right after the checks (driver_load), on the kernels in place:
 * the access analysis, the footprints, the space and -t's validation then see the
 * kernel as it is compiled, so that an array whose reads were all dead is unread for
 * every one of them (no tile, no register placement, no z-window offered for it).
 * The same code, run on a copy first, finds the locals the warnings name. */
#include "passes.h"

#include <string.h>

#include "analysis.h"


/* ---- what an expression does -------------------------------------------------- */

static bool effect_visit(Node *n, void *p)
{
    bool *found = p;
    if (n->kind == AST_ASSIGN ||
        (n->kind == AST_UNARY && n->u.unary.op >= OP_PREINC && n->u.unary.op <= OP_POSTDEC))
        *found = true;
    return !*found;
}

static bool has_effect(const Node *n)
{
    bool found = false;
    if (n)
        ast_walk((Node *)n, effect_visit, &found);
    return found;
}

/* The scalar a statement stores to: `x = e`, `x op= e`, `++x`, `x--`, ... with *value
 * the expression it evaluates besides x (NULL for ++/--). */
static Symbol *stored_var(const Node *e, const Node **value)
{
    if (e->kind == AST_ASSIGN && e->u.binary.lhs->kind == AST_VAR) {
        *value = e->u.binary.rhs;
        return e->u.binary.lhs->u.var.sym;
    }
    if (e->kind == AST_UNARY && e->u.unary.op >= OP_PREINC && e->u.unary.op <= OP_POSTDEC &&
        e->u.unary.operand->kind == AST_VAR) {
        *value = NULL;
        return e->u.unary.operand->u.var.sym;
    }
    return NULL;
}

/* The value of n (a store) is not used: it stands as a statement of its own. */
static bool value_discarded(const Node *n)
{
    const Node *p = n->parent;
    return p && (p->kind == AST_EXPR_STMT || (p->kind == AST_BINARY && p->u.binary.op == ',' && p->u.binary.lhs == n));
}

/* Per tracked variable of lv: the names of it, and of them the useful reads: those
 * whose value may go somewhere but back into the variable. `x += e;`, `x++;` and
 * `x = x * 2;` read x only to store into x: a variable without useful reads is
 * never used, though it may be live (in a loop, say). */
typedef struct Uses {
    const Liveness *lv;
    int *refs, *useful;
    int *faint;         /* names in store statements to the variable whose value has no
                         * effect: when all its names are such, every store can go */
    int self;           /* inside the value of a store statement to this variable */
} Uses;

static bool uses_visit(Node *n, void *p)
{
    Uses *u = p;
    if (n->kind == AST_DECL && n->u.decl.sym->kind == SYM_ALIAS && n->u.decl.sym->alias_offset)
        ast_walk(n->u.decl.sym->alias_offset, uses_visit, p);
    const Node *value;
    Symbol *st = n->kind == AST_EXPR_STMT ? stored_var(n->u.expr_stmt.expr, &value) : NULL;
    int sv = st ? liveness_var(u->lv, st) : -1;
    if (sv >= 0) {
        /* A store statement: its target is named, and read only for itself. */
        int before = u->refs[sv]++;
        int saved = u->self;
        u->self = sv;
        if (value)
            ast_walk((Node *)value, uses_visit, p);
        u->self = saved;
        if (!has_effect(value))
            u->faint[sv] += u->refs[sv] - before;
        return false;
    }
    int v = n->kind == AST_VAR ? liveness_var(u->lv, n->u.var.sym) : -1;
    if (v < 0)
        return true;
    u->refs[v]++;
    const Node *parent = n->parent;
    bool target = parent && ((parent->kind == AST_ASSIGN && parent->u.binary.lhs == n) ||
                             (parent->kind == AST_UNARY && parent->u.unary.op >= OP_PREINC &&
                              parent->u.unary.op <= OP_POSTDEC));
    if (target ? ast_is_read_use(n) && !value_discarded(parent) : v != u->self)
        u->useful[v]++;
    return true;
}

static Uses uses_of(Arena *a, const Liveness *lv, const Function *f)
{
    size_t size = sizeof(int) * (size_t)(lv->nvars + 1);
    Uses u = {lv, arena_alloc(a, size), arena_alloc(a, size), arena_alloc(a, size), -1};
    ast_walk(f->body, uses_visit, &u);
    return u;
}

typedef struct Dead {
    Arena *a;
    Function *f;
    Liveness *lv;
    int *refs;          /* per tracked variable: the AST_VAR nodes naming it */
    Uses uses;          /* at the start of the round */
    bool changed;
} Dead;

/* ---- counting names ------------------------------------------------------------ */

typedef struct Count {
    Dead *d;
    int sign;           /* +1 counting, -1 taking a removed statement out */
} Count;

static bool count_visit(Node *n, void *p)
{
    Count *c = p;
    Dead *d = c->d;
    if (n->kind == AST_VAR) {
        int i = liveness_var(d->lv, n->u.var.sym);
        if (i >= 0)
            d->refs[i] += c->sign;
    } else if (n->kind == AST_DECL && n->u.decl.sym->kind == SYM_ALIAS && n->u.decl.sym->alias_offset) {
        ast_walk(n->u.decl.sym->alias_offset, count_visit, p);
    }
    return true;
}

typedef struct Names {
    const Symbol *sym;
    int n;
} Names;

static bool names_visit(Node *n, void *p)
{
    Names *q = p;
    if (n->kind == AST_VAR && n->u.var.sym == q->sym)
        q->n++;
    return true;
}

/* Removing statement n would leave parameter s unnamed: a parameter that is never
 * used is a warning (-Wunused-parameter) in the generated C. */
static bool holds_last_param_name(const Dead *d, const Symbol *s, Node *n)
{
    if (s->kind != SYM_PARAM)
        return false;
    Names q = {s, 0};
    ast_walk(n, names_visit, &q);
    return d->refs[liveness_var(d->lv, s)] <= q.n;
}

/* ---- removing --------------------------------------------------------------------- */

/* Takes statement n out: from its block, or as an empty block where one statement
 * must stand (a branch, a loop body). */
static void remove_stmt(Dead *d, Node *n)
{
    Count c = {d, -1};
    ast_walk(n, count_visit, &c);
    Node *p = n->parent;
    if (p && p->kind == AST_BLOCK)
        ast_remove_stmt(n);
    else
        ast_replace(n, ast_build_block(d->a, n->loc));
    d->changed = true;
}

/* s is named only in store statements to s whose values have no effect, and read
 * there only for s itself: its value never reaches anything, though it is live
 * (`s += i` in a loop). */
static bool never_used(const Dead *d, const Symbol *s)
{
    int v = liveness_var(d->lv, s);
    return v >= 0 && d->uses.useful[v] == 0 && d->uses.faint[v] == d->uses.refs[v];
}

static bool is_loop_header(const Node *n)
{
    const Node *p = n->parent;
    return p && (p->kind == AST_FOR || p->kind == AST_WHILE || p->kind == AST_DO) &&
           (p->u.loop.init == n || p->u.loop.step == n);
}

static bool empty(const Node *n)
{
    if (!n || n->kind == AST_EMPTY)
        return true;
    if (n->kind != AST_BLOCK)
        return false;
    for (int i = 0; i < n->u.block.stmts.len; i++)
        if (!empty(n->u.block.stmts.items[i]))
            return false;
    return true;
}

static bool declares(const Node *init, const Symbol *s)
{
    for (int i = 0; init && init->kind == AST_DECL_LIST && i < init->u.block.stmts.len; i++)
        if (init->u.block.stmts.items[i]->u.decl.sym == s)
            return true;
    return false;
}

/* `for (T i = a; cond; i++) {}`: a loop that computes nothing. Its body is empty,
 * its variables are its own (declared in the init, with initial values without
 * effects), its condition has no effect and its step only updates one of them. C11
 * (6.8.5) lets a compiler assume that such a loop ends. */
static bool idle_loop(const Node *n)
{
    const Node *init = n->u.loop.init, *step = n->u.loop.step, *value;
    if (!empty(n->u.loop.body) || !init || init->kind != AST_DECL_LIST || !n->u.loop.cond ||
        has_effect(n->u.loop.cond))
        return false;
    for (int i = 0; i < init->u.block.stmts.len; i++)
        if (has_effect(init->u.block.stmts.items[i]->u.decl.init))
            return false;
    if (!step)
        return true;
    Symbol *s = stored_var(step, &value);
    return s && declares(init, s) && !has_effect(value);
}

static void visit_stmt(Dead *d, Node *n);

static void visit_list(Dead *d, Node *block)
{
    /* Backwards: a later removal never moves an earlier statement. */
    for (int i = block->u.block.stmts.len - 1; i >= 0; i--)
        if (i < block->u.block.stmts.len)
            visit_stmt(d, block->u.block.stmts.items[i]);
}

static void visit_stmt(Dead *d, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case AST_BLOCK:
        visit_list(d, n);
        return;
    case AST_IF:
        visit_stmt(d, n->u.if_.then);
        visit_stmt(d, n->u.if_.els);
        return;
    case AST_FOR:
        visit_stmt(d, n->u.loop.body);
        if (idle_loop(n)) {
            nodelist_push(d->a, &d->f->removed_loops, n);
            remove_stmt(d, n);
        }
        return;
    case AST_WHILE:
    case AST_DO:
        visit_stmt(d, n->u.loop.body);
        return;
    case AST_EXPR_STMT: {
        const Node *value;
        Symbol *s = stored_var(n->u.expr_stmt.expr, &value);
        if (!s || liveness_var(d->lv, s) < 0 || is_loop_header(n))
            return;
        const LiveStmt *ls = liveness_stmt(d->lv, n);
        if (!ls || (liveness_has(d->lv, ls->out, s) && !never_used(d, s)) || has_effect(value) ||
            holds_last_param_name(d, s, n))
            return;
        remove_stmt(d, n);
        return;
    }
    case AST_DECL: {
        Symbol *s = n->u.decl.sym;
        int v = liveness_var(d->lv, s);
        if (s->kind != SYM_LOCAL || v < 0 || (n->parent && n->parent->kind != AST_BLOCK))
            return;
        if (n->u.decl.init) {
            const LiveStmt *ls = liveness_stmt(d->lv, n);
            /* refs: no name of s is left (the statements after this one, visited
             * first, may just have taken the last ones out). */
            if (!ls || (liveness_has(d->lv, ls->out, s) && !never_used(d, s) && d->refs[v] > 0) ||
                has_effect(n->u.decl.init))
                return;
            Count c = {d, -1};
            ast_walk(n->u.decl.init, count_visit, &c);
            n->u.decl.init = NULL;
            n->u.decl.is_const = false;
            d->changed = true;
        }
        /* No name left: the declaration goes too. */
        if (d->refs[v] == 0)
            remove_stmt(d, n);
        return;
    }
    default:
        return;
    }
}

/* ---- unnamed local arrays ------------------------------------------------------------- */

typedef struct Named {
    const Symbol *sym;
    bool found;
} Named;

static bool named_visit(Node *n, void *p)
{
    Named *q = p;
    if (n->kind == AST_VAR && n->u.var.sym == q->sym)
        q->found = true;
    return !q->found;
}

static bool named(const Function *f, const Symbol *s)
{
    Named q = {s, false};
    ast_walk(f->body, named_visit, &q);
    return q.found;
}

static bool array_decl_visit(Node *n, void *p)
{
    Dead *d = p;
    if (n->kind == AST_DECL && n->u.decl.sym->kind == SYM_LOCAL && n->u.decl.sym->type->kind == TY_ARRAY &&
        !n->u.decl.init && n->parent && n->parent->kind == AST_BLOCK && !named(d->f, n->u.decl.sym)) {
        remove_stmt(d, n);
        return false;
    }
    return true;
}

/* ---- the fixed point ---------------------------------------------------------------- */

/* Prunes f's body in place, to a fixed point. */
static void prune(Arena *a, Function *f)
{
    Dead d;
    memset(&d, 0, sizeof d);
    d.a = a;
    d.f = f;
    do {
        d.changed = false;
        d.lv = analyze_liveness(a, f);
        d.refs = arena_alloc(a, sizeof(int) * (size_t)(d.lv->nvars + 1));
        d.uses = uses_of(a, d.lv, f);
        Count c = {&d, +1};
        ast_walk(f->body, count_visit, &c);
        visit_stmt(&d, f->body);
        ast_walk(f->body, array_decl_visit, &d);
    } while (d.changed);
}

/* ---- warnings ----------------------------------------------------------------------- */

static bool decl_list_visit(Node *n, void *p)
{
    void **args = p;
    Arena *a = args[0];
    NodeList *l = args[1];
    /* Not a loop's own counter: a loop that computed nothing went with its counter. */
    if (n->kind == AST_DECL && n->u.decl.sym->kind == SYM_LOCAL && !(n->parent && is_loop_header(n->parent)))
        nodelist_push(a, l, n);
    return true;
}

/* Warns, as gcc words it, about every local of f whose value is never used: never
 * named after its declaration ("unused variable"), or none of its reads survives
 * the pruning ("set but not used"). */
static void warn_function(Arena *a, Diag *diag, const Function *f)
{
    Function copy = *f;
    copy.body = ast_copy(a, f->body);
    ast_fix_parents(copy.body);
    prune(a, &copy);
    const Liveness *lv = analyze_liveness(a, f);
    Uses before = uses_of(a, lv, f), after = uses_of(a, lv, &copy);
    NodeList decls = {0};
    void *args[2] = {a, &decls};
    ast_walk(f->body, decl_list_visit, args);
    for (int i = 0; i < decls.len; i++) {
        Symbol *s = decls.items[i]->u.decl.sym;
        int v = liveness_var(lv, s);
        if (v < 0 ? !named(f, s) : before.refs[v] == 0)
            diag_warning(diag, s->loc, "unused variable '%s'", s->name);
        else if (v >= 0 && after.useful[v] == 0)
            diag_warning(diag, s->loc, "variable '%s' set but not used", s->name);
    }
}

void dead_code_program(Arena *a, Diag *diag, Program *prog, Function **kernels, int nk)
{
    for (int i = 0; i < prog->nfuncs; i++) {
        Function *f = prog->funcs[i];
        bool selected = !f->is_kernel;
        for (int j = 0; j < nk; j++)
            selected |= kernels[j] == f;
        if (!selected)
            continue;
        warn_function(a, diag, f);
        prune(a, f);
    }
}
