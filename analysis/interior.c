/* Interiors (analysis.h): where a kernel's grid accesses with known offsets are
 * all inside their arrays' storage, and which of their guards that proves away. */
#include "analysis.h"

/* coordinate < extent(array, d) + off, keeping the tightest bound per array. */
static void add_hi(Arena *a, Interior *in, int d, Symbol *array, long long off)
{
    for (int i = 0; i < in->nhi[d]; i++)
        if (in->hi[d][i].array == array) {
            if (off < in->hi[d][i].off)
                in->hi[d][i].off = off;
            return;
        }
    ARENA_GROW(a, in->hi[d], in->nhi[d], in->caphi[d]);
    in->hi[d][in->nhi[d]++] = (InteriorBound){array, off};
}

Interior *analyze_interior(Arena *a, Function *k, unsigned **proven)
{
    Footprint *fp = analyze_footprint(a, k);
    NodeList acc = ast_query(a, ast_point_body(k), AST_GRID_ACCESS);
    unsigned *bits = arena_alloc(a, sizeof *bits * (size_t)(acc.len + 1));
    Interior *in = ARENA_NEW(a, Interior);
    bool gains = false;
    for (int i = 0; i < acc.len; i++) {
        Node *x = acc.items[i];
        Symbol *s = x->u.access.sym;
        /* `none` arrays are neither guarded nor clamped: nothing to prove. */
        if (symbol_root(s)->bc == BC_NONE)
            continue;
        for (int d = 0; d < x->u.access.n && d < k->grid_dims; d++) {
            long long min, max;
            if (analyze_access_inside(k, fp, x, d) || !analyze_access_known(fp, x, d, &min, &max))
                continue;
            /* -h <= coordinate + min and coordinate + max < extent + h */
            bits[i] |= 1u << d;
            gains = true;
            if (-s->halo - min > in->lo[d])
                in->lo[d] = -s->halo - min;
            /* Arrays the grid is bound to have the grid's extents (the wrappers
             * check it): their bound is the grid's. */
            bool bound = false;
            for (int g = 0; g < k->ngrid_arrays; g++)
                bound |= k->grid_arrays[g] == s;
            add_hi(a, in, d, bound ? NULL : s, s->halo - max);
        }
    }
    if (!gains)
        return NULL;
    /* Interior points are grid points: inside the grid's own extents too. */
    for (int d = 0; d < k->grid_dims; d++)
        add_hi(a, in, d, NULL, 0);
    if (proven)
        *proven = bits;
    return in;
}
