/* consteval_eval: prints what imcl's constant evaluator (ast/consteval.c) makes of
 * each expression of a file, one per line, for tests/consteval/consteval.py.
 *
 *   consteval_eval EXPRS_FILE
 *
 * Each line EXPR is parsed (no sema) as the kernel
 *
 *   void k(Image<int> o)
 *   {
 *       o[idx][idy] = EXPR;
 *   }
 *
 * and const_eval of the right-hand side is printed as one line:
 *
 *   OK TYPE VALUE     TYPE char uchar short ushort int uint float double;
 *                     integers in %lld, float and double as a double in %a,
 *                     NaN as "nan" whatever its sign
 *   UNKNOWN
 *   UNDEFINED WHY
 *   PARSE_ERROR       the line did not parse to that assignment (diagnostics on stderr)
 *
 * Exit status 0 when every line was read, 2 on a usage or I/O error. */
#include "ast.h"
#include "frontend.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(TypeKind k)
{
    switch (k) {
    case TY_CHAR: return "char";
    case TY_UCHAR: return "uchar";
    case TY_SHORT: return "short";
    case TY_USHORT: return "ushort";
    case TY_INT: return "int";
    case TY_UINT: return "uint";
    case TY_FLOAT: return "float";
    case TY_DOUBLE: return "double";
    default: return NULL;
    }
}

/* The right-hand side of the kernel's one assignment, or NULL. */
static const Node *assigned_value(const Program *p)
{
    if (!p || p->nfuncs != 1 || !p->funcs[0]->body)
        return NULL;
    const Node *body = p->funcs[0]->body;
    if (body->kind != AST_BLOCK || body->u.block.stmts.len != 1)
        return NULL;
    const Node *st = body->u.block.stmts.items[0];
    if (!st || st->kind != AST_EXPR_STMT || !st->u.expr_stmt.expr)
        return NULL;
    const Node *as = st->u.expr_stmt.expr;
    if (as->kind != AST_ASSIGN || as->u.binary.op != '=')
        return NULL;
    return as->u.binary.rhs;
}

static void eval_line(const char *expr, int lineno, FILE *out)
{
    Arena *a = arena_new();
    Diag diag;
    diag_init(&diag, a, stderr);
    char *text = arena_printf(a, "void k(Image<int> o)\n{\n    o[idx][idy] = %s;\n}\n", expr);
    char *file = arena_printf(a, "expr%d.imcl", lineno);
    diag_add_source(&diag, file, text);
    Program *p = frontend_parse_text(a, &diag, file, text);
    const Node *rhs = diag.errors ? NULL : assigned_value(p);
    if (!rhs) {
        fprintf(out, "PARSE_ERROR\n");
    } else {
        ConstVal v = const_eval(rhs);
        const char *type = kind_name(v.type);
        if (v.status == CONST_UNKNOWN)
            fprintf(out, "UNKNOWN\n");
        else if (v.status == CONST_UNDEFINED)
            fprintf(out, "UNDEFINED %s\n", v.why);
        else if (!type)
            fprintf(out, "OK bad-type-%d\n", (int)v.type);
        else if (v.type == TY_FLOAT || v.type == TY_DOUBLE) {
            if (isnan(v.f))
                fprintf(out, "OK %s nan\n", type);
            else
                fprintf(out, "OK %s %a\n", type, v.f);
        } else
            fprintf(out, "OK %s %lld\n", type, v.i);
    }
    arena_free(a);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consteval_eval EXPRS_FILE\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 2;
    }
    char line[8192];
    int lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        size_t n = strlen(line);
        if (n + 1 == sizeof line && line[n - 1] != '\n') {
            fprintf(stderr, "%s:%d: line too long\n", argv[1], lineno);
            fclose(in);
            return 2;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        eval_line(line, lineno, stdout);
    }
    int err = ferror(in);
    fclose(in);
    if (err) {
        fprintf(stderr, "%s: read error\n", argv[1]);
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 2;
}
