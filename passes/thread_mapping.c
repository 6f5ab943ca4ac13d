/* pass_thread_mapping: grid point coordinates from thread and block indices. */
#include "passes.h"

#include "params.h"

typedef struct Mapping {
    Arena *a;
    Symbol *coord[3];
    bool used[3];
} Mapping;

static bool find_uses(Node *n, void *p)
{
    Mapping *m = p;
    if (n->kind == AST_BUILTIN && n->u.builtin.which <= BI_IDZ)
        m->used[n->u.builtin.which] = true;
    return true;
}

static Node *replace(Node *n, void *p)
{
    Mapping *m = p;
    if (n->kind == AST_BUILTIN && n->u.builtin.which <= BI_IDZ)
        return ast_build_var_ref(m->a, m->coord[n->u.builtin.which], n->loc);
    return n;
}

void pass_thread_mapping(Arena *a, Function *k, const TuneParams *tp)
{
    static const char *names[] = {"idx", "idy", "idz"};
    Loc none = {0};
    Mapping m = {a, {0}, {false}};
    ast_walk(k->body, find_uses, &m);
    /* The guard below reads idx and idy (and idz in 3D) whatever the body uses. */
    m.used[0] = m.used[1] = true;
    if (k->grid_dims == 3)
        m.used[2] = true;
    Node *prologue = ast_build_block(a, none);
    ast_append_stmt(a, prologue, ast_build_comment(a, "the grid point of this thread", none));
    Node *guard = NULL;
    for (int d = 0; d < 3; d++) {
        if (!m.used[d])
            continue;
        m.coord[d] = ast_build_symbol(a, names[d], SYM_LOCAL, type_scalar(TY_INT), none);
        Node *init;
        if (d < k->grid_dims) {
            Node *group = ast_build_binary(a, '*', ast_build_builtin(a, (Builtin)(BI_GROUP_X + d), none),
                                           ast_build_int(a, tp->block[d], none), none);
            init = ast_build_binary(a, '+', group, ast_build_builtin(a, (Builtin)(BI_THREAD_X + d), none), none);
            Node *past = ast_build_binary(a, OP_GE, ast_build_var_ref(a, m.coord[d], none),
                                          ast_build_builtin(a, (Builtin)(BI_W + d), none), none);
            guard = guard ? ast_build_binary(a, OP_OR, guard, past, none) : past;
        } else {
            init = ast_build_int(a, 0, none);
        }
        Node *decl = ast_build_decl(a, m.coord[d], init, none);
        decl->u.decl.is_const = true;
        ast_append_stmt(a, prologue, decl);
    }
    ast_append_stmt(a, prologue, ast_build_comment(a, "threads past the edge of the grid have no point", none));
    ast_append_stmt(a, prologue, ast_build_if(a, guard, ast_build_return(a, NULL, none), NULL, none));
    ast_mutate(k->body, replace, &m);
    for (int i = prologue->u.block.stmts.len - 1; i >= 0; i--)
        ast_prepend_stmt(a, k->body, prologue->u.block.stmts.items[i]);
    ast_fix_parents(k->body);
}
