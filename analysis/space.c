/* The tuning space: only what imcl can compile now is listed. */
#include "space.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

typedef struct Param {
    const char *name;
    int ints[16];
    const char *strs[8];
    int n;
    bool is_str;
    int def_int;
    const char *def_str;
} Param;

typedef struct Space {
    Param p[64];
    int n;
    const char *restrict_[8];
    int nr;
} Space;

static Param *add_int_param(Space *s, Arena *a, const char *name, int max, int def)
{
    Param *p = &s->p[s->n++];
    memset(p, 0, sizeof *p);
    p->name = arena_strdup(a, name);
    for (int v = 1; v <= max && p->n < 16; v *= 2)
        p->ints[p->n++] = v;
    p->def_int = def;
    return p;
}

static bool collect_loops(Node *n, void *ctx)
{
    NodeList *l = ctx;
    if (n->kind == AST_FOR && l->len < 32)
        l->items[l->len++] = n;
    return true;
}

static void build_space(Space *s, Arena *a, const Function *k, const SpaceOptions *o)
{
    memset(s, 0, sizeof *s);
    bool three = k->grid_dims == 3;
    /* With --size, blocks larger than the problem (rounded up to a power of two)
     * only add idle threads: they are left out. */
    int maxb[3] = {1024, 1024, three ? 64 : 1};
    for (int d = 0; d < 3 && o->size; d++) {
        if (d >= o->size_dims)
            continue;
        int p2 = 1;
        while (p2 < o->size[d] && p2 < maxb[d])
            p2 *= 2;
        maxb[d] = p2 < maxb[d] ? p2 : maxb[d];
    }
    add_int_param(s, a, "block_size_x", maxb[0], maxb[0] < 8 ? maxb[0] : 8);
    add_int_param(s, a, "block_size_y", maxb[1], maxb[1] < 8 ? maxb[1] : 8);
    add_int_param(s, a, "block_size_z", maxb[2], three ? (maxb[2] < 8 ? maxb[2] : 8) : 1);
    static const char *coarsen[] = {"coarsen_x", "coarsen_y", "coarsen_z"};
    for (int d = 0; d < 3; d++)
        add_int_param(s, a, coarsen[d], 1, 1);
    Param *il = &s->p[s->n++];
    memset(il, 0, sizeof *il);
    il->name = "interleaved";
    il->ints[il->n++] = 1;
    il->def_int = 1;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *sym = k->params[i];
        if (!type_is_grid(sym->type) && sym->type->kind != TY_ARRAY)
            continue;
        Param *p = &s->p[s->n++];
        memset(p, 0, sizeof *p);
        p->name = arena_printf(a, "mem_%s", sym->name);
        p->is_str = true;
        p->strs[p->n++] = "global";
        p->def_str = "global";
        if (s->n >= 48)
            break;
    }
    Node *items[32];
    NodeList loops = {items, 0, 32};
    ast_walk(k->body, collect_loops, &loops);
    for (int i = 0; i < loops.len && s->n < 64; i++) {
        const char *name = arena_printf(a, "unroll_L%d", loops.items[i]->loc.line);
        bool dup = false;
        for (int j = 0; j < s->n; j++)
            dup |= strcmp(s->p[j].name, name) == 0;
        if (!dup)
            add_int_param(s, a, name, 1, 1);
    }
    s->restrict_[s->nr++] = "block_size_x*block_size_y*block_size_z <= 1024";
}

static cJSON *values(const Param *p)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < p->n; i++)
        cJSON_AddItemToArray(arr, p->is_str ? cJSON_CreateString(p->strs[i]) : cJSON_CreateNumber(p->ints[i]));
    return arr;
}

static cJSON *space_json(Arena *a, const Function *k, const SpaceOptions *o)
{
    Space s;
    build_space(&s, a, k, o);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "imcl_space_version", 1);
    cJSON_AddStringToObject(root, "kernel", k->name);
    cJSON_AddStringToObject(root, "backend", o->backend);
    cJSON *params = cJSON_AddObjectToObject(root, "parameters");
    cJSON *defs = cJSON_AddObjectToObject(root, "defaults");
    for (int i = 0; i < s.n; i++) {
        cJSON_AddItemToObject(params, s.p[i].name, values(&s.p[i]));
        if (s.p[i].is_str)
            cJSON_AddStringToObject(defs, s.p[i].name, s.p[i].def_str);
        else
            cJSON_AddNumberToObject(defs, s.p[i].name, s.p[i].def_int);
    }
    cJSON *r = cJSON_AddArrayToObject(root, "restrictions");
    for (int i = 0; i < s.nr; i++)
        cJSON_AddItemToArray(r, cJSON_CreateString(s.restrict_[i]));
    return root;
}

static void print_json(FILE *out, cJSON *j)
{
    char *text = cJSON_Print(j);
    if (text) {
        fputs(text, out);
        fputc('\n', out);
        free(text);
    }
    cJSON_Delete(j);
}

void space_dump_imcl(FILE *out, Arena *a, Function **kernels, int n, const SpaceOptions *o)
{
    if (n == 1) {
        print_json(out, space_json(a, kernels[0], o));
        return;
    }
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, space_json(a, kernels[i], o));
    print_json(out, arr);
}

void space_dump_t1(FILE *out, Arena *a, Function **kernels, int n, const SpaceOptions *o)
{
    for (int i = 0; i < n; i++) {
        Space s;
        build_space(&s, a, kernels[i], o);
        cJSON *root = cJSON_CreateObject();
        cJSON *gen = cJSON_AddObjectToObject(root, "General");
        cJSON_AddStringToObject(gen, "BenchmarkName", kernels[i]->name);
        cJSON_AddStringToObject(gen, "OutputFormat", "JSON");
        cJSON *cs = cJSON_AddObjectToObject(root, "ConfigurationSpace");
        cJSON *tps = cJSON_AddArrayToObject(cs, "TuningParameters");
        for (int j = 0; j < s.n; j++) {
            cJSON *tp = cJSON_CreateObject();
            cJSON_AddStringToObject(tp, "Name", s.p[j].name);
            cJSON_AddStringToObject(tp, "Type", s.p[j].is_str ? "string" : "int");
            char *vals = cJSON_PrintUnformatted(values(&s.p[j]));
            cJSON_AddStringToObject(tp, "Values", vals);
            free(vals);
            cJSON_AddItemToArray(tps, tp);
        }
        cJSON *conds = cJSON_AddArrayToObject(cs, "Conditions");
        for (int j = 0; j < s.nr; j++) {
            cJSON *c = cJSON_CreateObject();
            cJSON *ps = cJSON_AddArrayToObject(c, "Parameters");
            for (int q = 0; q < 3; q++)
                cJSON_AddItemToArray(ps, cJSON_CreateString(s.p[q].name));
            cJSON_AddStringToObject(c, "Expression", s.restrict_[j]);
            cJSON_AddItemToArray(conds, c);
        }
        print_json(out, root);
    }
}

void space_print_footprint(FILE *out, Arena *a, Function *k)
{
    Footprint *fp = analyze_footprint(a, k);
    fprintf(out, "footprint of kernel '%s' (offsets from idx, idy, idz):\n", k->name);
    static const char axis[] = "xyz";
    /* One line per array or alias, in order of first access. */
    for (int i = 0; i < fp->n; i++) {
        Symbol *s = fp->items[i].access->u.access.sym;
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= fp->items[j].access->u.access.sym == s;
        if (seen)
            continue;
        int dims = type_grid_dims(s->type);
        bool known[3] = {true, true, true};
        long long lo[3] = {0}, hi[3] = {0};
        bool first[3] = {true, true, true};
        int count = 0;
        for (int j = i; j < fp->n; j++) {
            const AccessFootprint *af = &fp->items[j];
            if (af->access->u.access.sym != s)
                continue;
            count++;
            for (int d = 0; d < dims; d++) {
                if (!af->known[d]) {
                    known[d] = false;
                    continue;
                }
                if (first[d] || af->min[d] < lo[d])
                    lo[d] = af->min[d];
                if (first[d] || af->max[d] > hi[d])
                    hi[d] = af->max[d];
                first[d] = false;
            }
        }
        fprintf(out, "  %s", s->name);
        if (s->kind == SYM_ALIAS)
            fprintf(out, " (alias of %s)", symbol_root(s)->name);
        fprintf(out, ": %d access%s;", count, count == 1 ? "" : "es");
        for (int d = 0; d < dims; d++) {
            if (known[d])
                fprintf(out, " %c %lld..%lld", axis[d], lo[d], hi[d]);
            else
                fprintf(out, " %c unknown", axis[d]);
        }
        fputc('\n', out);
        for (int j = i; j < fp->n; j++) {
            const AccessFootprint *af = &fp->items[j];
            if (af->access->u.access.sym != s)
                continue;
            for (int d = 0; d < dims; d++)
                if (!af->known[d])
                    fprintf(out, "    %c unknown at %s:%d:%d: %s\n", axis[d], af->access->loc.file,
                            af->access->loc.line, af->access->loc.col, af->why[d]);
        }
    }
}
