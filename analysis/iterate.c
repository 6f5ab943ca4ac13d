/* Whether the steps of an iterated kernel (iterate pragma) can be fused into a
 * wavefront over its last grid dimension (time_tile), and how far each step must
 * trail the one before. */
#include "analysis.h"

/* A step at coordinate c of the last dimension reads its input only at c - R .. c + R
 * and writes its output only at c, so a step that trails the one before by R there
 * finds every point it reads computed, and overwrites none that is still to be read
 * (docs/iterate.md). */
int analyze_iterate(Arena *a, Function *k, const char **why)
{
    *why = NULL;
    Symbol *in = k->iterate[0], *out = k->iterate[1];
    if (!in) {
        *why = "it has no iterate pragma";
        return -1;
    }
    int m = k->grid_dims - 1;
    static const char *dim[] = {"x", "y", "z"};
    if (in->bc == BC_PERIODIC) {
        *why = arena_printf(a, "'%s' is periodic, so a step reads across the whole grid in %s", in->name, dim[m]);
        return -1;
    }
    Footprint *fp = analyze_footprint(a, k);
    long long radius = 0, lo, hi;
    NodeList reads = ast_query_accesses(a, ast_point_body(k), in);
    for (int i = 0; i < reads.len; i++) {
        if (!analyze_access_known(fp, reads.items[i], m, &lo, &hi)) {
            *why = arena_printf(a, "a read of '%s' on line %d is not at a constant offset in %s", in->name,
                                reads.items[i]->loc.line, dim[m]);
            return -1;
        }
        radius = -lo > radius ? -lo : radius;
        radius = hi > radius ? hi : radius;
    }
    NodeList writes = ast_query_accesses(a, ast_point_body(k), out);
    for (int i = 0; i < writes.len; i++)
        if (!analyze_access_known(fp, writes.items[i], m, &lo, &hi) || lo != 0 || hi != 0) {
            *why = arena_printf(a, "a write of '%s' on line %d is not at the point's own %s", out->name,
                                writes.items[i]->loc.line, dim[m]);
            return -1;
        }
    if (radius > ANALYZE_MAX_ITERATE_RADIUS) {
        *why = arena_printf(a, "it reads '%s' %lld points away in %s, more than %d", in->name, radius, dim[m],
                            ANALYZE_MAX_ITERATE_RADIUS);
        return -1;
    }
    return (int)radius;
}
