/* Loop analysis for unrolling: which `for` loops have the canonical form
 *     for (i = a; i < b; i += c) body      (or <=, >, >=, mirrored; ++, --, -=)
 * that pass_unroll can unroll, and their trip count when a and b are constants. */
#include "analysis.h"

#include <string.h>

/* Steps larger than this are refused, so that factor * step stays far from int's
 * limits (factors are at most LOOPS_MAX_FACTOR). */
#define MAX_STEP (1LL << 20)

/* ---- the loop's own parts ------------------------------------------------------- */

/* init: `T i = a` (one declarator) or `i = a`. */
static const char *canon_init(Arena *a, Node *init, LoopInfo *li)
{
    if (!init)
        return "it has no initialization";
    if (init->kind == AST_DECL_LIST) {
        if (init->u.block.stmts.len != 1)
            return "its initialization declares several variables";
        Node *d = init->u.block.stmts.items[0];
        li->var = d->u.decl.sym;
        li->init = d->u.decl.init;
        li->declared = true;
        if (!li->init)
            return arena_printf(a, "'%s' has no initial value", li->var->name);
    } else if (init->kind == AST_EXPR_STMT && init->u.expr_stmt.expr->kind == AST_ASSIGN &&
               init->u.expr_stmt.expr->u.binary.op == '=' &&
               init->u.expr_stmt.expr->u.binary.lhs->kind == AST_VAR) {
        Node *e = init->u.expr_stmt.expr;
        li->var = e->u.binary.lhs->u.var.sym;
        li->init = e->u.binary.rhs;
    } else {
        return "its initialization does not set one variable";
    }
    if (!type_is_integer(li->var->type))
        return arena_printf(a, "its variable '%s' is not an integer", li->var->name);
    return NULL;
}

static bool is_var(const Node *n, const Symbol *s)
{
    return n && n->kind == AST_VAR && n->u.var.sym == s;
}

/* cond: `i op b` or `b op i`, op one of < <= > >=; normalized to `i op b`. */
static const char *canon_cond(Arena *a, Node *cond, LoopInfo *li)
{
    if (!cond)
        return "it has no condition";
    int op = cond->kind == AST_BINARY ? cond->u.binary.op : 0;
    bool rel = op == '<' || op == '>' || op == OP_LE || op == OP_GE;
    if (rel && is_var(cond->u.binary.lhs, li->var)) {
        li->op = op;
        li->bound = cond->u.binary.rhs;
    } else if (rel && is_var(cond->u.binary.rhs, li->var)) {
        li->op = op == '<' ? '>' : op == '>' ? '<' : op == OP_LE ? OP_GE : OP_LE;
        li->bound = cond->u.binary.lhs;
    } else {
        return arena_printf(a, "its condition does not compare '%s' with a bound by <, <=, > or >=",
                            li->var->name);
    }
    return NULL;
}

/* step: i++, ++i, i--, --i, i += c, i -= c with c a nonzero integer constant. */
static const char *canon_step(Arena *a, Node *step, LoopInfo *li)
{
    long long c = 0;
    if (step && step->kind == AST_UNARY && step->u.unary.op >= OP_PREINC &&
        is_var(step->u.unary.operand, li->var)) {
        c = step->u.unary.op == OP_PREINC || step->u.unary.op == OP_POSTINC ? 1 : -1;
    } else if (step && step->kind == AST_ASSIGN && is_var(step->u.binary.lhs, li->var) &&
               (step->u.binary.op == '+' || step->u.binary.op == '-') &&
               ast_const_offset(step->u.binary.rhs, &c)) {
        if (c < -MAX_STEP || c > MAX_STEP)
            return arena_printf(a, "its step is larger than %lld", MAX_STEP);
        c = step->u.binary.op == '+' ? c : -c;
        if (c == 0)
            return "its step is 0";
    } else {
        return arena_printf(a, "its step is not ++, --, += or -= of a constant on '%s'", li->var->name);
    }
    li->step = c;
    bool up = li->op == '<' || li->op == OP_LE;
    if (up != (c > 0))
        return arena_printf(a, "its step moves '%s' away from its bound", li->var->name);
    return NULL;
}

/* ---- what the body does ----------------------------------------------------------- */

/* The variable or array an lvalue stores into. */
static Symbol *stored_symbol(Node *lv)
{
    while (lv && lv->kind == AST_INDEX)
        lv = lv->u.index.base;
    if (!lv)
        return NULL;
    if (lv->kind == AST_VAR)
        return lv->u.var.sym;
    if (lv->kind == AST_GRID_ACCESS || lv->kind == AST_BUF_ACCESS)
        return symbol_root(lv->u.access.sym);
    return NULL;
}

typedef struct BodyScan {
    Arena *a;
    Symbol **written;   /* symbols the body stores into */
    int nwritten, capwritten;
    int loop_depth;     /* loops entered inside the body */
    bool brk, cont, ret;
} BodyScan;

static void note_written(BodyScan *b, Symbol *s)
{
    if (!s)
        return;
    for (int i = 0; i < b->nwritten; i++)
        if (b->written[i] == s)
            return;
    if (b->nwritten == b->capwritten) {
        int cap = b->capwritten ? 2 * b->capwritten : 8;
        Symbol **w = arena_alloc(b->a, sizeof *w * (size_t)cap);
        if (b->nwritten)
            memcpy(w, b->written, sizeof *w * (size_t)b->nwritten);
        b->written = w;
        b->capwritten = cap;
    }
    b->written[b->nwritten++] = s;
}

static bool is_written(const BodyScan *b, const Symbol *s)
{
    for (int i = 0; i < b->nwritten; i++)
        if (b->written[i] == s)
            return true;
    return false;
}

static void scan(BodyScan *b, Node *n);

static bool scan_visit(Node *n, void *p)
{
    BodyScan *b = p;
    switch (n->kind) {
    case AST_ASSIGN:
        note_written(b, stored_symbol(n->u.binary.lhs));
        return true;
    case AST_UNARY:
        if (n->u.unary.op >= OP_PREINC && n->u.unary.op <= OP_POSTDEC)
            note_written(b, stored_symbol(n->u.unary.operand));
        return true;
    case AST_BREAK:
        b->brk |= b->loop_depth == 0;
        return false;
    case AST_CONTINUE:
        b->cont |= b->loop_depth == 0;
        return false;
    case AST_RETURN:
        b->ret = true;
        return true;
    case AST_FOR:
    case AST_WHILE:
    case AST_DO: {
        /* break and continue in a nested loop belong to that loop */
        Node **slots[8];
        int k = ast_children(n, slots, 8);
        b->loop_depth++;
        for (int i = 0; i < k; i++)
            scan(b, *slots[i]);
        b->loop_depth--;
        return false;
    }
    default:
        return true;
    }
}

static void scan(BodyScan *b, Node *n)
{
    ast_walk(n, scan_visit, b);
}

/* Assignments and ++/--. Calls are pure: helpers take scalars only and there are
 * no globals (and the lowering's imcl_in, imcl_clamp, ... calls must not make a
 * bound look impure after pass_global_memory when it was pure before). */
static bool write_visit(Node *n, void *p)
{
    bool *found = p;
    if (n->kind == AST_ASSIGN || (n->kind == AST_UNARY && n->u.unary.op >= OP_PREINC && n->u.unary.op <= OP_POSTDEC))
        *found = true;
    return !*found;
}

/* The first symbol the bound reads that the body writes (or the loop variable). */
typedef struct BoundScan {
    const BodyScan *body;
    const Symbol *var;
    const Symbol *hit;
} BoundScan;

static bool bound_visit(Node *n, void *p)
{
    BoundScan *s = p;
    const Symbol *sym = NULL;
    if (n->kind == AST_VAR)
        sym = n->u.var.sym;
    else if (n->kind == AST_GRID_ACCESS || n->kind == AST_BUF_ACCESS)
        sym = symbol_root(n->u.access.sym);
    if (sym && !s->hit && (sym == s->var || is_written(s->body, sym)))
        s->hit = sym;
    return !s->hit;
}

/* ---- trip count -------------------------------------------------------------------- */

static bool fits(const Type *t, long long v)
{
    long long lo, hi;
    type_range(t->kind, &lo, &hi);
    return v >= lo && v <= hi;
}

/* The trip count, when the initial value and the bound are constants that the
 * variable's type and the comparison's type hold, and every value the variable
 * takes (the last one included) stays in its type. */
static void trip_count(LoopInfo *li)
{
    long long v0, b;
    if (!ast_const_int(li->init, &v0) || !ast_const_int(li->bound, &b))
        return;
    const Type *vt = li->var->type;
    if (!fits(vt, v0) || !fits(vt, b) || (li->bound->type && type_is_integer(li->bound->type) && !fits(li->bound->type, b)))
        return;
    /* An unsigned comparison sees negative values as huge ones. */
    Type *cmp = type_common(li->var->type, li->bound->type ? li->bound->type : type_scalar(TY_INT));
    if (cmp && cmp->kind == TY_UINT && (v0 < 0 || b < 0))
        return;
    long long c = li->step, n;
    switch (li->op) {
    case '<': n = v0 < b ? (b - v0 + c - 1) / c : 0; break;
    case OP_LE: n = v0 <= b ? (b - v0) / c + 1 : 0; break;
    case '>': n = v0 > b ? (v0 - b - c - 1) / -c : 0; break;
    default: n = v0 >= b ? (v0 - b) / -c + 1 : 0; break;
    }
    if (!fits(vt, v0 + n * c))
        return;
    li->trip_known = true;
    li->trip = n;
    li->first = v0;
}

/* ---- entry points ---------------------------------------------------------------------- */

void analyze_loop(Arena *a, Node *loop, LoopInfo *li)
{
    memset(li, 0, sizeof *li);
    li->loop = loop;
    li->line = loop->loc.line;
    li->label = loop->u.loop.label;
    li->why = canon_init(a, loop->u.loop.init, li);
    if (!li->why)
        li->why = canon_cond(a, loop->u.loop.cond, li);
    if (!li->why)
        li->why = canon_step(a, loop->u.loop.step, li);
    if (li->why)
        return;
    const char *v = li->var->name;
    BodyScan body = {a, NULL, 0, 0, 0, false, false, false};
    scan(&body, loop->u.loop.body);
    if (is_written(&body, li->var)) {
        li->why = arena_printf(a, "its body assigns '%s'", v);
        return;
    }
    if (body.brk || body.cont || body.ret) {
        li->why = body.brk ? "its body has a break" : body.cont ? "its body has a continue" : "its body has a return";
        return;
    }
    bool writes = false;
    ast_walk(li->bound, write_visit, &writes);
    if (writes) {
        li->why = "its bound has side effects";
        return;
    }
    BoundScan bs = {&body, li->var, NULL};
    ast_walk(li->bound, bound_visit, &bs);
    if (bs.hit == li->var) {
        li->why = arena_printf(a, "its bound depends on '%s'", v);
        return;
    }
    if (bs.hit) {
        li->why = arena_printf(a, "its bound reads '%s', which its body writes", bs.hit->name);
        return;
    }
    li->unrollable = true;
    trip_count(li);
}

static bool collect_for(Node *n, void *p)
{
    void **args = p;
    if (n->kind == AST_FOR)
        nodelist_push(args[0], args[1], n);
    return true;
}

LoopTable analyze_loops(Arena *a, const Function *k)
{
    NodeList fors = {0};
    void *args[2] = {a, &fors};
    ast_walk(ast_point_body(k), collect_for, args);
    LoopTable t = {0};
    t.items = arena_alloc(a, sizeof *t.items * (size_t)(fors.len ? fors.len : 1));
    for (int i = 0; i < fors.len; i++) {
        Node *loop = fors.items[i];
        LoopInfo *seen = (LoopInfo *)loops_find(&t, loop->loc.line);
        if (seen) {
            seen->unrollable = false;
            seen->trip_known = false;
            seen->why = arena_printf(a, "several for loops start on line %d", loop->loc.line);
            continue;
        }
        analyze_loop(a, loop, &t.items[t.n++]);
    }
    return t;
}

const LoopInfo *loops_find(const LoopTable *t, int line)
{
    for (int i = 0; i < t->n; i++)
        if (t->items[i].line == line)
            return &t->items[i];
    return NULL;
}

const LoopInfo *loops_find_label(const LoopTable *t, const char *label)
{
    for (int i = 0; i < t->n; i++)
        if (t->items[i].label && strcmp(t->items[i].label, label) == 0)
            return &t->items[i];
    return NULL;
}

int loops_unroll_factors(const LoopInfo *li, int *out, int max)
{
    int n = 0;
    out[n++] = 1;
    if (!li->unrollable || max < 2)
        return n;
    if (!li->trip_known) {
        for (int f = 2; f <= 8 && n < max; f *= 2)
            out[n++] = f;
        return n;
    }
    /* Divisors of the trip count up to LOOPS_MAX_FACTOR (the count itself among
     * them when it is that small); a longer loop also gets the powers of two,
     * which leave a remainder. Powers of two are kept first when there are more
     * than `max` candidates. */
    bool pick[LOOPS_MAX_FACTOR + 1] = {false};
    int count = 0;
    for (int f = 2; f <= LOOPS_MAX_FACTOR && f <= li->trip; f++) {
        bool pow2 = (f & (f - 1)) == 0;
        if (li->trip % f == 0 || (li->trip > LOOPS_MAX_FACTOR && pow2)) {
            pick[f] = true;
            count++;
        }
    }
    for (int f = LOOPS_MAX_FACTOR; f >= 2 && count > max - 1; f--)
        if (pick[f] && (f & (f - 1)) != 0) {
            pick[f] = false;
            count--;
        }
    for (int f = 2; f <= LOOPS_MAX_FACTOR && n < max; f++)
        if (pick[f])
            out[n++] = f;
    return n;
}
