/* Tuning parameters: the JSON and legacy formats, defaults and validation. */
#include "params.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "lanes.h"
#include "registers.h"
#include "unrolled.h"

const ParamRow params_table[PARAM_COUNT] = {
#define OF(f) offsetof(TuneParams, f)
#define NONE (-1)
#define PARAM(id, kind, lo, hi, def, field, given, geometry, expect, doc) \
    [P_##id] = {#id, kind, lo, hi, def, field, given, geometry, expect, doc},
#define FAMILY(id, name, expect, doc) [P_##id] = {name, PARAM_FAMILY, 0, 0, 0, NONE, NONE, false, expect, doc},
#include "params.def"
#undef PARAM
#undef FAMILY
#undef OF
#undef NONE
};

const ParamRow *params_find(const char *name)
{
    for (int i = 0; i < PARAM_COUNT; i++)
        if (params_table[i].kind != PARAM_FAMILY && strcmp(params_table[i].name, name) == 0)
            return &params_table[i];
    return NULL;
}

const char *params_expected(Arena *a, const ParamRow *r)
{
    int formats = 0;
    for (const char *p = r->expect; (p = strstr(p, "%d")); p += 2)
        formats++;
    return formats == 2 ? arena_printf(a, r->expect, r->lo, r->hi)
           : formats == 1 ? arena_printf(a, r->expect, r->hi)
                          : r->expect;
}

const char *params_names(Arena *a)
{
    StrBuf sb = {0};
    for (int i = 0; i < PARAM_COUNT; i++) {
        const char *name = params_table[i].name;
        size_t n = strlen(name);
        /* block_size_x, block_size_y, block_size_z: block_size_x/y/z */
        bool axes = n > 2 && strcmp(name + n - 2, "_x") == 0 && i + 2 < PARAM_COUNT &&
                    strncmp(params_table[i + 2].name, name, n - 1) == 0;
        sb_puts(&sb, i == 0 ? "" : i + (axes ? 2 : 0) == PARAM_COUNT - 1 ? " or " : ", ");
        sb_puts(&sb, name);
        if (axes) {
            sb_puts(&sb, "/y/z");
            i += 2;
        }
    }
    const char *names = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return names;
}

/* The length of the prefix every parameter of a family shares: 4 for "mem_<array>". */
static int family_prefix(ParamId family)
{
    return (int)strcspn(params_table[family].name, "<");
}

const char *params_family_name(Arena *a, ParamId family, const char *what)
{
    return arena_printf(a, "%.*s%s", family_prefix(family), params_table[family].name, what);
}

void params_family_snprint(char *buf, size_t size, ParamId family, const char *what)
{
    snprintf(buf, size, "%.*s%s", family_prefix(family), params_table[family].name, what);
}

const char *params_family_member(const char *name, ParamId family)
{
    int n = family_prefix(family);
    return strncmp(name, params_table[family].name, (size_t)n) == 0 ? name + n : NULL;
}

const char *params_mem_test(Arena *a, const char *array, const char *op, MemKind m)
{
    return arena_printf(a, "%s %s '%s'", params_family_name(a, P_mem, array), op, mem_kind_name(m));
}

const char *params_threads(Arena *a)
{
    return arena_printf(a, "%s*%s*%s", PARAM_NAME(block_size_x), PARAM_NAME(block_size_y), PARAM_NAME(block_size_z));
}

const char *params_points(Arena *a)
{
    return arena_printf(a, "%s*%s*%s", PARAM_NAME(coarsen_x), PARAM_NAME(coarsen_y), PARAM_NAME(coarsen_z));
}

static int *param_int(TuneParams *tp, ptrdiff_t offset)
{
    return (int *)((char *)tp + offset);
}

static const char *const mem_names[] = {"global", "shared", "texture", "constant", "register"};

const char *mem_kind_name(MemKind m)
{
    return mem_names[m];
}

static const char *const schedule_names[] = {"static", "dynamic", "guided"};

const char *omp_schedule_name(OmpSchedule s)
{
    return schedule_names[s];
}

const char *params_omp_schedule(Arena *a, const TuneParams *tp)
{
    if (!tp->omp_chunk)
        return schedule_names[tp->omp_schedule];
    return arena_printf(a, "%s, %d", schedule_names[tp->omp_schedule], tp->omp_chunk);
}

void params_init(TuneParams *tp)
{
    memset(tp, 0, sizeof *tp);
    for (int i = 0; i < PARAM_COUNT; i++)
        if (params_table[i].field >= 0)
            *param_int(tp, params_table[i].field) = params_table[i].def;
}

static bool parse_mem(const char *v, MemKind *out)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(v, mem_names[i]) == 0) {
            *out = (MemKind)i;
            return true;
        }
    return false;
}

static bool set_int(TuneParams *tp, const char *name, long long v, Diag *d)
{
    const ParamRow *r = params_find(name);
    if (r) {
        bool ok = r->kind == PARAM_FLAG     ? v == 0 || v == 1
                  : r->kind == PARAM_OFF_OR ? v == 0 || (v >= r->lo && v <= r->hi)
                  : r->kind == PARAM_INT    ? v >= r->lo && v <= r->hi
                                            : false; /* a name, not a number */
        if (!ok) {
            diag_plain_error(d, "parameter '%s': value %lld is not allowed (expected %s)", name, v,
                             params_expected(d->arena, r));
            return false;
        }
        *param_int(tp, r->field) = (int)v;
        if (r->given >= 0)
            *(bool *)((char *)tp + r->given) = true;
        tp->geometry_given |= r->geometry;
        return true;
    }
    const char *key = params_family_member(name, P_unroll_label);
    if (key) {
        /* unroll_L<line>, or unroll_<label> for a labelled loop */
        bool by_line = key[0] == 'L' && isdigit((unsigned char)key[1]);
        char *end = NULL;
        long line = by_line ? strtol(key + 1, &end, 10) : 0;
        bool ident = *key && !isdigit((unsigned char)*key);
        for (const char *p = key; *p && ident; p++)
            ident = isalnum((unsigned char)*p) || *p == '_';
        if ((by_line && (*end || line < 1 || line > 1L << 30)) || (!by_line && !ident)) {
            diag_plain_error(d, "unknown parameter '%s' (unroll parameters are named %s or %s)", name,
                             PARAM_NAME(unroll_line), PARAM_NAME(unroll_label));
            return false;
        }
        if (v < 1 || v > PARAMS_MAX_UNROLL) {
            diag_plain_error(d, "parameter '%s': value %lld is not allowed (expected %s)", name, v,
                             params_table[P_unroll_line].expect);
            return false;
        }
        for (int i = 0; i < tp->nunroll; i++)
            if (by_line ? tp->unroll[i].line == line : tp->unroll[i].label && strcmp(tp->unroll[i].label, key) == 0) {
                tp->unroll[i].factor = (int)v;
                return true;
            }
        ARENA_GROW(d->arena, tp->unroll, tp->nunroll, tp->capunroll);
        tp->unroll[tp->nunroll++] = (UnrollChoice){(int)line, by_line ? NULL : arena_strdup(d->arena, key), (int)v, false};
        return true;
    }
    if (params_family_member(name, P_mem)) {
        diag_plain_error(d, "parameter '%s': value %lld is not allowed (expected %s)", name, v,
                         params_table[P_mem].expect);
        return false;
    }
    diag_plain_error(d, "unknown parameter '%s' (expected %s)", name, params_names(d->arena));
    return false;
}

static bool set_mem(TuneParams *tp, const char *array, const char *value, Arena *a, Diag *d)
{
    MemKind m;
    if (!parse_mem(value, &m)) {
        diag_plain_error(d, "parameter '%s': value '%s' is not allowed (expected %s)",
                         params_family_name(a, P_mem, array), value, params_table[P_mem].expect);
        return false;
    }
    if (!*array) {
        diag_plain_error(d, "parameter '%s' names no array", params_family_name(a, P_mem, ""));
        return false;
    }
    for (int i = 0; i < tp->nmem; i++)
        if (strcmp(tp->mem[i].array, array) == 0) {
            tp->mem[i].mem = m;
            return true;
        }
    ARENA_GROW(a, tp->mem, tp->nmem, tp->capmem);
    tp->mem[tp->nmem++] = (MemChoice){arena_strdup(a, array), m, false};
    return true;
}

/* omp_schedule: static, dynamic or guided. */
static bool set_schedule(TuneParams *tp, const char *value, Diag *d)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(value, schedule_names[i]) == 0) {
            tp->omp_schedule = i;
            return true;
        }
    diag_plain_error(d, "parameter '%s': value '%s' is not allowed (expected %s)", PARAM_NAME(omp_schedule), value,
                     params_table[P_omp_schedule].expect);
    return false;
}

static bool load_json(TuneParams *tp, const char *path, const char *text, Arena *a, Diag *d)
{
    cJSON *root = cJSON_Parse(text);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        int line = 1;
        for (const char *p = text; at && p < at && *p; p++)
            line += *p == '\n';
        diag_plain_error(d, "%s:%d: malformed JSON in tuning parameters", path, line);
        return false;
    }
    bool ok = true;
    if (!cJSON_IsObject(root)) {
        diag_plain_error(d, "%s: tuning parameters must be a flat JSON object", path);
        ok = false;
    }
    for (cJSON *it = root->child; ok && it; it = it->next) {
        const char *name = it->string ? it->string : "";
        const char *array = params_family_member(name, P_mem);
        if (array && cJSON_IsString(it)) {
            ok = set_mem(tp, array, it->valuestring, a, d);
        } else if (strcmp(name, PARAM_NAME(omp_schedule)) == 0 && cJSON_IsString(it)) {
            ok = set_schedule(tp, it->valuestring, d);
        } else if (cJSON_IsNumber(it)) {
            double v = it->valuedouble;
            /* a double outside long long's range has no integer conversion in C */
            if (!(v > -9.2e18 && v < 9.2e18)) {
                diag_plain_error(d, "parameter '%s': value %g is not allowed (expected an integer below 2^63)", name, v);
                ok = false;
            } else if (v != (double)(long long)v) {
                diag_plain_error(d, "parameter '%s': value %g is not allowed (expected an integer)", name, v);
                ok = false;
            } else {
                ok = set_int(tp, name, (long long)v, d);
            }
        } else if (cJSON_IsBool(it)) {
            ok = set_int(tp, name, cJSON_IsTrue(it) ? 1 : 0, d);
        } else if (cJSON_IsString(it) && it->valuestring[0]) {
            /* Autotuners sometimes write numbers as strings. */
            char *end;
            errno = 0;
            long long v = strtoll(it->valuestring, &end, 10);
            if (*end || errno) {
                diag_plain_error(d, "parameter '%s': value '%s' is not allowed (expected an integer)", name, it->valuestring);
                ok = false;
            } else {
                ok = set_int(tp, name, v, d);
            }
        } else {
            diag_plain_error(d, "parameter '%s': value must be a number or a string", name);
            ok = false;
        }
    }
    cJSON_Delete(root);
    return ok;
}

/* Legacy ImageCL config.txt: KEY:VALUE per line. */
static bool load_legacy(TuneParams *tp, const char *path, char *text, Arena *a, Diag *d)
{
    static const struct { const char *key; ParamId id; } keys[] = {
        {"LOCAL_SIZE_X", P_block_size_x}, {"LOCAL_SIZE_Y", P_block_size_y},
        {"LOCAL_SIZE_Z", P_block_size_z}, {"ELEMENTS_PER_THREAD_X", P_coarsen_x},
        {"ELEMENTS_PER_THREAD_Y", P_coarsen_y}, {"ELEMENTS_PER_THREAD_Z", P_coarsen_z},
        {"INTERLEAVED", P_interleaved},
    };
    int lineno = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        lineno++;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        size_t n = strlen(p);
        while (n && isspace((unsigned char)p[n - 1]))
            p[--n] = 0;
        if (!*p || *p == '#')
            continue;
        char *colon = strchr(p, ':');
        if (!colon) {
            diag_plain_error(d, "%s:%d: expected KEY:VALUE", path, lineno);
            return false;
        }
        *colon = 0;
        char *key = p, *val = colon + 1;
        while (isspace((unsigned char)*val))
            val++;
        size_t kl = strlen(key);
        while (kl && isspace((unsigned char)key[kl - 1]))
            key[--kl] = 0;
        const char *memkey[] = {"LOCAL_MEMORY", "IMAGE_MEMORY", "CONSTANT_MEMORY", "REGISTER_MEMORY"};
        const char *memval[] = {"shared", "texture", "constant", "register"};
        bool done = false;
        for (int i = 0; i < 4 && !done; i++) {
            if (strcmp(key, memkey[i]) != 0)
                continue;
            done = true;
            for (char *arr = strtok_r(val, ",", &val); arr; arr = strtok_r(NULL, ",", &val)) {
                while (isspace((unsigned char)*arr))
                    arr++;
                size_t al = strlen(arr);
                while (al && isspace((unsigned char)arr[al - 1]))
                    arr[--al] = 0;
                if (*arr && !set_mem(tp, arr, memval[i], a, d))
                    return false;
            }
        }
        if (done)
            continue;
        char *end;
        errno = 0;
        long long v = strtoll(val, &end, 10);
        if (!*val || *end || errno) {
            diag_plain_error(d, "%s:%d: value of %s must be an integer, not '%s'", path, lineno, key, val);
            return false;
        }
        const char *name = NULL;
        char unroll[64];
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strcmp(key, keys[i].key) == 0)
                name = params_table[keys[i].id].name;
        if (!name && strncmp(key, "LOOP", 4) == 0 && isdigit((unsigned char)key[4])) {
            snprintf(unroll, sizeof unroll, "%s", params_family_name(a, P_unroll_line, key + 4));
            name = unroll;
        }
        if (!name) {
            diag_plain_error(d, "%s:%d: unknown legacy parameter '%s'", path, lineno, key);
            return false;
        }
        if (!set_int(tp, name, v, d))
            return false;
    }
    return true;
}

bool params_load(TuneParams *tp, const char *path, Arena *a, Diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_plain_error(d, "cannot open tuning parameters '%s': %s", path, strerror(errno));
        return false;
    }
    StrBuf sb = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            sb_putc(&sb, buf[i] ? buf[i] : ' ');
    fclose(f);
    bool ok = params_load_text(tp, path, sb_str(&sb), a, d);
    sb_free(&sb);
    return ok;
}

bool params_load_text(TuneParams *tp, const char *path, const char *text, Arena *a, Diag *d)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '{' || *p == '[')
        return load_json(tp, path, text, a, d);
    /* The legacy reader cuts its copy into lines. */
    return load_legacy(tp, path, arena_strdup(a, text), a, d);
}

/* unroll_L<line> and unroll_<label> against the loops of k (analyze_loops): a factor
 * above 1 needs an unrollable loop, and no factor may pass the largest one the space
 * lists (every factor up to it is correct: the unrolled loop runs the remainder). A
 * labelled loop is named by its label. A loop that dead code took out takes any
 * factor. */
static bool check_unroll(UnrollChoice *u, const Function *k, const LoopTable *loops, Arena *a, Diag *d)
{
    const LoopInfo *li = u->label ? loops_find_label(loops, u->label) : loops_find(loops, u->line);
    for (int i = 0; !li && i < k->removed_loops.len; i++) {
        const Node *n = k->removed_loops.items[i];
        u->used |= u->label ? n->u.loop.label && strcmp(n->u.loop.label, u->label) == 0
                            : !n->u.loop.label && n->loc.line == u->line;
    }
    if (!li)
        return true;
    const char *name = params_unroll_name(a, u);
    if (!u->label && li->label) {
        diag_plain_error(d, "parameter '%s': the for loop on line %d is labelled '%s': its parameter is %s",
                         name, li->line, li->label, params_family_name(a, P_unroll_label, li->label));
        return false;
    }
    u->used = true;
    if (u->factor == 1)
        return true;
    if (!li->unrollable) {
        diag_plain_error(d, "parameter '%s': value %d is not allowed (the for loop on line %d cannot be unrolled: %s; expected 1)",
                         name, u->factor, li->line, li->why);
        return false;
    }
    int listed[16];
    int max = listed[loops_unroll_factors(li, listed, 16) - 1];
    if (u->factor > max) {
        if (li->trip_known)
            diag_plain_error(d, "parameter '%s': value %d is not allowed (the for loop on line %d runs %lld time%s; expected 1 to %d)",
                             name, u->factor, li->line, li->trip, li->trip == 1 ? "" : "s", max);
        else
            diag_plain_error(d, "parameter '%s': value %d is not allowed (the for loop on line %d runs an unknown number of times; expected 1 to %d)",
                             name, u->factor, li->line, max);
        return false;
    }
    return true;
}

/* The last choice tp makes for loop li (by its label, or by its line), or NULL. */
static const UnrollChoice *unroll_choice(const TuneParams *tp, const LoopInfo *li)
{
    const UnrollChoice *found = NULL;
    for (int i = 0; i < tp->nunroll; i++) {
        const UnrollChoice *u = &tp->unroll[i];
        if (li->label ? u->label && strcmp(u->label, li->label) == 0 : !u->label && u->line == li->line)
            found = u;
    }
    return found;
}

int params_unroll_factor(const TuneParams *tp, const LoopInfo *li)
{
    const UnrollChoice *u = unroll_choice(tp, li);
    return u ? u->factor : 1;
}

const char *params_unroll_name(Arena *a, const UnrollChoice *u)
{
    return u->label ? params_family_name(a, P_unroll_label, u->label)
                    : params_family_name(a, P_unroll_line, arena_printf(a, "%d", u->line));
}

const char *params_loop_name(Arena *a, const struct LoopInfo *li)
{
    return params_unroll_name(a, &(UnrollChoice){.line = li->line, .label = li->label});
}

/* Register caching (pass_register_cache): whole warps along x, and a thread's
 * points in x a block apart. */
static bool check_register(const Function *k, const TuneParams *out, Diag *d)
{
    bool ok = true;
    for (int j = 0; j < k->nparams; j++) {
        const Symbol *s = k->params[j];
        if (s->mem != MEM_REGISTER)
            continue;
        if (out->block[0] % PLACEMENT_WARP) {
            diag_plain_error(d, "parameter '%s': value 'register' needs %s a multiple of %d (a warp is "
                                "%d threads of one row), not %d", params_family_name(d->arena, P_mem, s->name), PARAM_NAME(block_size_x),
                             PLACEMENT_WARP, PLACEMENT_WARP, out->block[0]);
            ok = false;
        } else if (out->coarsen[0] > 1 && !out->interleaved) {
            diag_plain_error(d, "parameter '%s': value 'register' needs %s 1 with %s = %d (the "
                                "points of a warp's threads must lie next to each other)", params_family_name(d->arena, P_mem, s->name),
                             PARAM_NAME(interleaved), PARAM_NAME(coarsen_x), out->coarsen[0]);
            ok = false;
        }
    }
    return ok;
}

/* batch_loop: the loop over a batch's blocks holds no barrier and no warp exchange, and
 * every Image and Block lies in global memory, a buffer that moves one block on per
 * iteration. */
static bool check_batch_loop(const Function *k, const TuneParams *out, Diag *d)
{
    if (out->stream_z) {
        diag_plain_error(d, "parameter '%s': value 1 is not allowed with %s = %d (its windows of "
                            "planes span one block; expected 0)", PARAM_NAME(batch_loop), PARAM_NAME(stream_z),
                         out->stream_z);
        return false;
    }
    bool grid = false;
    for (int j = 0; j < k->nparams; j++) {
        const Symbol *s = k->params[j];
        grid |= type_is_grid(s->type);
        bool shared = s->mem == MEM_SHARED;  /* (only an Image or Block may be) */
        if (type_is_grid(s->type) && s->mem != MEM_GLOBAL) {
            diag_plain_error(d, "parameter '%s': value 1 is not allowed with %s = '%s' (%s; expected 0)",
                             PARAM_NAME(batch_loop), params_family_name(d->arena, P_mem, s->name), mem_kind_name(s->mem),
                             shared ? "its tiles are loaded between barriers, which every work-item must reach"
                                    : "every Image and Block of a batch must be in global memory");
            return false;
        }
    }
    if (!grid) {
        diag_plain_error(d, "parameter '%s': value 1 is not allowed for kernel '%s' (it has no Image or "
                            "Block, so it runs no batch; expected 0)", PARAM_NAME(batch_loop), k->name);
        return false;
    }
    return true;
}

/* Whether the backend fuses the steps of the configuration `out`: everywhere, or in
 * its CPU variant, which a given geometry replaces (params_cpu_variant). */
static bool fuses_steps(const TuneParams *out, const SpaceOptions *so)
{
    return so->backend->time_tile || (so->backend->time_tile_cpu && !out->geometry_given);
}

/* time_tile above 1: an iterated kernel whose steps fuse (analyze_iterate), on a
 * backend that fuses them. */
static bool check_time_tile(const Function *k, const TuneParams *out, const SpaceOptions *so, Diag *d)
{
    const char *why = !k->iterate[0] ? arena_printf(d->arena, "kernel '%s' has no iterate pragma", k->name)
                    : k->iterate_radius < 0
                        ? arena_printf(d->arena, "the steps of kernel '%s' cannot be fused: %s", k->name, k->iterate_why)
                    : so->backend->time_tile_cpu && !fuses_steps(out, so)
                        ? arena_printf(d->arena, "the %s backend fuses steps only in its variant for CPU devices, "
                                                 "which a given block_size_, coarsen_, interleaved or interior "
                                                 "replaces", so->backend->name)
                    : !fuses_steps(out, so)
                        ? arena_printf(d->arena, "the %s backend runs one step per launch", so->backend->name)
                        : NULL;
    if (why)
        diag_plain_error(d, "parameter '%s': value %d is not allowed (%s; expected 1)", PARAM_NAME(time_tile),
                         out->time_tile, why);
    return !why;
}

/* stream_z (pass_stream_z): a Block grid, one thread per block in z walking its
 * points, and some array it can keep in windows. On success the passes get
 * coarsen[2] = stream_z. */
static bool check_stream_z(Arena *a, Function *k, TuneParams *out, Diag *d)
{
    int S = out->stream_z;
    if (k->grid_dims != 3) {
        diag_plain_error(d, "parameter '%s': value %d is not allowed for 2D kernel '%s' (expected 0)",
                         PARAM_NAME(stream_z), S, k->name);
        return false;
    }
    if (out->block[2] != 1 || out->coarsen[2] != 1) {
        diag_plain_error(d, "parameter '%s': value %d needs %s = 1 and %s = 1 (one thread walks "
                            "the z points), not %s = %d and %s = %d", PARAM_NAME(stream_z), S,
                         PARAM_NAME(block_size_z), PARAM_NAME(coarsen_z), PARAM_NAME(block_size_z), out->block[2],
                         PARAM_NAME(coarsen_z), out->coarsen[2]);
        return false;
    }
    StrBuf why = {0};
    int streamed = 0;
    for (int j = 0; j < k->nparams; j++) {
        Symbol *s = k->params[j];
        if (!s->type || s->type->kind != TY_BLOCK)
            continue;
        const char *w;
        StreamWindow sw;
        if (s->mem == MEM_SHARED) {
            diag_plain_error(d, "parameter '%s': value %d is not allowed with %s = 'shared' (a tile of the "
                                "planes a thread walks is not implemented; streamed arrays are read through windows)",
                             PARAM_NAME(stream_z), S, params_family_name(d->arena, P_mem, s->name));
            sb_free(&why);
            return false;
        }
        if (s->mem != MEM_GLOBAL)
            sb_printf(&why, "%s'%s': it is in %s memory", why.len ? "; " : "", s->name, mem_kind_name(s->mem));
        else if (placement_stream_window(a, k, s, &sw, &w))
            streamed++;
        else
            sb_printf(&why, "%s'%s': %s", why.len ? "; " : "", s->name, w);
    }
    if (!streamed) {
        diag_plain_error(d, "parameter '%s': value %d is not allowed: kernel '%s' reads no Block a thread can keep "
                            "along z (%s)", PARAM_NAME(stream_z), S, k->name, why.len ? sb_str(&why) : "it reads none in global memory");
        sb_free(&why);
        return false;
    }
    sb_free(&why);
    out->coarsen[2] = S;
    return true;
}

/* Whether `given` chooses for kernel k what coarsening multiplies: the block, the
 * coarsening itself, a placement of one of k's arrays (tiles), z-marching (windows) or
 * the unroll factor of one of k's loops (code). Such a configuration keeps one point
 * per thread unless it says otherwise (docs/tuning.md, "The default coarsening on GPU
 * backends"); entries for another kernel of the file do not count, so that `-k`
 * changes nothing. */
static bool chose_geometry(const TuneParams *given, const Function *k, Arena *a)
{
    bool chosen = given->stream_z;
    for (int i = 0; i < 3; i++)
        chosen |= given->block_given[i] || given->coarsen_given[i];
    for (int i = 0; i < given->nmem && !chosen; i++)
        for (int j = 0; j < k->nparams; j++)
            chosen |= strcmp(k->params[j]->name, given->mem[i].array) == 0;
    if (given->nunroll && !chosen) {
        LoopTable loops = analyze_loops(a, k);
        for (int i = 0; i < loops.n && !chosen; i++)
            chosen = unroll_choice(given, &loops.items[i]) != NULL;
    }
    return chosen;
}

bool params_for_kernel(TuneParams *given, Function *k, const SpaceOptions *so, Arena *a,
                       TuneParams *out, Diag *d)
{
    *out = *given;
    int dims = k->grid_dims;
    int def[3];
    registers_default_block(k, so, def);
    for (int i = 0; i < 3; i++)
        if (!given->block_given[i])
            out->block[i] = def[i];
    /* With stream_z one thread per block walks z (check_stream_z). */
    if (given->stream_z && !given->block_given[2])
        out->block[2] = 1;
    /* The default configuration's coarsening (registers_default_coarsen, the dump's
     * defaults) where none of what it multiplies was chosen for k. */
    if (!chose_geometry(given, k, a))
        registers_default_coarsen(a, k, so, out->coarsen);
    bool ok = true;
    if (dims < 3 && out->block[2] != 1) {
        diag_plain_error(d, "parameter '%s': value %d is not allowed for 2D kernel '%s' (expected 1)",
                         PARAM_NAME(block_size_z), out->block[2], k->name);
        ok = false;
    }
    if (dims < 3 && out->coarsen[2] != 1) {
        diag_plain_error(d, "parameter '%s': value %d is not allowed for 2D kernel '%s' (expected 1)",
                         PARAM_NAME(coarsen_z), out->coarsen[2], k->name);
        ok = false;
    }
    long long threads = (long long)out->block[0] * out->block[1] * out->block[2];
    if (threads > PARAMS_MAX_BLOCK_THREADS) {
        diag_plain_error(d, "%s = %lld is larger than the device allows (at most %d threads)", params_threads(a),
                         threads, PARAMS_MAX_BLOCK_THREADS);
        ok = false;
    }
    if (out->block[2] > PARAMS_MAX_BLOCK_Z) {
        diag_plain_error(d, "parameter '%s': value %d is not allowed (at most %d)", PARAM_NAME(block_size_z),
                         out->block[2], PARAMS_MAX_BLOCK_Z);
        ok = false;
    }
    for (int i = 0; i < 3; i++)
        if (out->coarsen[i] > PARAMS_MAX_COARSEN) {
            diag_plain_error(d, "parameter '%s': value %d is not allowed (at most %d points per thread)",
                             params_table[P_coarsen_x + i].name, out->coarsen[i], PARAMS_MAX_COARSEN);
            ok = false;
        }
    Budget shared, constant;
    budget_init(&shared, MEM_SHARED, so);
    budget_init(&constant, MEM_CONSTANT, so);
    for (int i = 0; i < given->nmem; i++) {
        MemChoice *m = &given->mem[i];
        Symbol *s = NULL;
        for (int j = 0; j < k->nparams; j++)
            if (strcmp(k->params[j]->name, m->array) == 0 &&
                (type_is_grid(k->params[j]->type) || k->params[j]->type->kind == TY_ARRAY))
                s = k->params[j];
        if (!s)
            continue;
        m->used = true;
        const char *why;
        if (!placement_allowed(a, k, s, m->mem, so, &why)) {
            diag_plain_error(d, "parameter '%s': value '%s' is not allowed: '%s' cannot be in %s memory: %s",
                             params_family_name(a, P_mem, m->array), mem_kind_name(m->mem), m->array,
                             mem_kind_name(m->mem), why);
            ok = false;
            continue;
        }
        if (m->mem == MEM_SHARED)
            budget_add(&shared, a, k, s, so);
        else if (m->mem == MEM_CONSTANT)
            budget_add(&constant, a, k, s, so);
    }
    const char *shared_first, *constant_first;
    long long shared_bytes = budget_cost(&shared, out, &shared_first);
    long long constant_bytes = budget_cost(&constant, out, &constant_first);
    /* The C reference places nothing: the budgets are the devices'. */
    bool device = so->backend->gpu;
    if (device && shared_bytes > so->shared_limit) {
        diag_plain_error(d, "parameter '%s': the shared-memory tiles of kernel '%s' take %lld bytes with this block shape and coarsening, more than the %lld bytes a block may use (--shared-limit)",
                         params_family_name(a, P_mem, shared_first), k->name, shared_bytes, so->shared_limit);
        ok = false;
    }
    if (device && constant_bytes > so->constant_limit) {
        diag_plain_error(d, "parameter '%s': the constant-memory arrays of kernel '%s' take %lld bytes, more than the %lld bytes of constant memory",
                         params_family_name(a, P_mem, constant_first), k->name, constant_bytes, so->constant_limit);
        ok = false;
    }
    LoopTable loops = analyze_loops(d->arena, k);
    for (int i = 0; i < given->nunroll; i++)
        ok &= check_unroll(&given->unroll[i], k, &loops, a, d);
    /* Placements are properties of the kernel's arrays while it is compiled. */
    for (int j = 0; j < k->nparams; j++)
        k->params[j]->mem = params_mem_of(out, k->params[j]->name);
    if (ok && !check_register(k, out, d))
        ok = false;
    if (ok && out->stream_z && !check_stream_z(a, k, out, d))
        ok = false;
    if (ok && out->batch_loop && !check_batch_loop(k, out, d))
        ok = false;
    if (ok && out->time_tile > 1 && !check_time_tile(k, out, so, d))
        ok = false;
    /* 0, the choice at run time, where the steps fuse; elsewhere a launch per step */
    if (out->time_tile == 0 && (!k->iterate[0] || k->iterate_radius < 0 || !fuses_steps(out, so)))
        out->time_tile = 1;
    /* Registers (tune/registers.c): the budget of the device backends. */
    if (ok && !registers_check(a, k, out, so, d))
        ok = false;
    /* The size of the unrolled code (tune/unrolled.c): what a device compiler takes. */
    if (ok && !unrolled_check(a, k, out, so, d))
        ok = false;
    return ok;
}

static bool has_while(Node *n, void *found)
{
    if (n->kind == AST_WHILE || n->kind == AST_DO)
        *(bool *)found = true;
    return !*(bool *)found;
}

/* The CPU variant of k from g (its unroll choices made): rows of PARAMS_CPU_BLOCK_X
 * work-items, or where it can, a work-item walking each row (TuneParams.row_walk).
 * False where g is not legal for k, or walk_only asks for a walk that k cannot have. */
static bool cpu_params(TuneParams *g, Function *k, const SpaceOptions *so, Arena *a, bool walk_only,
                       TuneParams *cpu)
{
    static const int block[3] = {PARAMS_CPU_BLOCK_X, 1, 1};
    for (int i = 0; i < 3; i++) {
        g->block[i] = block[i];
        g->block_given[i] = true;
    }
    g->interior = 0;
    Diag quiet;
    diag_init(&quiet, a, NULL);
    if (!params_for_kernel(g, k, so, a, cpu, &quiet))
        return false;
    /* 128-wide rows leave most of a narrow grid's work-items idle (measured on
     * PoCL, sum7 at 32^3: 0.204 ms in rows of 128, 0.034 in rows of 32). */
    cpu->row_fit = cpu->coarsen[0] == 1;
    cpu->cpu_variant = true;
    bool walk = cpu->coarsen[0] == 1 && cpu->coarsen[1] == 1 && cpu->coarsen[2] == 1 && !cpu->stream_z
             && k->grid_dims >= 2;
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i]->type && type_is_grid(k->params[i]->type)) {
            MemKind mem = params_mem_of(cpu, k->params[i]->name);
            if (mem == MEM_SHARED)
                cpu->row_fit = false;
            walk &= mem != MEM_SHARED && mem != MEM_REGISTER;
        }
    if (walk_only && !walk)
        return false;
    /* Measured on PoCL (docs/performance.md, "The CPU variant's row walk"): rows
     * walked by one work-item each ran the AN5D set's stencils 2-7x faster than rows
     * of work-items (star3d1r double 0.46 -> 1.88 GStencil/s, box3d1r float 0.12 ->
     * 0.85), 27 of its 42 kernels at 0.8x the C reference or more. */
    if (walk) {
        cpu->row_walk = true;
        cpu->row_fit = false;
        cpu->interior = 1;
        cpu->block[0] = 1;
        cpu->block[1] = PARAMS_CPU_ROWS;
        cpu->block[2] = 1;
    }
    /* (the walk's interior copy where it fits: tune/unrolled.c) */
    return unrolled_check(a, k, cpu, so, &quiet);
}

bool params_check_time_tile_cpu(const TuneParams *tp, const TuneParams *cpu, const Function *k,
                                const SpaceOptions *so, Diag *d)
{
    if (!so->backend->time_tile_cpu || tp->time_tile <= 1 || (cpu && cpu->row_walk))
        return true;
    diag_plain_error(d, "parameter '%s': value %d is not allowed (the %s backend fuses steps in the row "
                        "walk of its variant for CPU devices, which kernel '%s' does not have with these "
                        "parameters; expected 1)", PARAM_NAME(time_tile), tp->time_tile, so->backend->name,
                     k->name);
    return false;
}

bool params_cpu_variant(const TuneParams *given, Function *k, const SpaceOptions *so, Arena *a, TuneParams *cpu)
{
    if (!so->backend->cpu_variant || given->geometry_given)
        return false;
    /* Measured on PoCL's CPU device (docs/performance.md, "Defaults"): a work-group
     * is a loop over its work-items, which the device compiler vectorises along x;
     * long rows give it long vectors, and without the split of pass_interior no
     * branch is left in that loop. It vectorises no work-item that runs a loop of
     * its own, so every for loop is unrolled whole (those not unrolled by `given`):
     * a kernel with a while loop, or a for loop of unknown or long trip count, keeps
     * the default on every device. */
    bool whiles = false;
    ast_walk(ast_point_body(k), has_while, &whiles);
    if (whiles)
        return false;
    /* Except where the walk along a row can go in lanes (analysis/lanes.c): nests of
     * more than 32 taps stay loops, each tap over a chunk of the row's points. On PoCL,
     * 2D boxes of radius r in float / double, GStencil/s unrolled whole against lanes:
     * r = 2 (25 taps) 1.06 / 1.35, 0.83 / 0.78; r = 3 (49) 0.65 / 0.94, 0.33 / 0.50;
     * r = 4 (81) 0.28 / 0.65, 0.15 / 0.37 (docs/performance.md, "The CPU variant's
     * row walk"). */
    Lanes lanes;
    TuneParams g = *given;
    if (lanes_plan(a, ast_point_body(k), NULL, &lanes) && cpu_params(&g, k, so, a, true, cpu)) {
        cpu->lanes = true;
        return true;
    }
    g = *given;
    LoopTable loops = analyze_loops(a, k);
    g.unroll = arena_alloc(a, sizeof *g.unroll * (size_t)(given->nunroll + loops.n + 1));
    g.capunroll = given->nunroll + loops.n + 1;
    if (given->nunroll)
        memcpy(g.unroll, given->unroll, sizeof *g.unroll * (size_t)given->nunroll);
    long long copies = 1;
    for (int i = 0; i < loops.n; i++) {
        const LoopInfo *li = &loops.items[i];
        if (unroll_choice(given, li))
            continue;
        if (!li->unrollable || !li->trip_known || li->trip > PARAMS_CPU_UNROLLED)
            return false;
        copies *= li->trip > 1 ? li->trip : 1;
        if (copies > PARAMS_CPU_UNROLLED)
            return false;
        g.unroll[g.nunroll++] = (UnrollChoice){li->label ? 0 : li->line, li->label, (int)li->trip, false};
        g.unrolled_whole |= li->trip > 1;
    }
    return cpu_params(&g, k, so, a, false, cpu);
}

void params_cpu_fit(const TuneParams *cpu, int W, int H, int block[3])
{
    for (int d = 0; d < 3; d++)
        block[d] = cpu->block[d];
    if (!cpu->row_fit)
        return;
    int bx = 8, by = 1;
    while (bx < W && bx < cpu->block[0])
        bx *= 2;
    while (bx < cpu->block[0] && by < H && bx * by < PARAMS_CPU_GROUP)
        by *= 2;
    block[0] = bx;
    block[1] = by;
}

MemKind params_mem_of(const TuneParams *tp, const char *array)
{
    for (int i = 0; i < tp->nmem; i++)
        if (strcmp(tp->mem[i].array, array) == 0)
            return tp->mem[i].mem;
    return MEM_GLOBAL;
}

bool params_check_unused(const TuneParams *tp, Diag *d)
{
    bool ok = true;
    for (int i = 0; i < tp->nmem; i++)
        if (!tp->mem[i].used) {
            diag_plain_error(d, "parameter '%s': no kernel has an array named '%s'",
                             params_family_name(d->arena, P_mem, tp->mem[i].array), tp->mem[i].array);
            ok = false;
        }
    for (int i = 0; i < tp->nunroll; i++) {
        const UnrollChoice *u = &tp->unroll[i];
        if (u->used)
            continue;
        if (u->label)
            diag_plain_error(d, "parameter '%s': no for loop is labelled '%s'", params_unroll_name(d->arena, u),
                             u->label);
        else
            diag_plain_error(d, "parameter '%s': no for loop starts on line %d", params_unroll_name(d->arena, u),
                             u->line);
        ok = false;
    }
    return ok;
}
