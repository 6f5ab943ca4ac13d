/* The tree check (ast/verify.c) on broken trees: a kernel is parsed and checked, a
 * statement of it is moved or taken out as a broken pass would, and verify_function
 * must refuse the tree with the exact internal error; the intact tree, and a point
 * loop's prologue declaration used in the body, must pass.
 *
 *   verify_test      prints "ok NAME" / "FAIL NAME: ..." per case; exit status 1 on
 *                    any failure */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "ast.h"
#include "frontend.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SOURCE[] =
    "#pragma imcl grid(out)\n"
    "void k(Image<int> in, Image<int> out)\n"
    "{\n"
    "    int i2 = 1;\n"
    "    for (int j = 0; j < 3; j++) {\n"
    "        int t = in[idx + j][idy];\n"
    "        i2 += t;\n"
    "    }\n"
    "    out[idx][idy] = i2;\n"
    "}\n";

static int failures;

/* Parses SOURCE, lets `edit` break the kernel, runs the check; the diagnostics it
 * printed must be `want` ("" for a tree that passes). */
static void check(const char *name, void (*edit)(Arena *a, Function *k), const char *want)
{
    Arena *a = arena_new();
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    Diag d;
    diag_init(&d, a, out);
    Program *p = frontend_parse_source(a, &d, "k.imcl", SOURCE, sizeof SOURCE - 1);
    if (!p || sema_program(p, &d)) {
        fclose(out);
        printf("FAIL %s: the kernel does not compile:\n%s", name, text);
        failures++;
        free(text);
        arena_free(a);
        return;
    }
    Function *k = p->funcs[0];
    if (edit)
        edit(a, k);
    bool ok = verify_function(&d, k, "test", false);
    fclose(out);
    bool want_ok = !*want;
    if (ok != want_ok || strcmp(text, want) != 0 || d.internal != (want_ok ? 0 : 1)) {
        printf("FAIL %s: verify_function gave %s, internal errors %d, and printed:\n%s\nexpected:\n%s\n", name,
               ok ? "true" : "false", d.internal, text, want);
        failures++;
    } else {
        printf("ok %s\n", name);
    }
    free(text);
    arena_free(a);
}

static Node *stmt(Function *k, int i)
{
    return ast_point_body(k)->u.block.stmts.items[i];
}

/* The kernel's body in a point loop, as the driver makes it for a GPU backend. */
static Node *point_loop(Arena *a, Function *k)
{
    Node *body = ast_build_block(a, k->body->loc);
    Node *points = ast_build_points(a, k->body, k->body->loc);
    ast_append_stmt(a, body, points);
    k->body = body;
    ast_fix_parents(k->body);
    return points;
}

/* `int i2 = 1;` goes while its names stay (the dead-code bug of docs/testing.md). */
static void drop_decl(Arena *a, Function *k)
{
    (void)a;
    ast_remove_stmt(stmt(k, 0));
}

/* the declaration moves after its first use */
static void decl_after_use(Arena *a, Function *k)
{
    Node *decl = stmt(k, 0);
    ast_remove_stmt(decl);
    ast_insert_after(a, stmt(k, 0), decl);
}

/* `i2 += t;` leaves the loop body, where t was declared */
static void use_out_of_scope(Arena *a, Function *k)
{
    Node *loop = stmt(k, 1);
    Node *use = loop->u.loop.body->u.block.stmts.items[1];
    ast_remove_stmt(use);
    ast_insert_after(a, loop, use);
}

/* a prologue declares a local the body reads: in scope */
static Symbol *prologue_local(Arena *a, Function *k)
{
    Loc none = {0};
    Symbol *s = ast_build_symbol(a, "imcl_p", SYM_LOCAL, type_scalar(TY_INT), none);
    Node *prologue = point_loop(a, k)->u.points.prologue;
    ast_append_stmt(a, prologue, ast_build_decl(a, s, ast_build_int(a, 2, none), none));
    Node *use = ast_build_assign(a, '+', ast_build_var_ref(a, stmt(k, 0)->u.decl.sym, none),
                                 ast_build_var_ref(a, s, none), none);
    ast_insert_after(a, stmt(k, 0), ast_build_expr_stmt(a, use, none));
    return s;
}

static void prologue_ok(Arena *a, Function *k)
{
    prologue_local(a, k);
}

/* the epilogue reads a local of the body */
static void epilogue_reads_body(Arena *a, Function *k)
{
    Loc none = {0};
    Node *epilogue = point_loop(a, k)->u.points.point_epilogue;
    Node *use = ast_build_assign(a, '=', ast_build_var_ref(a, stmt(k, 0)->u.decl.sym, none),
                                 ast_build_int(a, 0, none), none);
    ast_append_stmt(a, epilogue, ast_build_expr_stmt(a, use, none));
}

/* a statement before the point loop: only thread_mapping places code around it */
static void points_not_alone(Arena *a, Function *k)
{
    Loc none = {0};
    point_loop(a, k);
    ast_insert_before(a, k->body->u.block.stmts.items[0], ast_build_comment(a, "stray", none));
}

static void goto_nowhere(Arena *a, Function *k)
{
    Loc none = {0};
    ast_append_stmt(a, k->body, ast_build_goto(a, "imcl_next_point", none));
}

int main(void)
{
    check("intact", NULL, "");
    check("declaration dropped", drop_decl,
          "k.imcl:7:9: error: internal error: after pass test, kernel 'k': 'i2' is used where no declaration "
          "of it is in scope (Var node) (a bug in imcl: please report it)\n"
          "         i2 += t;\n"
          "         ^\n");
    check("declaration after its use", decl_after_use,
          "k.imcl:7:9: error: internal error: after pass test, kernel 'k': 'i2' is used where no declaration "
          "of it is in scope (Var node) (a bug in imcl: please report it)\n"
          "         i2 += t;\n"
          "         ^\n");
    check("use past the end of its scope", use_out_of_scope,
          "k.imcl:7:15: error: internal error: after pass test, kernel 'k': 't' is used where no declaration "
          "of it is in scope (Var node) (a bug in imcl: please report it)\n"
          "         i2 += t;\n"
          "               ^\n");
    check("prologue declaration read in the body", prologue_ok, "");
    check("epilogue reads a local of the body", epilogue_reads_body,
          "imcl: error: internal error: after pass test, kernel 'k': 'i2' is used where no declaration of it "
          "is in scope (Var node) (a bug in imcl: please report it)\n");
    check("point loop beside another statement", points_not_alone,
          "k.imcl:3:1: error: internal error: after pass test, kernel 'k': a point loop that is not the only "
          "statement of the kernel's body (Points node) (a bug in imcl: please report it)\n"
          " {\n"
          " ^\n");
    check("goto without its label", goto_nowhere,
          "imcl: error: internal error: after pass test, kernel 'k': a goto to label 'imcl_next_point', which "
          "the kernel does not have (Goto node) (a bug in imcl: please report it)\n");
    printf("verify: %d failed\n", failures);
    return failures ? 1 : 0;
}
