/* Liveness: the scalar variables (locals and scalar parameters) whose current value
 * may still be read, before and after every statement of a function, by backward
 * dataflow. The structured body becomes a small control-flow graph (one node per
 * expression statement, declaration, condition and loop step; break, continue and
 * return jump to their targets), solved with a worklist to the least fixed point;
 * expressions are walked backwards in C's evaluation order, `&&`, `||` and `?:`
 * joining both ways. Arrays (fixed-size, Images, Blocks and their aliases) are not
 * scalars: their elements are memory, never tracked. A helper call reads its
 * arguments and nothing else of the caller (helpers take scalars by value). */
#include "analysis.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long Word;

/* ---- a map from pointers to small integers (open addressing) -------------------- */

typedef struct PtrMap {
    const void **keys;
    int *vals;
    int cap; /* a power of two */
    int n;
} PtrMap;

static unsigned ptr_hash(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0x9e3779b97f4a7c15ull & UINTPTR_MAX;
    x ^= x >> 29;
    return (unsigned)x;
}

static void map_init(Arena *a, PtrMap *m, int expected)
{
    m->cap = 16;
    while (m->cap < 2 * expected + 2)
        m->cap *= 2;
    m->keys = arena_alloc(a, sizeof *m->keys * (size_t)m->cap);
    m->vals = arena_alloc(a, sizeof *m->vals * (size_t)m->cap);
    m->n = 0;
}

static int map_get(const PtrMap *m, const void *key)
{
    if (!m->cap)
        return -1;
    unsigned i = ptr_hash(key) & (unsigned)(m->cap - 1);
    while (m->keys[i]) {
        if (m->keys[i] == key)
            return m->vals[i];
        i = (i + 1) & (unsigned)(m->cap - 1);
    }
    return -1;
}

static void map_put(Arena *a, PtrMap *m, const void *key, int val)
{
    if (2 * (m->n + 1) > m->cap) {
        PtrMap bigger;
        map_init(a, &bigger, m->n + 1);
        for (int i = 0; i < m->cap; i++)
            if (m->keys[i])
                map_put(a, &bigger, m->keys[i], m->vals[i]);
        *m = bigger;
    }
    unsigned i = ptr_hash(key) & (unsigned)(m->cap - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (unsigned)(m->cap - 1);
    if (!m->keys[i]) {
        m->keys[i] = key;
        m->n++;
    }
    m->vals[i] = val;
}

/* ---- the tracked variables ---------------------------------------------------------- */

struct LiveVars {
    PtrMap index; /* Symbol * -> position in Liveness.vars */
};

static bool trackable(const Symbol *s)
{
    return s && (s->kind == SYM_LOCAL || s->kind == SYM_PARAM) && s->type && type_is_scalar(s->type);
}

static void track(Arena *a, Liveness *lv, Symbol *s)
{
    if (!trackable(s) || map_get(&lv->vars_map->index, s) >= 0)
        return;
    ARENA_GROW(a, lv->vars, lv->nvars, lv->capvars);
    map_put(a, &lv->vars_map->index, s, lv->nvars);
    lv->vars[lv->nvars++] = s;
}

typedef struct Collect {
    Arena *a;
    Liveness *lv;
} Collect;

static bool collect_visit(Node *n, void *p)
{
    Collect *c = p;
    if (n->kind == AST_DECL)
        track(c->a, c->lv, n->u.decl.sym);
    else if (n->kind == AST_VAR)
        track(c->a, c->lv, n->u.var.sym);
    return true;
}

int liveness_var(const Liveness *lv, const Symbol *s)
{
    return map_get(&lv->vars_map->index, s);
}

bool liveness_has(const Liveness *lv, LiveSet set, const Symbol *s)
{
    int i = liveness_var(lv, s);
    return i >= 0 && set && (set[i / 64] >> (i % 64) & 1);
}

bool liveness_has_index(LiveSet set, int i)
{
    return set && (set[i / 64] >> (i % 64) & 1);
}

int liveness_regs(const Liveness *lv, LiveSet set)
{
    int n = 0;
    for (int i = 0; set && i < lv->nvars; i++)
        if (set[i / 64] >> (i % 64) & 1)
            n += type_size(lv->vars[i]->type) > 4 ? 2 : 1;
    return n;
}

/* ---- sets ----------------------------------------------------------------------- */

typedef struct Solver {
    Arena *a;
    Liveness *lv;
    int words;
} Solver;

static Word *set_new(Solver *s)
{
    return arena_alloc(s->a, sizeof(Word) * (size_t)s->words);
}

static void set_or(Solver *s, Word *into, const Word *from)
{
    for (int i = 0; i < s->words; i++)
        into[i] |= from[i];
}

static void set_bit(Solver *s, Word *set, const Symbol *sym, bool on)
{
    int i = liveness_var(s->lv, sym);
    if (i < 0)
        return;
    if (on)
        set[i / 64] |= 1ull << (i % 64);
    else
        set[i / 64] &= ~(1ull << (i % 64));
}

/* ---- expressions, backwards ------------------------------------------------------- */

/* `live` holds what is live after n is evaluated; on return, what is live before. */
static void live_expr(Solver *s, const Node *n, Word *live)
{
    if (!n)
        return;
    switch (n->kind) {
    case AST_VAR:
        set_bit(s, live, n->u.var.sym, true);
        return;
    case AST_ASSIGN: {
        const Node *lhs = n->u.binary.lhs;
        if (lhs->kind == AST_VAR) {
            /* The store comes after the right side: `=` kills the old value, a
             * compound assignment reads it. */
            set_bit(s, live, lhs->u.var.sym, n->u.binary.op != '=');
        } else {
            /* An element of an array: its subscripts are read. */
            live_expr(s, lhs, live);
        }
        live_expr(s, n->u.binary.rhs, live);
        return;
    }
    case AST_UNARY:
        /* ++/-- read and write their operand: live before as a read. */
        live_expr(s, n->u.unary.operand, live);
        return;
    case AST_BINARY:
        if (n->u.binary.op == ',') {
            live_expr(s, n->u.binary.rhs, live);
            live_expr(s, n->u.binary.lhs, live);
            return;
        }
        if (n->u.binary.op == OP_AND || n->u.binary.op == OP_OR) {
            /* The right side runs or not. */
            Word *t = malloc(sizeof(Word) * (size_t)s->words);
            if (!t)
                UNREACHABLE();
            memcpy(t, live, sizeof(Word) * (size_t)s->words);
            live_expr(s, n->u.binary.rhs, t);
            set_or(s, live, t);
            free(t);
            live_expr(s, n->u.binary.lhs, live);
            return;
        }
        live_expr(s, n->u.binary.rhs, live);
        live_expr(s, n->u.binary.lhs, live);
        return;
    case AST_COND: {
        Word *t = malloc(sizeof(Word) * (size_t)s->words);
        if (!t)
            UNREACHABLE();
        memcpy(t, live, sizeof(Word) * (size_t)s->words);
        live_expr(s, n->u.cond.then, t);
        live_expr(s, n->u.cond.els, live);
        set_or(s, live, t);
        free(t);
        live_expr(s, n->u.cond.cond, live);
        return;
    }
    default: {
        /* Operands in evaluation order (C leaves it unspecified; they only read). */
        Node **slots[8];
        if (n->kind == AST_CALL) {
            for (int i = n->u.call.args.len - 1; i >= 0; i--)
                live_expr(s, n->u.call.args.items[i], live);
            return;
        }
        int k = ast_children((Node *)n, slots, 8);
        for (int i = k - 1; i >= 0; i--)
            live_expr(s, *slots[i], live);
        return;
    }
    }
}

/* ---- the control-flow graph ------------------------------------------------------- */

enum { CN_EXIT, CN_EXPR, CN_DECL, CN_NOP, CN_ALL };

typedef struct CNode {
    int kind;
    const Node *n;        /* CN_EXPR: the expression (NULL: none); CN_DECL: the declaration */
    int succ[2], nsucc;
    int *pred, npred, cappred;
    Word *in;             /* live before the node */
} CNode;

typedef struct Builder {
    Solver *s;
    CNode *nodes;
    int n, cap;
    int brk, cont;        /* targets of break and continue; -1 outside loops */
    PtrMap stmt_index;    /* statement -> position in Liveness.stmts */
    struct StmtNodes { int entry, next, cond; } *sn; /* per statement (cond: -1 when none) */
    int capsn;
} Builder;

static int cn_new(Builder *b, int kind, const Node *n)
{
    ARENA_GROW(b->s->a, b->nodes, b->n, b->cap);
    CNode *c = &b->nodes[b->n];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->n = n;
    return b->n++;
}

static void cn_succ(Builder *b, int from, int to)
{
    CNode *c = &b->nodes[from];
    if (c->nsucc < 2 && (c->nsucc == 0 || c->succ[0] != to))
        c->succ[c->nsucc++] = to;
}

static void record(Builder *b, const Node *stmt, int entry, int next, int cond)
{
    Liveness *lv = b->s->lv;
    Arena *a = b->s->a;
    int i = lv->nstmts;
    ARENA_GROW(a, lv->stmts, lv->nstmts, lv->capstmts);
    ARENA_GROW(a, b->sn, i, b->capsn);
    memset(&lv->stmts[i], 0, sizeof lv->stmts[i]);
    lv->stmts[i].stmt = stmt;
    b->sn[i].entry = entry;
    b->sn[i].next = next;
    b->sn[i].cond = cond;
    map_put(a, &b->stmt_index, stmt, i);
    lv->nstmts++;
}

/* The CFG of statement n, continuing at node `next`; returns its entry node. */
static int build(Builder *b, const Node *n, int next)
{
    if (!n)
        return next;
    switch (n->kind) {
    case AST_BLOCK:
    case AST_DECL_LIST: {
        int e = next;
        for (int i = n->u.block.stmts.len - 1; i >= 0; i--)
            e = build(b, n->u.block.stmts.items[i], e);
        record(b, n, e, next, -1);
        return e;
    }
    case AST_DECL: {
        int id = cn_new(b, CN_DECL, n);
        cn_succ(b, id, next);
        record(b, n, id, next, -1);
        return id;
    }
    case AST_EXPR_STMT: {
        int id = cn_new(b, CN_EXPR, n->u.expr_stmt.expr);
        cn_succ(b, id, next);
        record(b, n, id, next, -1);
        return id;
    }
    case AST_IF: {
        int t = build(b, n->u.if_.then, next);
        int e = build(b, n->u.if_.els, next);
        int c = cn_new(b, CN_EXPR, n->u.if_.cond);
        cn_succ(b, c, t);
        cn_succ(b, c, e);
        record(b, n, c, next, c);
        return c;
    }
    case AST_WHILE:
    case AST_DO:
    case AST_FOR: {
        bool is_for = n->kind == AST_FOR;
        int c = cn_new(b, CN_EXPR, n->u.loop.cond);
        int step = is_for ? cn_new(b, CN_EXPR, n->u.loop.step) : c;
        if (is_for)
            cn_succ(b, step, c);
        int brk = b->brk, cont = b->cont;
        b->brk = next;
        b->cont = step;
        int body = build(b, n->u.loop.body, step);
        b->brk = brk;
        b->cont = cont;
        cn_succ(b, c, body);
        if (n->u.loop.cond || !is_for)
            cn_succ(b, c, next);
        int entry = n->kind == AST_DO ? body : is_for ? build(b, n->u.loop.init, c) : c;
        record(b, n, entry, next, c);
        return entry;
    }
    case AST_BREAK:
    case AST_CONTINUE: {
        int to = n->kind == AST_BREAK ? b->brk : b->cont;
        if (to < 0)
            to = next;
        int id = cn_new(b, CN_NOP, n);
        cn_succ(b, id, to);
        record(b, n, id, to, -1);
        return id;
    }
    case AST_RETURN: {
        int id = cn_new(b, CN_EXPR, n->u.ret.value);
        cn_succ(b, id, 0);
        record(b, n, id, 0, -1);
        return id;
    }
    case AST_GOTO: {
        /* Passes add jumps; where they go is not followed: everything is live. */
        int id = cn_new(b, CN_ALL, n);
        cn_succ(b, id, next);
        record(b, n, id, next, -1);
        return id;
    }
    default:
        record(b, n, next, next, -1);
        return next;
    }
}

/* ---- solving ---------------------------------------------------------------------- */

static void transfer(Solver *s, const CNode *c, const Word *out, Word *in)
{
    memcpy(in, out, sizeof(Word) * (size_t)s->words);
    switch (c->kind) {
    case CN_EXIT:
        memset(in, 0, sizeof(Word) * (size_t)s->words);
        break;
    case CN_EXPR:
        live_expr(s, c->n, in);
        break;
    case CN_DECL: {
        Symbol *sym = c->n->u.decl.sym;
        set_bit(s, in, sym, false);
        if (c->n->u.decl.init)
            live_expr(s, c->n->u.decl.init, in);
        else if (sym->kind == SYM_ALIAS)
            live_expr(s, sym->alias_offset, in); /* the offset is taken here */
        break;
    }
    case CN_ALL:
        for (int i = 0; i < s->lv->nvars; i++)
            in[i / 64] |= 1ull << (i % 64);
        break;
    default:
        break;
    }
}

static void solve(Builder *b)
{
    Solver *s = b->s;
    Arena *a = s->a;
    for (int i = 0; i < b->n; i++) {
        CNode *c = &b->nodes[i];
        c->in = set_new(s);
        for (int k = 0; k < c->nsucc; k++) {
            CNode *t = &b->nodes[c->succ[k]];
            ARENA_GROW(a, t->pred, t->npred, t->cappred);
            t->pred[t->npred++] = i;
        }
    }
    /* A FIFO worklist, first in node order: successors are mostly made before
     * their predecessors, so most nodes are final the first time round. */
    int qcap = b->n + 1;
    int *queue = malloc(sizeof(int) * (size_t)qcap);
    bool *queued = calloc((size_t)b->n + 1, sizeof(bool));
    Word *out = malloc(sizeof(Word) * (size_t)s->words);
    Word *in = malloc(sizeof(Word) * (size_t)s->words);
    if (!queue || !queued || !out || !in)
        UNREACHABLE();
    int head = 0, count = 0;
    for (int i = 0; i < b->n; i++) {
        queue[(head + count++) % qcap] = i;
        queued[i] = true;
    }
    while (count) {
        int i = queue[head];
        head = (head + 1) % qcap;
        count--;
        queued[i] = false;
        CNode *c = &b->nodes[i];
        memset(out, 0, sizeof(Word) * (size_t)s->words);
        for (int k = 0; k < c->nsucc; k++)
            set_or(s, out, b->nodes[c->succ[k]].in);
        transfer(s, c, out, in);
        if (memcmp(in, c->in, sizeof(Word) * (size_t)s->words) == 0)
            continue;
        memcpy(c->in, in, sizeof(Word) * (size_t)s->words);
        for (int k = 0; k < c->npred; k++)
            if (!queued[c->pred[k]]) {
                queue[(head + count++) % qcap] = c->pred[k];
                queued[c->pred[k]] = true;
            }
    }
    free(queue);
    free(queued);
    free(out);
    free(in);
}

Liveness *analyze_liveness(Arena *a, const Function *f)
{
    Liveness *lv = ARENA_NEW(a, Liveness);
    lv->f = f;
    lv->vars_map = ARENA_NEW(a, struct LiveVars);
    map_init(a, &lv->vars_map->index, f->nparams + f->nlocals);
    for (int i = 0; i < f->nparams; i++)
        track(a, lv, f->params[i]);
    Collect col = {a, lv};
    ast_walk(ast_point_body(f), collect_visit, &col);

    Solver s = {a, lv, lv->nvars / 64 + 1};
    lv->words = s.words;
    Builder b;
    memset(&b, 0, sizeof b);
    b.s = &s;
    b.brk = b.cont = -1;
    map_init(a, &b.stmt_index, 64);
    cn_new(&b, CN_EXIT, NULL);
    int entry = build(&b, ast_point_body(f), 0);
    solve(&b);

    for (int i = 0; i < lv->nstmts; i++) {
        LiveStmt *st = &lv->stmts[i];
        st->in = b.nodes[b.sn[i].entry].in;
        st->out = b.nodes[b.sn[i].next].in;
        if (b.sn[i].cond >= 0) {
            const CNode *c = &b.nodes[b.sn[i].cond];
            Word *w = set_new(&s);
            for (int k = 0; k < c->nsucc; k++)
                set_or(&s, w, b.nodes[c->succ[k]].in);
            st->after_cond = w;
        }
    }
    lv->entry = b.nodes[entry].in;
    lv->stmt_index = ARENA_NEW(a, struct LiveVars);
    lv->stmt_index->index = b.stmt_index;
    return lv;
}

const LiveStmt *liveness_stmt(const Liveness *lv, const Node *stmt)
{
    int i = map_get(&lv->stmt_index->index, stmt);
    return i < 0 ? NULL : &lv->stmts[i];
}
