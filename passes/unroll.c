/* pass_unroll: loop unrolling (the unroll_L<line> tuning parameters).
 *
 * A canonical loop (see LoopInfo) `for (T i = a; i < b; i += c) body` unrolled F
 * times becomes
 *
 *     {
 *         T i = a;
 *         for (; i + (F-1)*c < b; i += F*c) {      // the main loop
 *             { body[i] } { body[i + c] } ... { body[i + (F-1)*c] }
 *         }
 *         for (; i < b; i += c) {                  // the remainder, one by one
 *             body
 *         }
 *     }
 *
 * which is correct for every trip count (see main_cond for downward and unsigned
 * tests). With a known trip count N: F dividing N keeps the original condition and
 * drops the remainder; F >= N unrolls fully, with i replaced by its constant values
 * and no loop at all (an i declared outside the loop is then set to its final
 * value). The C reference is never unrolled: the driver runs this pass for the
 * GPU backends only. */
#include "passes.h"

#include <limits.h>

#include "analysis.h"
#include "build.h"
#include "params.h"

typedef struct Unroll {
    Arena *a;
    const LoopInfo *li;
    Build b;    /* nodes at the loop's location */
} Unroll;

static Type *int_type(void)
{
    return type_scalar(TY_INT);
}

static bool is_int(const Type *t)
{
    return t && t->kind == TY_INT;
}

static bool is_var(const Node *n, const Symbol *s)
{
    return n && n->kind == AST_VAR && n->u.var.sym == s;
}

/* The constant v as a value of the loop variable's type. */
static Node *var_const(Unroll *u, long long v)
{
    Type *t = u->li->var->type;
    Node *n = b_int(&u->b, v);
    if (t->kind == TY_UINT) {
        n->type = t;
        return n;
    }
    return is_int(t) ? n : ast_build_cast(u->a, t, n, u->b.loc);
}

/* i + d as a value of the loop variable's type. */
static Node *var_plus(Unroll *u, long long d)
{
    Node *v = b_var(&u->b, u->li->var);
    if (d == 0)
        return v;
    Node *sum = b_bin(&u->b, d > 0 ? '+' : '-', v, b_int(&u->b, d > 0 ? d : -d));
    Type *t = u->li->var->type;
    return is_int(t) || t->kind == TY_UINT ? sum : ast_build_cast(u->a, t, sum, u->b.loc);
}

/* ---- substitution of the loop variable ---------------------------------------- */

typedef struct Subst {
    Unroll *u;
    bool constant;   /* i is replaced by `value` (full unrolling) */
    long long value; /* ... or by i + value */
} Subst;

static Node *replacement(Subst *s)
{
    return s->constant ? var_const(s->u, s->value) : var_plus(s->u, s->value);
}

/* `x + i` / `x - i` over ints folds the constant into the sum: x + i + d,
 * x - 2 (rather than x + (i + d), x + -2). */
static Node *fold(Subst *s, Node *n)
{
    const Build b = build_at(s->u->a, n->loc);
    int op = n->u.binary.op;
    Node *x = n->u.binary.lhs;
    long long d = op == '+' ? s->value : -s->value;
    Node *base = s->constant ? x : b_ibin(&b, op, x, b_var(&b, s->u->li->var));
    return b_offset(&b, base, d);
}

/* `i + C` / `i - C` over ints: one constant, i + (d + C) (or d + C alone). */
static Node *fold_const(Subst *s, Node *n, long long c)
{
    const Build b = build_at(s->u->a, n->loc);
    long long d = s->value + (n->u.binary.op == '+' ? c : -c);
    if (s->constant)
        return b_int(&b, d);
    return b_offset(&b, b_var(&b, s->u->li->var), d);
}

static void subst(Subst *s, Node **slot)
{
    Node *n = *slot;
    if (!n)
        return;
    const Symbol *var = s->u->li->var;
    long long c;
    if (n->kind == AST_VAR && n->u.var.sym == var) {
        *slot = replacement(s);
        return;
    }
    if (n->kind == AST_BINARY && (n->u.binary.op == '+' || n->u.binary.op == '-') && is_int(n->type) &&
        is_int(var->type) && is_var(n->u.binary.lhs, var) && is_int(n->u.binary.rhs->type) &&
        ast_const_int(n->u.binary.rhs, &c) && c > -(1LL << 30) && c < (1LL << 30)) {
        *slot = fold_const(s, n, c);
        return;
    }
    if (n->kind == AST_BINARY && (n->u.binary.op == '+' || n->u.binary.op == '-') && is_int(n->type) &&
        is_int(var->type) && is_int(n->u.binary.lhs->type) && is_var(n->u.binary.rhs, var)) {
        subst(s, &n->u.binary.lhs);
        *slot = fold(s, n);
        return;
    }
    if (n->kind == AST_BLOCK || n->kind == AST_DECL_LIST) {
        for (int i = 0; i < n->u.block.stmts.len; i++)
            subst(s, &n->u.block.stmts.items[i]);
        return;
    }
    if (n->kind == AST_CALL) {
        for (int i = 0; i < n->u.call.args.len; i++)
            subst(s, &n->u.call.args.items[i]);
        return;
    }
    Node **slots[8];
    int k = ast_children(n, slots, 8);
    for (int i = 0; i < k; i++)
        subst(s, slots[i]);
}

/* A copy of the body with i replaced, as a block of its own (its declarations
 * must not clash with those of the other copies). */
static Node *body_copy(Unroll *u, bool constant, long long value)
{
    Node *body = ast_copy(u->a, u->li->loop->u.loop.body);
    Subst s = {u, constant, value};
    if (constant || value != 0)
        subst(&s, &body);
    if (body->kind != AST_BLOCK) {
        Node *b = ast_build_block(u->a, body->loc);
        ast_append_stmt(u->a, b, body);
        body = b;
    }
    ast_fix_parents(body);
    return body;
}

/* ---- the unrolled forms ----------------------------------------------------------- */

/* The statement that sets i before the loops (the declaration of the init), or NULL
 * when the init is an assignment (it stays in the main loop's init). */
static Node *take_decl(Unroll *u)
{
    Node *init = u->li->loop->u.loop.init;
    if (!u->li->declared)
        return NULL;
    Node *d = init->u.block.stmts.items[0];
    d->parent = NULL;
    return d;
}

/* The main loop's condition: i, i + c, ..., i + k (k = (F-1)*|c|) all pass the
 * original test. In the type the test compares in:
 *   int:  i + k < b going up, i > b + k going down (b +- k folded when constant;
 *         a b within k of int's limits would overflow, as the original loop's
 *         own i += c nearly would);
 *   uint: the same with a constant b where it cannot wrap, otherwise
 *         i < b && b - i > k going up, i > b && i - b > k going down,
 *         so that no unsigned value ever wraps around. */
static Node *main_cond(Unroll *u, long long k)
{
    const LoopInfo *li = u->li;
    const Build *nb = &u->b;
    bool up = li->op == '<' || li->op == OP_LE;
    int op = li->op;
    Type *cmp = type_common(li->var->type, li->bound->type ? li->bound->type : int_type());
    long long b;
    bool known = ast_const_int(li->bound, &b);
    Node *c;
    if (cmp->kind != TY_UINT) {
        if (known)
            c = b_bin(nb, op, b_var(nb, li->var), b_int(nb, up ? b - k : b + k));
        else if (up)
            c = b_bin(nb, op, b_bin(nb, '+', b_var(nb, li->var), b_int(nb, k)), ast_copy(u->a, li->bound));
        else
            c = b_bin(nb, op, b_var(nb, li->var), b_bin(nb, '+', ast_copy(u->a, li->bound), b_int(nb, k)));
    } else {
        long long bu = known ? (long long)(unsigned)b : 0;
        if (known && up && bu >= k) {
            c = b_bin(nb, op, b_var(nb, li->var), b_uint(nb, bu - k));
        } else if (known && !up && bu + k <= (long long)UINT_MAX) {
            c = b_bin(nb, op, b_var(nb, li->var), b_uint(nb, bu + k));
        } else {
            /* i OP b && (up ? b - i : i - b) OP' k, OP' being > for < and >= for <= */
            Node *first = b_bin(nb, op, b_var(nb, li->var), ast_copy(u->a, li->bound));
            Node *gap = up ? b_bin(nb, '-', ast_copy(u->a, li->bound), b_var(nb, li->var))
                           : b_bin(nb, '-', b_var(nb, li->var), ast_copy(u->a, li->bound));
            int strict = op == '<' || op == '>';
            Node *room = b_bin(nb, strict ? '>' : OP_GE, gap, b_uint(nb, k));
            first->type = room->type = int_type();
            c = b_bin(nb, OP_AND, first, room);
        }
    }
    c->type = int_type();
    return c;
}

/* i += F*c (or i -= F*|c|). */
static Node *main_step(Unroll *u, int factor)
{
    long long s = u->li->step * factor;
    return b_assign(&u->b, s > 0 ? '+' : '-', b_var(&u->b, u->li->var), b_int(&u->b, s > 0 ? s : -s));
}

/* No loop left: the body once per value of i, and i's final value when it lives on. */
static Node *unroll_fully(Unroll *u)
{
    const LoopInfo *li = u->li;
    Arena *a = u->a;
    Node *block = ast_build_block(a, u->b.loc);
    const char *text = li->trip == 0
        ? arena_printf(a, "loop of line %d runs no iteration: removed", li->line)
        : arena_printf(a, "loop of line %d unrolled fully (%lld iteration%s)", li->line, li->trip,
                       li->trip == 1 ? "" : "s");
    ast_append_stmt(a, block, ast_build_comment(a, text, u->b.loc));
    for (long long j = 0; j < li->trip; j++)
        ast_append_stmt(a, block, body_copy(u, true, li->first + j * li->step));
    if (!li->declared) {
        Node *set = b_assign(&u->b, '=', b_var(&u->b, li->var), var_const(u, li->first + li->trip * li->step));
        ast_append_stmt(a, block, ast_build_expr_stmt(a, set, u->b.loc));
    }
    return block;
}

static Node *unroll_partly(Unroll *u, int factor)
{
    const LoopInfo *li = u->li;
    Arena *a = u->a;
    Node *loop = li->loop;
    bool remainder = !li->trip_known || li->trip % factor != 0;
    Node *block = ast_build_block(a, u->b.loc);
    const char *text = remainder
        ? arena_printf(a, "loop of line %d unrolled %d times; the second loop runs what is left", li->line, factor)
        : arena_printf(a, "loop of line %d unrolled %d times (%lld iterations, no remainder)", li->line, factor,
                       li->trip);
    ast_append_stmt(a, block, ast_build_comment(a, text, u->b.loc));
    Node *decl = take_decl(u);
    if (decl)
        ast_append_stmt(a, block, decl);
    Node *init = decl ? NULL : loop->u.loop.init;
    long long k = (long long)(factor - 1) * (li->step > 0 ? li->step : -li->step);
    /* Without a remainder the original condition is exact. */
    Node *cond = remainder ? main_cond(u, k) : loop->u.loop.cond;
    Node *body = ast_build_block(a, u->b.loc);
    for (int j = 0; j < factor; j++)
        ast_append_stmt(a, body, body_copy(u, false, j * li->step));
    ast_append_stmt(a, block, ast_build_for(a, init, cond, main_step(u, factor), body, u->b.loc));
    if (remainder)
        ast_append_stmt(a, block, b_for(&u->b, NULL, loop->u.loop.cond, loop->u.loop.step, loop->u.loop.body));
    return block;
}

/* The loops of `body` (k's body, or one side of pass_interior's split). */
static int unroll_body(const PassCtx *c, Function *k, Node *body)
{
    Arena *a = c->a;
    const TuneParams *tp = c->tp;
    Diag *diag = c->diag;
    Function part = *k;
    part.body = body;
    LoopTable t = analyze_loops(a, &part);
    int errors = 0;
    /* Pre-order reversed: inner loops first, so that an outer loop copies its
     * inner loops already unrolled. */
    for (int i = t.n - 1; i >= 0; i--) {
        const LoopInfo *li = &t.items[i];
        int factor = params_unroll_factor(tp, li);
        if (factor <= 1)
            continue;
        if (!li->unrollable) {
            /* params_for_kernel refuses these; a lowering that broke a loop's form would land here */
            diag_error(diag, li->loop->loc, "loop on line %d cannot be unrolled (%s)", li->line, li->why);
            errors++;
            continue;
        }
        Unroll u = {a, li, build_at(a, li->loop->loc)};
        Node *loop = li->loop;
        Node *r = li->trip_known && factor >= li->trip ? unroll_fully(&u) : unroll_partly(&u, factor);
        ast_replace(loop, r);
    }
    return errors;
}

int pass_unroll(const PassCtx *c, Function *k)
{
    /* Each side of the interior split holds the same loops on the same lines:
     * they are unrolled alike, one side at a time. */
    Node *split = pass_interior_split(k);
    int errors = split ? unroll_body(c, k, split->u.if_.then) + unroll_body(c, k, split->u.if_.els)
                       : unroll_body(c, k, ast_point_body(k));
    ast_fix_parents(k->body);
    return errors;
}
