/* Registers: the --liveness table and the register estimate of a configuration,
 * both from analyze_liveness (docs/tuning.md, "Registers"). */
#include "registers.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"

/* ---- peaks ------------------------------------------------------------------------ */

typedef struct Peaks {
    Arena *a;
    const Function **fn;   /* helpers whose peak is known */
    int *peak;
    int n, cap, capp;
} Peaks;

static int function_peak(Peaks *p, const Function *f, int *line);

typedef struct CallPeak {
    Peaks *p;
    const Node *root;
    int most;
} CallPeak;

/* The largest peak of a helper called in the expressions of statement cp->root (not
 * in the statements nested in it). */
static bool call_visit(Node *n, void *q)
{
    CallPeak *c = q;
    if (n != c->root && ast_is_stmt(n))
        return false;
    if (n->kind == AST_CALL && n->u.call.fn && n->u.call.fn->func) {
        int v = function_peak(c->p, n->u.call.fn->func, NULL);
        if (v > c->most)
            c->most = v;
    }
    return true;
}

/* The 32-bit registers live at the busiest point of f: the larger of the sets
 * before and after each statement, plus the peak of a helper called there. */
static int peak_of(Peaks *p, const Function *f, const Liveness *lv, int *line)
{
    int best = liveness_regs(lv, lv->entry);
    if (line)
        *line = f->loc.line;
    for (int i = 0; i < lv->nstmts; i++) {
        const LiveStmt *s = &lv->stmts[i];
        if (s->stmt->kind == AST_BLOCK || s->stmt->kind == AST_DECL_LIST)
            continue;
        int in = liveness_regs(lv, s->in), out = liveness_regs(lv, s->out);
        int v = in > out ? in : out;
        CallPeak c = {p, s->stmt, 0};
        ast_walk((Node *)s->stmt, call_visit, &c);
        if (c.most) {
            /* During a call: what is live both before and after the statement. */
            int across = 0;
            for (int k = 0; k < lv->nvars; k++)
                if (liveness_has_index(s->in, k) && liveness_has_index(s->out, k))
                    across += type_size(lv->vars[k]->type) > 4 ? 2 : 1;
            if (across + c.most > v)
                v = across + c.most;
        }
        if (v > best || (v == best && line && s->stmt->loc.line < *line)) {
            best = v;
            if (line)
                *line = s->stmt->loc.line;
        }
    }
    return best;
}

static int function_peak(Peaks *p, const Function *f, int *line)
{
    for (int i = 0; i < p->n; i++)
        if (p->fn[i] == f && !line)
            return p->peak[i];
    int v = peak_of(p, f, analyze_liveness(p->a, f), line);
    int cap = p->cap;
    ARENA_GROW(p->a, p->fn, p->n, p->cap);
    ARENA_GROW(p->a, p->peak, p->n, cap);
    p->fn[p->n] = f;
    p->peak[p->n++] = v;
    return v;
}

/* ---- unrolled copies ----------------------------------------------------------------- */

typedef struct Declared {
    const Liveness *lv;
    bool *in_body;
} Declared;

static bool declared_visit(Node *n, void *q)
{
    Declared *d = q;
    if (n->kind == AST_DECL) {
        int v = liveness_var(d->lv, n->u.decl.sym);
        if (v >= 0)
            d->in_body[v] = true;
    }
    return true;
}

/* The peak registers of the locals declared in loop's body, over its statements:
 * what each unrolled copy of the body holds of its own. */
static int body_locals_peak(Arena *a, const Liveness *lv, const Node *loop)
{
    Declared d = {lv, arena_alloc(a, sizeof(bool) * (size_t)(lv->nvars + 1))};
    ast_walk(loop->u.loop.body, declared_visit, &d);
    int best = 0;
    for (int i = 0; i < lv->nstmts; i++) {
        const Node *s = lv->stmts[i].stmt;
        const Node *up = s;
        while (up && up != loop->u.loop.body)
            up = up->parent;
        if (!up)
            continue;
        LiveSet sets[2] = {lv->stmts[i].in, lv->stmts[i].out};
        for (int k = 0; k < 2; k++) {
            int n = 0;
            for (int v = 0; v < lv->nvars; v++)
                if (d.in_body[v] && liveness_has_index(sets[k], v))
                    n += type_size(lv->vars[v]->type) > 4 ? 2 : 1;
            if (n > best)
                best = n;
        }
    }
    return best;
}

/* ---- the estimate -------------------------------------------------------------------- */

/* Registers that do not grow with the body: the point's coordinates and the thread's
 * base in each dimension, thread and block indices, 2 per array parameter (a 64-bit
 * address) and one per dimension of each shared-memory tile (its origin). */
static int index_regs(const Function *k)
{
    int dims = k->grid_dims ? k->grid_dims : 2;
    int n = 2 * dims + 4;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (type_is_grid(s->type) || s->type->kind == TY_ARRAY)
            n += 2;
        if (s->mem == MEM_SHARED && type_is_grid(s->type))
            n += type_grid_dims(s->type);
    }
    return n;
}

void registers_terms(Arena *a, Function *k, int *live, int *index, int **lines, int **extra, int *n)
{
    Peaks p = {a, NULL, NULL, 0, 0, 0};
    Liveness *lv = analyze_liveness(a, k);
    *live = peak_of(&p, k, lv, NULL);
    *index = index_regs(k);
    LoopTable loops = analyze_loops(a, k);
    *lines = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    *extra = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    *n = loops.n;
    for (int i = 0; i < loops.n; i++) {
        (*lines)[i] = loops.items[i].line;
        (*extra)[i] = loops.items[i].unrollable ? body_locals_peak(a, lv, loops.items[i].loop) : 0;
    }
}

RegEstimate registers_estimate(Arena *a, Function *k, const TuneParams *tp)
{
    RegEstimate e = {0};
    int *lines, *extra, n;
    registers_terms(a, k, &e.live, &e.index, &lines, &extra, &n);
    for (int i = 0; i < n; i++)
        for (int u = 0; u < tp->nunroll; u++)
            if (tp->unroll[u].line == lines[i] && tp->unroll[u].factor > 1)
                e.unrolled += (tp->unroll[u].factor - 1) * extra[i];
    e.points = tp->coarsen[0] * tp->coarsen[1] * tp->coarsen[2];
    e.total = e.index + e.points * (e.live + e.unrolled);
    return e;
}

/* ---- the table ----------------------------------------------------------------------- */

static bool same_file(const char *x, const char *y)
{
    return x && y && strcmp(x, y) == 0;
}

typedef struct Table {
    const Function *f;
    const Liveness *lv;
    LiveSet *at;        /* per line: what is live after it (NULL: no statement) */
    int nlines;
} Table;

static void put(Table *t, const Node *n, int line, LiveSet set)
{
    if (set && line > 0 && line < t->nlines && same_file(n->loc.file, t->f->loc.file))
        t->at[line] = set;
}

static bool is_loop_part(const Node *n)
{
    const Node *p = n->parent;
    return p && (p->kind == AST_FOR || p->kind == AST_WHILE || p->kind == AST_DO) &&
           (p->u.loop.init == n || p->u.loop.step == n);
}

/* The point after each line, in the order the lines read: a statement's end, a
 * condition's test (a do loop's at its `while`, after the body). */
static void fill(Table *t, const Node *n)
{
    if (!n)
        return;
    const LiveStmt *s = liveness_stmt(t->lv, n);
    switch (n->kind) {
    case AST_BLOCK:
    case AST_DECL_LIST:
        for (int i = 0; i < n->u.block.stmts.len; i++)
            fill(t, n->u.block.stmts.items[i]);
        return;
    case AST_IF:
        put(t, n, n->loc.line, s ? s->after_cond : NULL);
        fill(t, n->u.if_.then);
        fill(t, n->u.if_.els);
        return;
    case AST_FOR:
    case AST_WHILE:
        put(t, n, n->loc.line, s ? s->after_cond : NULL);
        fill(t, n->u.loop.body);
        return;
    case AST_DO:
        fill(t, n->u.loop.body);
        if (n->u.loop.cond)
            put(t, n->u.loop.cond, n->u.loop.cond->loc.line, s ? s->after_cond : NULL);
        return;
    case AST_DECL:
    case AST_EXPR_STMT:
    case AST_RETURN:
    case AST_BREAK:
    case AST_CONTINUE:
        if (!is_loop_part(n))
            put(t, n, n->loc.line, s ? s->out : NULL);
        return;
    default:
        return;
    }
}

static int max_line(const Node *n)
{
    int m = n->loc.line;
    Node **slots[8];
    if (n->kind == AST_BLOCK || n->kind == AST_DECL_LIST) {
        for (int i = 0; i < n->u.block.stmts.len; i++) {
            int v = max_line(n->u.block.stmts.items[i]);
            m = v > m ? v : m;
        }
        return m;
    }
    int k = ast_children((Node *)n, slots, 8);
    for (int i = 0; i < k; i++) {
        int v = max_line(*slots[i]);
        m = v > m ? v : m;
    }
    return m;
}

/* A variable's name, with the line of its declaration when another tracked variable
 * has the same name (shadowing). */
static void print_var(FILE *out, const Liveness *lv, int v)
{
    const Symbol *s = lv->vars[v];
    bool twin = false;
    for (int i = 0; i < lv->nvars; i++)
        twin |= i != v && strcmp(lv->vars[i]->name, s->name) == 0;
    if (twin)
        fprintf(out, " %s@%d", s->name, s->loc.line);
    else
        fprintf(out, " %s", s->name);
}

static void print_function(FILE *out, Arena *a, Peaks *p, const Function *f)
{
    const Liveness *lv = analyze_liveness(a, f);
    Table t = {f, lv, NULL, max_line(f->body) + 2};
    t.at = arena_alloc(a, sizeof(LiveSet) * (size_t)t.nlines);
    fill(&t, f->body);
    fprintf(out, "liveness of %s '%s' (scalars live after each line, [32-bit registers]):\n",
            f->is_kernel ? "kernel" : "helper", f->name);
    for (int line = 0; line < t.nlines; line++) {
        if (!t.at[line])
            continue;
        fprintf(out, "  line %d [%d]:", line, liveness_regs(lv, t.at[line]));
        int any = 0;
        for (int v = 0; v < lv->nvars; v++)
            if (liveness_has_index(t.at[line], v)) {
                print_var(out, lv, v);
                any++;
            }
        fputs(any ? "\n" : " (none)\n", out);
    }
    int line;
    int peak = function_peak(p, f, &line);
    fprintf(out, "  peak: %d register%s, at line %d\n", peak, peak == 1 ? "" : "s", line);
}

typedef struct Reach {
    const Program *prog;
    bool *reached;
} Reach;

static bool reach_visit(Node *n, void *q)
{
    Reach *r = q;
    if (n->kind == AST_CALL && n->u.call.fn && n->u.call.fn->func)
        for (int i = 0; i < r->prog->nfuncs; i++)
            if (r->prog->funcs[i] == n->u.call.fn->func && !r->reached[i]) {
                r->reached[i] = true;
                ast_walk(r->prog->funcs[i]->body, reach_visit, r);
            }
    return true;
}

void registers_print_liveness(FILE *out, Arena *a, const Program *prog, Function *k, const TuneParams *tp)
{
    Peaks p = {a, NULL, NULL, 0, 0, 0};
    print_function(out, a, &p, k);
    if (tp) {
        RegEstimate e = registers_estimate(a, k, tp);
        fprintf(out, "  registers per thread (estimate): %d = %d index + %d point%s x (%d live + %d unrolled)\n",
                e.total, e.index, e.points, e.points == 1 ? "" : "s", e.live, e.unrolled);
    }
    Reach r = {prog, arena_alloc(a, sizeof(bool) * (size_t)(prog->nfuncs + 1))};
    ast_walk(k->body, reach_visit, &r);
    for (int i = 0; i < prog->nfuncs; i++)
        if (r.reached[i])
            print_function(out, a, &p, prog->funcs[i]);
}
