/* pass_texture_memory: reads of arrays placed in texture (image) memory become
 * texture reads at storage coordinates (thesis 3.5). */
#include "passes.h"

#include "lower.h"
#include "placement.h"

/* The coordinate of one dimension in storage: index + halo, as an int (the
 * texture read functions take int or float coordinates, never unsigned). */
static Node *storage_coord(Lower *L, Node *ix, int halo)
{
    if (ix->type && ix->type->kind != TY_INT)
        ix = ast_build_cast(L->a, type_scalar(TY_INT), ix, ix->loc);
    return lower_plus_halo(L->a, ix, halo, ix->loc);
}

static Node *lower_texture_read(Lower *L, Node *acc)
{
    Symbol *root = symbol_root(acc->u.access.sym);
    int n = acc->u.access.n;
    Node *ix[3];
    Node *guard = NULL;
    if (placement_texture_address(root) == TEXTURE_EXPLICIT) {
        guard = lower_boundary(L, acc, ix);
    } else {
        /* The sampler's addressing mode is the boundary condition. */
        for (int d = 0; d < n; d++)
            ix[d] = acc->u.access.ix[d];
    }
    Node *read = ast_new(L->a, AST_BUF_ACCESS, acc->loc);
    read->u.access.sym = root;
    read->u.access.n = n;
    for (int d = 0; d < n; d++)
        read->u.access.ix[d] = storage_coord(L, ix[d], root->halo);
    read->type = root->type->elem;
    ast_fix_parents(read);
    return lower_guarded(L, guard, read, root, acc->loc);
}

static Node *mutate(Node *n, void *p)
{
    Lower *L = p;
    if (n->kind == AST_GRID_ACCESS && symbol_root(n->u.access.sym)->mem == MEM_TEXTURE)
        return lower_texture_read(L, n);
    /* Aliases of a texture array have no offset (placement_allowed): once their
     * reads go to the array itself, their declarations are dead. */
    if (n->kind == AST_DECL && n->u.decl.sym->kind == SYM_ALIAS && symbol_root(n->u.decl.sym)->mem == MEM_TEXTURE)
        return ast_new(L->a, AST_EMPTY, n->loc);
    return n;
}

int pass_texture_memory(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    bool any = false;
    for (int i = 0; i < k->nparams; i++)
        any |= type_is_grid(k->params[i]->type) && k->params[i]->mem == MEM_TEXTURE;
    if (!any)
        return 0;
    Lower L = {a, k, NULL, 0, analyze_footprint(a, k), NULL};
    ast_mutate(ast_point_body(k), mutate, &L);
    ast_fix_parents(ast_point_body(k));
    return 0;
}
