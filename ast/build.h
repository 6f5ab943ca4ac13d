/* The node builder of the passes: a Build holds the arena and the location of the nodes it
 * makes, and every node it makes is typed (ast_build_* for the rest of the tree). */
#ifndef IMCL_BUILD_H
#define IMCL_BUILD_H

#include "ast.h"

typedef struct Build {
    Arena *a;
    Loc loc;    /* of every node it makes: the source construct a pass rewrites, or none */
} Build;

/* A builder at loc; build_none(a): nodes of no source location (code a pass adds). */
Build build_at(Arena *a, Loc loc);
Build build_none(Arena *a);

/* An int literal; the same typed unsigned int. */
Node *b_int(const Build *b, long long v);
Node *b_uint(const Build *b, long long v);
/* A reference to s (its type), a built-in (idx, W, the group's id, ...: int). */
Node *b_var(const Build *b, Symbol *s);
Node *b_builtin(const Build *b, Builtin which);
/* l op r with the type C gives it. */
Node *b_bin(const Build *b, int op, Node *l, Node *r);
/* l op r in index arithmetic: int, whatever the operands (coordinates, offsets,
 * extents and lane numbers are ints). */
Node *b_ibin(const Build *b, int op, Node *l, Node *r);
/* op operand in index arithmetic: int. */
Node *b_iunary(const Build *b, int op, Node *operand);
/* e + off, e - |off| (int), or e itself when off is 0. */
Node *b_offset(const Build *b, Node *e, long long off);

/* The rest of the tree at b's location, as ast_build_* makes it. */
Node *b_unary(const Build *b, int op, Node *operand);
Node *b_assign(const Build *b, int op, Node *lhs, Node *rhs);
Node *b_cond(const Build *b, Node *c, Node *t, Node *e);
Node *b_call(const Build *b, const char *name);    /* then ast_append_arg */
Node *b_grid(const Build *b, Symbol *s, Node **ix, int n);
Node *b_index(const Build *b, Node *base, Node *index);
Node *b_block(const Build *b);
Node *b_decl(const Build *b, Symbol *s, Node *init);
Node *b_expr_stmt(const Build *b, Node *e);
Node *b_if(const Build *b, Node *c, Node *t, Node *e);
Node *b_comment(const Build *b, const char *text);
Node *b_for(const Build *b, Node *init, Node *c, Node *step, Node *body);
Node *b_return(const Build *b, Node *value);
Node *b_label(const Build *b, const char *label);
Node *b_extent(const Build *b, Symbol *s, int dim);
Node *b_float(const Build *b, double v, const char *text, Type *type);
/* A node of a kind with no parts (AST_BARRIER, AST_CONTINUE, AST_BREAK). */
Node *b_node(const Build *b, NodeKind kind);
Symbol *b_symbol(const Build *b, const char *name, SymKind kind, Type *type);

#endif
