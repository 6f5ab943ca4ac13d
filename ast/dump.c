/* --emit-ast: a readable dump of a function's tree, one node per line. */
#include "ast.h"

static void line(FILE *out, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
}

static void dump(FILE *out, const Node *n, int depth)
{
    if (!n)
        return;
    line(out, depth);
    fprintf(out, "%s", ast_kind_name(n->kind));
    switch (n->kind) {
    case AST_INT_LIT: fprintf(out, " %lld", n->u.lit.ival); break;
    case AST_FLOAT_LIT: fprintf(out, " %s", n->u.lit.text ? n->u.lit.text : "?"); break;
    case AST_VAR: fprintf(out, " %s", n->u.var.sym->name); break;
    case AST_BUILTIN: fprintf(out, " %s", builtin_spelling(n->u.builtin.which)); break;
    case AST_EXTENT: fprintf(out, " %s.%s", n->u.extent.sym->name,
                             n->u.extent.dim == 0 ? "width" : n->u.extent.dim == 1 ? "height" : "depth"); break;
    case AST_GRID_ACCESS: case AST_BUF_ACCESS: fprintf(out, " %s", n->u.access.sym->name); break;
    case AST_UNARY: case AST_BINARY: fprintf(out, " '%s'", ast_op_spelling(n->kind == AST_UNARY ? n->u.unary.op : n->u.binary.op)); break;
    case AST_ASSIGN: fprintf(out, " '%s='", n->u.binary.op == '=' ? "" : ast_op_spelling(n->u.binary.op)); break;
    case AST_CALL: fprintf(out, " %s", n->u.call.name); break;
    case AST_DECL: fprintf(out, " %s %s", type_name(n->u.decl.sym->type), n->u.decl.sym->name); break;
    case AST_COMMENT: fprintf(out, " \"%s\"", n->u.comment.text); break;
    case AST_GOTO: case AST_LABEL: fprintf(out, " %s", n->u.comment.text); break;
    default: break;
    }
    if (n->type && n->kind < AST_BLOCK)
        fprintf(out, " : %s", type_name(n->type));
    if (n->loc.line)
        fprintf(out, "  @%d:%d", n->loc.line, n->loc.col);
    fputc('\n', out);
    if (n->kind == AST_BLOCK || n->kind == AST_DECL_LIST) {
        for (int i = 0; i < n->u.block.stmts.len; i++)
            dump(out, n->u.block.stmts.items[i], depth + 1);
        return;
    }
    if (n->kind == AST_CALL) {
        for (int i = 0; i < n->u.call.args.len; i++)
            dump(out, n->u.call.args.items[i], depth + 1);
        return;
    }
    if (n->kind == AST_POINTS) {
        static const char *parts[] = {
            "Prologue (once per thread, before its points)",
            "PointPrologue (at each point, before the edge test)",
            "Body (at each point of the grid)",
            "PointEpilogue (at each point, after the body)",
        };
        const Node *part[] = {n->u.points.prologue, n->u.points.point_prologue, n->u.points.body,
                              n->u.points.point_epilogue};
        for (int i = 0; i < 4; i++) {
            line(out, depth + 1);
            fprintf(out, "%s\n", parts[i]);
            dump(out, part[i], depth + 2);
        }
        return;
    }
    Node **slots[8];
    int k = ast_children((Node *)n, slots, 8);
    for (int i = 0; i < k; i++)
        dump(out, *slots[i], depth + 1);
}

void ast_dump_function(FILE *out, const Function *f)
{
    fprintf(out, "Function %s%s @%d:%d\n", f->name, f->is_kernel ? " (kernel)" : "", f->loc.line, f->loc.col);
    for (int i = 0; i < f->nparams; i++)
        fprintf(out, "  Param %s %s\n", type_name(f->params[i]->type), f->params[i]->name);
    dump(out, f->body, 1);
}
