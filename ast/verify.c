/* The tree check, run after sema and after every pass in every build: a broken tree
 * is an internal error, reported where it was made rather than found in the
 * generated code.
 *
 * What holds: every child points back at its parent; every expression has a type;
 * after the lowering no grid access or alias declaration is left; every name of a
 * local, alias or parameter is declared in a scope that encloses it, before it (a
 * parameter of the kernel is always in scope, as are the C reference's row pointers,
 * which its printer declares); every goto has its label. A point loop's parts are
 * checked in the order a thread runs them: the prologue's declarations are in scope
 * in everything after it, the point prologue's in the body and the point epilogue. */
#include "ast.h"

#include <string.h>

typedef struct VerifyCtx {
    Diag *d;
    const Function *f;
    const char *pass;
    bool lowered;
    const Symbol **in;      /* the declarations in scope, innermost last */
    int n, cap;
    NodeList gotos, labels;
    bool failed;
} VerifyCtx;

static void fail(VerifyCtx *c, const Node *n, const char *fmt, const char *what)
{
    if (c->failed)
        return;             /* the first break is the one to report */
    c->failed = true;
    char *message = arena_printf(c->d->arena, fmt, what);
    diag_internal(c->d, n->loc, "after pass %s, kernel '%s': %s (%s node)", c->pass, c->f->name, message,
                  ast_kind_name(n->kind));
}

static void declare(VerifyCtx *c, const Symbol *s)
{
    ARENA_GROW(c->d->arena, c->in, c->n, c->cap);
    c->in[c->n++] = s;
}

static void check_name(VerifyCtx *c, const Node *n, const Symbol *s)
{
    if (s->kind == SYM_FUNC)
        return;
    if (s->kind == SYM_PARAM) {
        for (int i = 0; i < c->f->nparams; i++)
            if (c->f->params[i] == s)
                return;
    }
    for (int i = c->n - 1; i >= 0; i--)
        if (c->in[i] == s)
            return;
    fail(c, n, "'%s' is used where no declaration of it is in scope", s->name);
}

static void visit(VerifyCtx *c, Node *n);
static void visit_points(VerifyCtx *c, Node *n);

static void visit_children(VerifyCtx *c, Node *n)
{
    if (n->kind == AST_BLOCK || n->kind == AST_DECL_LIST) {
        for (int i = 0; i < n->u.block.stmts.len; i++) {
            Node *s = n->u.block.stmts.items[i];
            if (s->parent != n)
                fail(c, s, "%s", "a statement with a wrong parent link");
            visit(c, s);
        }
    } else if (n->kind == AST_CALL) {
        for (int i = 0; i < n->u.call.args.len; i++) {
            Node *arg = n->u.call.args.items[i];
            if (arg->parent != n)
                fail(c, arg, "%s", "an argument with a wrong parent link");
            visit(c, arg);
        }
    } else {
        Node **slots[8];
        int k = ast_children(n, slots, 8);
        for (int i = 0; i < k; i++) {
            if ((*slots[i])->parent != n)
                fail(c, *slots[i], "%s", "a child with a wrong parent link");
            visit(c, *slots[i]);
        }
    }
}

static void visit(VerifyCtx *c, Node *n)
{
    if (n->kind >= AST_KIND_COUNT) {
        fail(c, n, "%s", "a node of unknown kind");
        return;
    }
    if (n->kind < AST_BLOCK && n->kind != AST_CALL && !n->type)
        fail(c, n, "%s", "an expression without a type");
    int mark = c->n;
    switch (n->kind) {
    case AST_VAR:
        check_name(c, n, n->u.var.sym);
        break;
    case AST_GRID_ACCESS:
        if (c->lowered)
            fail(c, n, "a grid access of '%s' left after the lowering", n->u.access.sym->name);
        check_name(c, n, n->u.access.sym);
        break;
    case AST_BUF_ACCESS:
        check_name(c, n, n->u.access.sym);
        break;
    case AST_EXTENT:
        check_name(c, n, n->u.extent.sym);
        break;
    case AST_DECL: {
        /* the initial value (an alias's offset) is read before the name exists */
        Symbol *s = n->u.decl.sym;
        if (s->kind == SYM_ALIAS && c->lowered)
            fail(c, n, "the declaration of alias '%s' left after the lowering", s->name);
        if (s->kind == SYM_ALIAS && s->alias_offset)
            visit(c, s->alias_offset);
        visit_children(c, n);
        declare(c, s);
        return;
    }
    case AST_GOTO:
        nodelist_push(c->d->arena, &c->gotos, n);
        break;
    case AST_LABEL:
        nodelist_push(c->d->arena, &c->labels, n);
        break;
    case AST_POINTS:
        if (n != ast_points(c->f))
            fail(c, n, "%s", "a point loop that is not the only statement of the kernel's body");
        visit_points(c, n);
        c->n = mark;
        return;
    default:
        break;
    }
    visit_children(c, n);
    /* a block and a for loop end the scope of what they declare; a declaration
     * list is a part of the enclosing scope */
    if (n->kind == AST_BLOCK || n->kind == AST_FOR)
        c->n = mark;
}

/* A part of a point loop whose top-level declarations stay in scope after it. */
static void visit_part(VerifyCtx *c, Node *points, Node *part)
{
    if (part->parent != points)
        fail(c, part, "%s", "a part of the point loop with a wrong parent link");
    if (part->kind != AST_BLOCK)
        fail(c, part, "%s", "a part of the point loop that is not a block");
    visit_children(c, part);
}

static void visit_points(VerifyCtx *c, Node *n)
{
    visit_part(c, n, n->u.points.prologue);
    visit_part(c, n, n->u.points.point_prologue);
    int mark = c->n;
    if (n->u.points.body->parent != n)
        fail(c, n->u.points.body, "%s", "a child with a wrong parent link");
    visit(c, n->u.points.body);
    c->n = mark;
    visit_part(c, n, n->u.points.point_epilogue);
}

bool verify_function(Diag *d, const Function *f, const char *after_pass, bool lowered)
{
    VerifyCtx c = {d, f, after_pass, lowered, NULL, 0, 0, {0}, {0}, false};
    if (!f->body || f->body->kind != AST_BLOCK) {
        diag_internal(d, f->loc, "after pass %s, kernel '%s': the body is not a block", after_pass, f->name);
        return false;
    }
    for (int i = 0; i < f->nrows; i++)
        declare(&c, f->rows[i].sym);
    visit(&c, f->body);
    for (int i = 0; i < c.gotos.len; i++) {
        bool found = false;
        for (int j = 0; j < c.labels.len && !found; j++)
            found = strcmp(c.gotos.items[i]->u.comment.text, c.labels.items[j]->u.comment.text) == 0;
        if (!found)
            fail(&c, c.gotos.items[i], "a goto to label '%s', which the kernel does not have",
                 c.gotos.items[i]->u.comment.text);
    }
    return !c.failed;
}
