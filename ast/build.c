/* The node builder of the passes (build.h): typed nodes at one location. */
#include "build.h"

Build build_at(Arena *a, Loc loc)
{
    return (Build){a, loc};
}

Build build_none(Arena *a)
{
    return (Build){a, (Loc){0}};
}

Node *b_int(const Build *b, long long v)
{
    return ast_build_int(b->a, v, b->loc);
}

Node *b_uint(const Build *b, long long v)
{
    Node *n = ast_build_int(b->a, v, b->loc);
    n->type = type_scalar(TY_UINT);
    return n;
}

Node *b_var(const Build *b, Symbol *s)
{
    return ast_build_var_ref(b->a, s, b->loc);
}

Node *b_builtin(const Build *b, Builtin which)
{
    return ast_build_builtin(b->a, which, b->loc);
}

Node *b_bin(const Build *b, int op, Node *l, Node *r)
{
    return ast_build_binary(b->a, op, l, r, b->loc);
}

Node *b_ibin(const Build *b, int op, Node *l, Node *r)
{
    Node *n = ast_build_binary(b->a, op, l, r, b->loc);
    n->type = type_scalar(TY_INT);
    return n;
}

Node *b_iunary(const Build *b, int op, Node *operand)
{
    Node *n = ast_build_unary(b->a, op, operand, b->loc);
    n->type = type_scalar(TY_INT);
    return n;
}

Node *b_offset(const Build *b, Node *e, long long off)
{
    return off ? b_ibin(b, off < 0 ? '-' : '+', e, b_int(b, off < 0 ? -off : off)) : e;
}

Node *b_unary(const Build *b, int op, Node *operand)
{
    return ast_build_unary(b->a, op, operand, b->loc);
}

Node *b_assign(const Build *b, int op, Node *lhs, Node *rhs)
{
    return ast_build_assign(b->a, op, lhs, rhs, b->loc);
}

Node *b_cond(const Build *b, Node *c, Node *t, Node *e)
{
    return ast_build_cond(b->a, c, t, e, b->loc);
}

Node *b_call(const Build *b, const char *name)
{
    return ast_build_call(b->a, name, b->loc);
}

Node *b_grid(const Build *b, Symbol *s, Node **ix, int n)
{
    return ast_build_grid_access(b->a, s, ix, n, b->loc);
}

Node *b_index(const Build *b, Node *base, Node *index)
{
    return ast_build_index(b->a, base, index, b->loc);
}

Node *b_block(const Build *b)
{
    return ast_build_block(b->a, b->loc);
}

Node *b_decl(const Build *b, Symbol *s, Node *init)
{
    return ast_build_decl(b->a, s, init, b->loc);
}

Node *b_expr_stmt(const Build *b, Node *e)
{
    return ast_build_expr_stmt(b->a, e, b->loc);
}

Node *b_if(const Build *b, Node *c, Node *t, Node *e)
{
    return ast_build_if(b->a, c, t, e, b->loc);
}

Node *b_comment(const Build *b, const char *text)
{
    return ast_build_comment(b->a, text, b->loc);
}

Symbol *b_symbol(const Build *b, const char *name, SymKind kind, Type *type)
{
    return ast_build_symbol(b->a, name, kind, type, b->loc);
}

Node *b_for(const Build *b, Node *init, Node *c, Node *step, Node *body)
{
    return ast_build_for(b->a, init, c, step, body, b->loc);
}

Node *b_return(const Build *b, Node *value)
{
    return ast_build_return(b->a, value, b->loc);
}

Node *b_label(const Build *b, const char *label)
{
    return ast_build_label(b->a, label, b->loc);
}

Node *b_extent(const Build *b, Symbol *s, int dim)
{
    return ast_build_extent(b->a, s, dim, b->loc);
}

Node *b_float(const Build *b, double v, const char *text, Type *type)
{
    return ast_build_float(b->a, v, text, type, b->loc);
}

Node *b_node(const Build *b, NodeKind kind)
{
    return ast_new(b->a, kind, b->loc);
}
