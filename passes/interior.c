/* pass_interior: guard-free interiors. When a grid access needs a guard (or an
 * index function) only because its point may lie near the edge of the grid, the
 * body becomes
 *     if (imcl_interior) { the body, those guards proven away } else { the body }
 * and Function.interior says where imcl_interior holds (analyze_interior): far
 * enough from every edge that each access whose offsets are known stays inside
 * its array's storage (halo included). pass_global_memory leaves the proven
 * dimensions of the interior copy's accesses unguarded; pass_thread_mapping
 * decides per block, so that a whole block takes one side of the branch.
 * Accesses whose offsets are not known (or go through an alias) keep their
 * guards on both sides. The guarded copy's accesses keep in access.inner what the
 * interior copy proved (the C reference's rows near an edge in y or z use the x
 * part). The tuning parameter `interior` (0: no split) turns it off
 * on GPU backends; the C reference always splits, and runs the inner part of
 * each row through the guard-free copy. */
#include "passes.h"

#include "analysis.h"
#include "backend.h"
#include "params.h"

int pass_interior(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    /* The C reference always splits (its loops run inner rows without guards);
     * on a GPU backend the parameter `interior` decides. */
    if (!k->is_kernel || k->interior || (c->backend->gpu && !c->tp->interior))
        return 0;
    unsigned *proven = NULL;
    Interior *in = analyze_interior(a, k, &proven);
    if (!in)
        return 0;
    Node *whole = ast_point_body(k);
    NodeList acc = ast_query(a, whole, AST_GRID_ACCESS);
    Node *inner = ast_copy(a, whole);
    NodeList copies = ast_query(a, inner, AST_GRID_ACCESS);
    for (int i = 0; i < copies.len && i < acc.len; i++) {
        copies.items[i]->u.access.inside = proven[i];
        acc.items[i]->u.access.inner = proven[i];
    }
    Loc none = {0};
    Node *test = ast_build_builtin(a, BI_INTERIOR, none);
    test->type = type_scalar(TY_INT);
    Node *body = ast_build_block(a, none);
    ast_append_stmt(a, body, ast_build_if(a, test, inner, whole, none));
    ast_set_point_body(k, body);
    ast_fix_parents(body);
    k->interior = in;
    return 0;
}

Node *pass_interior_split(const Function *k)
{
    return k->interior ? ast_point_body(k)->u.block.stmts.items[0] : NULL;
}
