/* User helper functions, emitted into every kernel file that calls them. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

typedef struct Reach {
    const Program *prog;
    bool *reached;
} Reach;

static bool reach_calls(Node *n, void *p)
{
    Reach *r = p;
    if (n->kind == AST_CALL && n->u.call.fn) {
        for (int i = 0; i < r->prog->nfuncs; i++) {
            if (r->prog->funcs[i] == n->u.call.fn->func && !r->reached[i]) {
                r->reached[i] = true;
                ast_walk(r->prog->funcs[i]->body, reach_calls, r);
            }
        }
    }
    return true;
}

void emit_helpers(Unparser *u, const Program *prog, const Function *k)
{
    bool *reached = calloc((size_t)prog->nfuncs + 1, sizeof *reached);
    if (!reached)
        return;
    Reach r = {prog, reached};
    ast_walk(k->body, reach_calls, &r);
    bool any = false;
    /* Prototypes first: helpers may call each other in any order. */
    for (int i = 0; i < prog->nfuncs; i++) {
        if (!reached[i])
            continue;
        if (!any)
            sb_puts(u->out, "/* Helper functions of the source file. */\n");
        any = true;
        unparse_function_head(u, prog->funcs[i]);
        sb_puts(u->out, ";\n");
    }
    if (any)
        sb_putc(u->out, '\n');
    for (int i = 0; i < prog->nfuncs; i++) {
        if (!reached[i])
            continue;
        unparse_function_head(u, prog->funcs[i]);
        sb_puts(u->out, "\n{\n");
        int saved = u->indent;
        u->indent = 1;
        unparse_stmts(u, prog->funcs[i]->body);
        u->indent = saved;
        sb_puts(u->out, "}\n\n");
    }
    free(reached);
}
