/* Invariant checks run after every pass in debug builds: a broken tree is an
 * internal error, found where it was made rather than in the generated code. */
#include "ast.h"

typedef struct VerifyCtx {
    bool lowered;
    const char *pass;
} VerifyCtx;

static void fail(const VerifyCtx *c, const Node *n, const char *what)
{
    fprintf(stderr, "imcl: internal error after %s: %s (%s node at %d:%d)\n", c->pass, what,
            ast_kind_name(n->kind), n->loc.line, n->loc.col);
    UNREACHABLE();
}

static bool check(Node *n, void *p)
{
    const VerifyCtx *c = p;
    if (n->kind >= AST_KIND_COUNT)
        fail(c, n, "unknown node kind");
    /* Every child points back at its parent. */
    if (n->kind == AST_BLOCK || n->kind == AST_DECL_LIST) {
        for (int i = 0; i < n->u.block.stmts.len; i++)
            if (n->u.block.stmts.items[i]->parent != n)
                fail(c, n->u.block.stmts.items[i], "statement with a wrong parent link");
    } else if (n->kind == AST_CALL) {
        for (int i = 0; i < n->u.call.args.len; i++)
            if (n->u.call.args.items[i]->parent != n)
                fail(c, n->u.call.args.items[i], "argument with a wrong parent link");
    } else {
        Node **slots[8];
        int k = ast_children(n, slots, 8);
        for (int i = 0; i < k; i++)
            if ((*slots[i])->parent != n)
                fail(c, *slots[i], "child with a wrong parent link");
    }
    if (n->kind < AST_BLOCK && n->kind != AST_CALL && !n->type)
        fail(c, n, "expression without a type");
    if (c->lowered && n->kind == AST_GRID_ACCESS)
        fail(c, n, "grid access left after lowering");
    if (c->lowered && n->kind == AST_DECL && n->u.decl.sym->kind == SYM_ALIAS)
        fail(c, n, "alias declaration left after lowering");
    return true;
}

void verify_function(const Function *f, const char *after_pass, bool lowered)
{
    VerifyCtx c = {lowered, after_pass};
    if (!f->body || f->body->kind != AST_BLOCK)
        UNREACHABLE();
    ast_walk(f->body, check, &c);
}
