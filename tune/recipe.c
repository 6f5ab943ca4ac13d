/* Lua recipes (docs/recipes.md): a recipe run in a sandboxed Lua 5.4 sets a kernel's
 * configuration as a params.json would, from tunables an autotuner fills.
 *
 * The recipe runs once per kernel and backend, with read-only facts about them as
 * globals (backend, size, name, arrays, limits). Its calls (block, coarsen, mapping,
 * interior, place, unroll, stream_z, param) set parameters; what they set becomes a
 * flat JSON configuration that goes through params_load_text and params_for_kernel
 * like a params.json, so a recipe and the equivalent JSON give the same files and the
 * same refusals, reported at the recipe line that set the parameter. The sandbox has
 * the base, string, table and math libraries without the functions that reach files
 * or load code (dofile, loadfile, load, require), a memory limit and an instruction
 * limit. */
#include "recipe.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"

#define RECIPE_MAX_MEMORY (64u << 20)          /* bytes a recipe's Lua state may hold */
#define RECIPE_MAX_INSTRUCTIONS 100000000LL   /* Lua instructions one run may execute */
#define RECIPE_HOOK_STEP 10000                 /* instructions between two checks */
#define RECIPE_MAX_CONFIGS 20000               /* configurations --dump-space checks */

typedef struct Limits {
    size_t used, max;
    long long steps;
} Limits;

/* What the API functions of one run see (their upvalue). */
typedef struct Run {
    RecipeRun *out;
    const cJSON *values;
    const Program *prog;
    const char *kernel;
} Run;

/* ---- the sandbox ------------------------------------------------------------------- */

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Limits *l = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        l->used -= old;
        return NULL;
    }
    if (nsize > old && l->used - old + nsize > l->max)
        return NULL;
    void *p = realloc(ptr, nsize);
    if (p)
        l->used = l->used - old + nsize;
    return p;
}

/* Stops a recipe past its instruction limit, at the line it was running (as every
 * other recipe error names its line: luaL_error would name the caller's). */
static void count_hook(lua_State *L, lua_Debug *ar)
{
    void *ud;
    lua_getallocf(L, &ud);
    Limits *l = ud;
    l->steps += RECIPE_HOOK_STEP;
    if (l->steps <= RECIPE_MAX_INSTRUCTIONS)
        return;
    int millions = (int)(RECIPE_MAX_INSTRUCTIONS / 1000000);
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: the recipe ran more than %d million Lua instructions", ar->short_src,
                        ar->currentline, millions);
    else
        lua_pushfstring(L, "the recipe ran more than %d million Lua instructions", millions);
    lua_error(L);
}

/* print() writes to stderr: stdout may be a dumped space. */
static int lua_print_stderr(lua_State *L)
{
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        fputs(luaL_tolstring(L, i, NULL), stderr);
        lua_pop(L, 1);
        fputc(i < n ? '\t' : '\n', stderr);
    }
    return 0;
}

static lua_State *sandbox(Limits *lim)
{
    lim->used = 0;
    lim->max = RECIPE_MAX_MEMORY;
    lim->steps = 0;
    lua_State *L = lua_newstate(limited_alloc, lim);
    if (!L)
        return NULL;
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base}, {LUA_TABLIBNAME, luaopen_table}, {LUA_STRLIBNAME, luaopen_string},
        {LUA_MATHLIBNAME, luaopen_math}};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        luaL_requiref(L, libs[i].name, libs[i].func, 1);
        lua_pop(L, 1);
    }
    static const char *const removed[] = {"dofile", "loadfile", "load", "require", "collectgarbage"};
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, removed[i]);
    }
    lua_pushcfunction(L, lua_print_stderr);
    lua_setglobal(L, "print");
    /* string.dump makes bytecode, which nothing here may load. */
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_sethook(L, count_hook, LUA_MASKCOUNT, RECIPE_HOOK_STEP);
    return L;
}

/* Reports the error on top of L (a Lua message, `path:LINE: text` when it has a
 * position) at its line of the recipe. */
static void report(Diag *d, const Recipe *r, lua_State *L, int status)
{
    if (status == LUA_ERRMEM) {
        diag_plain_error(d, "%s: the recipe needs more than %u MiB of memory", r->path, RECIPE_MAX_MEMORY >> 20);
        return;
    }
    const char *msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "(an error without a message)";
    size_t n = strlen(r->path);
    if (strncmp(msg, r->path, n) == 0 && msg[n] == ':') {
        char *end;
        long line = strtol(msg + n + 1, &end, 10);
        if (end > msg + n + 1 && *end == ':' && line > 0) {
            const char *text = end + 1;
            while (*text == ' ')
                text++;
            diag_error(d, (Loc){r->path, (int)line, 0}, "%s", text);
            return;
        }
    }
    diag_plain_error(d, "%s: %s", r->path, msg);
}

/* ---- the recipe's API ------------------------------------------------------------------- */

static Run *run_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

static int caller_line(lua_State *L)
{
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar))
        return ar.currentline;
    return 0;
}

/* The value at idx as JSON: an integer (a float only when it is one), a string, or a
 * boolean as 0 / 1. */
static cJSON *json_value(lua_State *L, int idx, const char *what)
{
    if (lua_type(L, idx) == LUA_TBOOLEAN)
        return cJSON_CreateNumber(lua_toboolean(L, idx));
    if (lua_type(L, idx) == LUA_TSTRING)
        return cJSON_CreateString(lua_tostring(L, idx));
    int isint;
    lua_Integer v = lua_tointegerx(L, idx, &isint);
    if (lua_type(L, idx) == LUA_TNUMBER && isint)
        return cJSON_CreateNumber((double)v);
    luaL_error(L, "%s must be an integer or a string, not %s", what,
               lua_type(L, idx) == LUA_TNUMBER ? "a fraction" : luaL_typename(L, idx));
    return NULL;
}

static void set(lua_State *L, const char *name, cJSON *value)
{
    Run *run = run_of(L);
    cJSON_DeleteItemFromObjectCaseSensitive(run->out->config, name);
    cJSON_AddItemToObject(run->out->config, name, value);
    cJSON_DeleteItemFromObjectCaseSensitive(run->out->lines, name);
    cJSON_AddNumberToObject(run->out->lines, name, caller_line(L));
}

/* block{x=, y=, z=} and coarsen{x=, y=, z=}: the parameters from `first` on */
static int xyz(lua_State *L, const char *fn, ParamId first)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        if (strcmp(k, "x") && strcmp(k, "y") && strcmp(k, "z"))
            return luaL_error(L, "%s: unknown field '%s' (expected x, y, z)", fn, k);
        const char *name = params_table[first + (k[0] - 'x')].name;
        set(L, name, json_value(L, -1, name));
        lua_pop(L, 1);
    }
    return 0;
}

static int api_block(lua_State *L)
{
    return xyz(L, "block", P_block_size_x);
}

static int api_coarsen(lua_State *L)
{
    return xyz(L, "coarsen", P_coarsen_x);
}

static int api_mapping(lua_State *L)
{
    const char *m = luaL_checkstring(L, 1);
    if (strcmp(m, "interleaved") && strcmp(m, "blocked"))
        return luaL_error(L, "mapping: '%s' is not a mapping (expected \"interleaved\" or \"blocked\")", m);
    set(L, PARAM_NAME(interleaved), cJSON_CreateNumber(strcmp(m, "interleaved") == 0));
    return 0;
}

static int api_interior(lua_State *L)
{
    set(L, PARAM_NAME(interior), json_value(L, 1, PARAM_NAME(interior)));
    return 0;
}

static int api_place(lua_State *L)
{
    const char *array = luaL_checkstring(L, 1);
    const char *mem = luaL_checkstring(L, 2);
    char name[256];
    params_family_snprint(name, sizeof name, P_mem, array);
    set(L, name, cJSON_CreateString(mem));
    return 0;
}

static int api_unroll(lua_State *L)
{
    char name[256], line[32];
    if (lua_type(L, 1) == LUA_TNUMBER) {
        snprintf(line, sizeof line, "%lld", (long long)luaL_checkinteger(L, 1));
        params_family_snprint(name, sizeof name, P_unroll_line, line);
    } else {
        params_family_snprint(name, sizeof name, P_unroll_label, luaL_checkstring(L, 1));
    }
    set(L, name, json_value(L, 2, name));
    return 0;
}

static int api_stream_z(lua_State *L)
{
    set(L, PARAM_NAME(stream_z), json_value(L, 1, PARAM_NAME(stream_z)));
    return 0;
}

static int api_param(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    set(L, name, json_value(L, 2, name));
    return 0;
}

static bool same_value(const cJSON *a, const cJSON *b)
{
    return cJSON_Compare(a, b, true);
}

/* tunable("TX", {8, 16, 32}, 16): the value given for TX (or the default), also
 * set as the global TX. */
static int api_tunable(lua_State *L)
{
    Run *run = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    if (cJSON_GetObjectItemCaseSensitive(run->out->tunables, name))
        return luaL_error(L, "tunable '%s' is declared twice", name);
    cJSON *values = cJSON_CreateArray();
    lua_Integer n = luaL_len(L, 2);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 2, i);
        int isint = 0;
        lua_Integer iv = lua_tointegerx(L, -1, &isint);
        cJSON *v = lua_type(L, -1) == LUA_TSTRING ? cJSON_CreateString(lua_tostring(L, -1))
                   : lua_type(L, -1) == LUA_TNUMBER && isint ? cJSON_CreateNumber((double)iv)
                                                              : NULL;
        lua_pop(L, 1);
        if (!v) {
            cJSON_Delete(values);
            return luaL_error(L, "tunable '%s': entry %d of its values is not an integer or a string", name, (int)i);
        }
        cJSON_AddItemToArray(values, v);
    }
    if (n < 1) {
        cJSON_Delete(values);
        return luaL_error(L, "tunable '%s' has no values", name);
    }
    cJSON *def = lua_isnoneornil(L, 3) ? cJSON_Duplicate(cJSON_GetArrayItem(values, 0), true) : json_value(L, 3, name);
    bool listed = false;
    for (cJSON *v = values->child; v; v = v->next)
        listed |= same_value(v, def);
    if (!listed) {
        cJSON_Delete(values);
        cJSON_Delete(def);
        return luaL_error(L, "tunable '%s': the default is not one of its values", name);
    }
    cJSON *t = cJSON_AddObjectToObject(run->out->tunables, name);
    cJSON_AddItemToObject(t, "values", values);
    cJSON_AddItemToObject(t, "default", def);
    cJSON_AddNumberToObject(t, "line", caller_line(L));
    const cJSON *given = run->values ? cJSON_GetObjectItemCaseSensitive(run->values, name) : NULL;
    const cJSON *chosen = def;
    if (given) {
        listed = false;
        for (cJSON *v = values->child; v; v = v->next)
            listed |= same_value(v, given);
        if (!listed) {
            char *text = cJSON_PrintUnformatted(given);
            lua_pushfstring(L, "tunable '%s': value %s is not one of its values", name, text ? text : "?");
            free(text);
            return luaL_error(L, "%s", lua_tostring(L, -1));
        }
        chosen = given;
        cJSON_AddItemToArray(run->out->used, cJSON_CreateString(name));
    }
    if (cJSON_IsString(chosen))
        lua_pushstring(L, chosen->valuestring);
    else
        lua_pushinteger(L, (lua_Integer)chosen->valuedouble);
    lua_pushvalue(L, -1);
    lua_setglobal(L, name);
    return 1;
}

static int api_constraint(lua_State *L)
{
    Run *run = run_of(L);
    const char *expr = luaL_checkstring(L, 1);
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "expr", expr);
    cJSON_AddNumberToObject(c, "line", caller_line(L));
    cJSON_AddItemToArray(run->out->constraints, c);
    return 0;
}

/* kernel("name", function () ... end): runs the function for that kernel only. */
static int api_kernel(lua_State *L)
{
    Run *run = run_of(L);
    const char *name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    bool known = false;
    for (int i = 0; i < run->prog->nfuncs; i++)
        known |= run->prog->funcs[i]->is_kernel && strcmp(run->prog->funcs[i]->name, name) == 0;
    if (!known)
        return luaL_error(L, "kernel '%s': the source has no kernel of that name", name);
    if (strcmp(name, run->kernel) == 0)
        lua_call(L, 0, 0);
    return 0;
}

/* ---- facts ------------------------------------------------------------------------------- */

static const char *elem_name(TypeKind k)
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
    default: return "?";
    }
}

static void set_int_field(lua_State *L, const char *k, long long v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

/* arrays: name -> {kind, type, read, written, halo, footprint = {x = {min, max}, ...}} */
static void push_arrays(lua_State *L, Arena *a, Function *k)
{
    lua_newtable(L);
    Footprint *fp = analyze_footprint(a, k);
    for (int i = 0; i < k->nparams; i++) {
        Symbol *s = k->params[i];
        bool grid = type_is_grid(s->type);
        if (!grid && s->type->kind != TY_ARRAY)
            continue;
        lua_newtable(L);
        lua_pushstring(L, grid ? (s->type->kind == TY_IMAGE ? "Image" : "Block") : "array");
        lua_setfield(L, -2, "kind");
        lua_pushstring(L, elem_name(s->type->elem->kind));
        lua_setfield(L, -2, "type");
        lua_pushboolean(L, (s->access & ACC_READ) != 0);
        lua_setfield(L, -2, "read");
        lua_pushboolean(L, (s->access & ACC_WRITE) != 0);
        lua_setfield(L, -2, "written");
        if (grid) {
            set_int_field(L, "halo", s->halo);
            /* the box of the reads' offsets, when every one is known */
            int dims = type_grid_dims(s->type);
            long long lo[3] = {0}, hi[3] = {0};
            bool known = true, any = false;
            NodeList acc = ast_query_accesses(a, ast_point_body(k), s);
            for (int j = 0; j < acc.len && known; j++) {
                const AccessFootprint *af = footprint_of(fp, acc.items[j]);
                for (int d = 0; d < dims && known; d++) {
                    known = af && af->known[d];
                    if (known && (!any || af->min[d] < lo[d]))
                        lo[d] = af->min[d];
                    if (known && (!any || af->max[d] > hi[d]))
                        hi[d] = af->max[d];
                }
                any = true;
            }
            if (known && any) {
                lua_newtable(L);
                static const char *const axes[] = {"x", "y", "z"};
                for (int d = 0; d < dims; d++) {
                    lua_newtable(L);
                    lua_pushinteger(L, lo[d]);
                    lua_rawseti(L, -2, 1);
                    lua_pushinteger(L, hi[d]);
                    lua_rawseti(L, -2, 2);
                    lua_setfield(L, -2, axes[d]);
                }
                lua_setfield(L, -2, "footprint");
            }
        }
        lua_setfield(L, -2, s->name);
    }
}

static void push_facts(lua_State *L, Arena *a, Function *k, const SpaceOptions *so)
{
    lua_pushstring(L, so->backend->name);
    lua_setglobal(L, "backend");
    lua_pushstring(L, k->name);
    lua_setglobal(L, "name");
    lua_pushinteger(L, k->grid_dims);
    lua_setglobal(L, "dims");
    if (so->size) {
        lua_newtable(L);
        static const char *const axes[] = {"x", "y", "z"};
        for (int d = 0; d < 3; d++)
            set_int_field(L, axes[d], d < so->size_dims ? so->size[d] : 1);
        lua_setglobal(L, "size");
    }
    push_arrays(L, a, k);
    lua_setglobal(L, "arrays");
    lua_newtable(L);
    set_int_field(L, "threads", PARAMS_MAX_BLOCK_THREADS);
    set_int_field(L, "block_z", PARAMS_MAX_BLOCK_Z);
    set_int_field(L, "coarsen", PARAMS_MAX_COARSEN);
    set_int_field(L, "shared", so->shared_limit);
    set_int_field(L, "constant", so->constant_limit);
    set_int_field(L, "warp", PLACEMENT_WARP);
    lua_setglobal(L, "limits");
}

/* ---- runs --------------------------------------------------------------------------------- */

bool recipe_read(Arena *a, Diag *d, const char *path, Recipe *r)
{
    StrBuf sb = {0};
    if (!sb_read_file(&sb, path)) {
        diag_plain_error(d, "cannot read recipe '%s': %s", path, strerror(errno));
        sb_free(&sb);
        return false;
    }
    r->path = arena_strdup(a, path);
    r->len = sb.len;
    r->text = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    diag_add_source(d, r->path, r->text);
    return true;
}

void recipe_run_free(RecipeRun *run)
{
    cJSON_Delete(run->config);
    cJSON_Delete(run->lines);
    cJSON_Delete(run->tunables);
    cJSON_Delete(run->constraints);
    cJSON_Delete(run->used);
    memset(run, 0, sizeof *run);
}

bool recipe_run(Diag *d, const Recipe *r, const Program *prog, Function *k, const SpaceOptions *so,
                const cJSON *values, RecipeRun *out)
{
    out->config = cJSON_CreateObject();
    out->lines = cJSON_CreateObject();
    out->tunables = cJSON_CreateObject();
    out->constraints = cJSON_CreateArray();
    out->used = cJSON_CreateArray();
    Limits lim;
    lua_State *L = sandbox(&lim);
    if (!L) {
        diag_plain_error(d, "%s: cannot start Lua", r->path);
        return false;
    }
    Run run = {out, values, prog, k->name};
    static const luaL_Reg api[] = {
        {"block", api_block}, {"coarsen", api_coarsen}, {"mapping", api_mapping}, {"interior", api_interior},
        {"place", api_place}, {"unroll", api_unroll}, {"stream_z", api_stream_z}, {"param", api_param},
        {"tunable", api_tunable}, {"constraint", api_constraint}, {"kernel", api_kernel}};
    for (size_t i = 0; i < sizeof api / sizeof api[0]; i++) {
        lua_pushlightuserdata(L, &run);
        lua_pushcclosure(L, api[i].func, 1);
        lua_setglobal(L, api[i].name);
    }
    push_facts(L, d->arena, k, so);
    StrBuf chunk = {0};
    sb_printf(&chunk, "@%s", r->path);
    int status = luaL_loadbufferx(L, r->text, r->len, sb_str(&chunk), "t");
    sb_free(&chunk);
    if (status == LUA_OK)
        status = lua_pcall(L, 0, 0, 0);
    if (status != LUA_OK)
        report(d, r, L, status);
    lua_close(L);
    return status == LUA_OK;
}

/* ---- parameters, located ------------------------------------------------------------------- */

typedef struct Located {
    const Recipe *r;
    const RecipeRun *run;
} Located;

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The line that set the parameter a message names first. */
static Loc locate(void *ctx, const char *msg)
{
    const Located *l = ctx;
    const char *best = NULL;
    int line = 0;
    for (const cJSON *p = l->run->lines->child; p; p = p->next) {
        size_t n = strlen(p->string);
        for (const char *at = strstr(msg, p->string); at; at = strstr(at + 1, p->string)) {
            if ((at > msg && word_char(at[-1])) || word_char(at[n]))
                continue;
            if (!best || at < best) {
                best = at;
                line = (int)p->valuedouble;
            }
            break;
        }
    }
    return best && line > 0 ? (Loc){l->r->path, line, 0} : (Loc){0};
}

bool recipe_params(Arena *a, Diag *d, const Recipe *r, const RecipeRun *run, Function *k, const SpaceOptions *so,
                   TuneParams *given, TuneParams *tp)
{
    char *text = cJSON_PrintUnformatted(run->config);
    if (!text) {
        diag_plain_error(d, "%s: out of memory", r->path);
        return false;
    }
    Located l = {r, run};
    Loc (*saved)(void *, const char *) = d->locate;
    void *saved_ctx = d->locate_ctx;
    d->locate = locate;
    d->locate_ctx = &l;
    params_init(given);
    bool ok = params_load_text(given, r->path, text, a, d) && params_for_kernel(given, k, so, a, tp, d) &&
              params_check_unused(given, d);
    d->locate = saved;
    d->locate_ctx = saved_ctx;
    free(text);
    return ok;
}

/* Lua spells != as ~=; Python, which tuners evaluate restrictions in, the other way. */
static char *respell(const char *expr, const char *from, const char *to)
{
    StrBuf sb = {0};
    for (const char *p = expr; *p;) {
        if (strncmp(p, from, 2) == 0) {
            sb_puts(&sb, to);
            p += 2;
        } else {
            sb_putc(&sb, *p++);
        }
    }
    char *r = strdup(sb_str(&sb));
    sb_free(&sb);
    return r;
}

bool recipe_constraints_hold(Diag *d, const Recipe *r, const RecipeRun *run, const cJSON *values,
                             const cJSON **failed)
{
    *failed = NULL;
    if (!run->constraints->child)
        return true;
    Limits lim;
    lua_State *L = sandbox(&lim);
    if (!L) {
        diag_plain_error(d, "%s: cannot start Lua", r->path);
        return false;
    }
    /* the tunables' values as globals, defaults where values has none */
    for (const cJSON *t = run->tunables->child; t; t = t->next) {
        const cJSON *v = values ? cJSON_GetObjectItemCaseSensitive(values, t->string) : NULL;
        if (!v)
            v = cJSON_GetObjectItemCaseSensitive(t, "default");
        if (cJSON_IsString(v))
            lua_pushstring(L, v->valuestring);
        else
            lua_pushinteger(L, (lua_Integer)v->valuedouble);
        lua_setglobal(L, t->string);
    }
    bool ok = true;
    for (const cJSON *c = run->constraints->child; c && ok && !*failed; c = c->next) {
        const char *expr = cJSON_GetObjectItemCaseSensitive(c, "expr")->valuestring;
        int line = (int)cJSON_GetObjectItemCaseSensitive(c, "line")->valuedouble;
        char *lua_expr = respell(expr, "!=", "~=");
        StrBuf src = {0};
        sb_printf(&src, "return (%s)", lua_expr);
        free(lua_expr);
        int status = luaL_loadbufferx(L, sb_str(&src), src.len, "=constraint", "t");
        sb_free(&src);
        if (status == LUA_OK)
            status = lua_pcall(L, 0, 1, 0);
        if (status != LUA_OK) {
            const char *msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "error";
            if (strncmp(msg, "constraint:", 11) == 0 && strchr(msg + 11, ':'))
                msg = strchr(msg + 11, ':') + 1;
            while (*msg == ' ')
                msg++;
            diag_error(d, (Loc){r->path, line, 0}, "constraint '%s': %s", expr, msg);
            ok = false;
        } else if (!lua_toboolean(L, -1)) {
            *failed = c;
        }
        lua_settop(L, 0);
    }
    lua_close(L);
    return ok;
}

/* ---- the recipe's space ------------------------------------------------------------------- */

/* The next configuration of the tunables' cross product (an odometer over idx);
 * false after the last. */
static bool next_config(const RecipeRun *run, int *idx, int n)
{
    int i = 0;
    for (const cJSON *t = run->tunables->child; t && i < n; t = t->next, i++) {
        int m = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "values"));
        if (++idx[i] < m)
            return true;
        idx[i] = 0;
    }
    return false;
}

static cJSON *config_at(const RecipeRun *run, const int *idx)
{
    cJSON *cfg = cJSON_CreateObject();
    int i = 0;
    for (const cJSON *t = run->tunables->child; t; t = t->next, i++)
        cJSON_AddItemToObject(cfg, t->string,
                              cJSON_Duplicate(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(t, "values"), idx[i]),
                                              true));
    return cfg;
}

/* Whether imcl compiles configuration cfg of the recipe; when not, *why holds the
 * first message (malloc'd). */
static bool admitted(Arena *a, const Recipe *r, const Program *prog, Function *k, const SpaceOptions *so,
                     const cJSON *cfg, char **why)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    Diag q;
    diag_init(&q, a, mem);
    RecipeRun run;
    TuneParams given, tp;
    bool ok = recipe_run(&q, r, prog, k, so, cfg, &run) && recipe_params(a, &q, r, &run, k, so, &given, &tp);
    recipe_run_free(&run);
    if (mem)
        fclose(mem);
    if (!ok && text) {
        char *nl = strchr(text, '\n');
        if (nl)
            *nl = '\0';
        *why = text;
        return false;
    }
    free(text);
    return ok;
}

cJSON *recipe_space(Arena *a, Diag *d, const Recipe *r, const Program *prog, Function *k, const SpaceOptions *so)
{
    RecipeRun run0;
    TuneParams given, tp;
    if (!recipe_run(d, r, prog, k, so, NULL, &run0) || !recipe_params(a, d, r, &run0, k, so, &given, &tp)) {
        recipe_run_free(&run0);
        return NULL;
    }
    int n = cJSON_GetArraySize(run0.tunables);
    long long total = 1;
    for (const cJSON *t = run0.tunables->child; t; t = t->next)
        total *= cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "values"));
    if (total > RECIPE_MAX_CONFIGS) {
        diag_plain_error(d, "%s: kernel '%s': the recipe's tunables make %lld configurations, more than the %d "
                            "imcl checks before it dumps a space", r->path, k->name, total, RECIPE_MAX_CONFIGS);
        recipe_run_free(&run0);
        return NULL;
    }
    /* Every configuration the constraints admit must compile: the promise of the space. */
    int *idx = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
    bool ok = true;
    long long valid = 0;
    do {
        cJSON *cfg = config_at(&run0, idx);
        const cJSON *failed;
        char *why = NULL;
        if (!recipe_constraints_hold(d, r, &run0, cfg, &failed)) {
            ok = false;
        } else if (!failed && !admitted(a, r, prog, k, so, cfg, &why)) {
            char *text = cJSON_PrintUnformatted(cfg);
            diag_plain_error(d, "%s: kernel '%s': the recipe's space admits %s, which imcl refuses (%s); add a "
                                "constraint that leaves it out", r->path, k->name, text ? text : "?",
                             why ? why : "no message");
            free(text);
            ok = false;
        } else if (!failed) {
            valid++;
        }
        free(why);
        cJSON_Delete(cfg);
    } while (ok && next_config(&run0, idx, n));
    if (!ok) {
        recipe_run_free(&run0);
        return NULL;
    }
    cJSON *doc = space_json_doc(a, k, so);
    cJSON *params = cJSON_CreateObject(), *defs = cJSON_CreateObject(), *restr = cJSON_CreateArray();
    for (const cJSON *t = run0.tunables->child; t; t = t->next) {
        cJSON_AddItemToObject(params, t->string, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(t, "values"), true));
        cJSON_AddItemToObject(defs, t->string, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(t, "default"), true));
    }
    for (const cJSON *c = run0.constraints->child; c; c = c->next) {
        char *py = respell(cJSON_GetObjectItemCaseSensitive(c, "expr")->valuestring, "~=", "!=");
        cJSON_AddItemToArray(restr, cJSON_CreateString(py));
        free(py);
    }
    cJSON_ReplaceItemInObjectCaseSensitive(doc, "parameters", params);
    cJSON_ReplaceItemInObjectCaseSensitive(doc, "defaults", defs);
    cJSON_ReplaceItemInObjectCaseSensitive(doc, "restrictions", restr);
    cJSON_AddStringToObject(doc, "recipe", r->path);
    cJSON_AddNumberToObject(doc, "configurations", (double)valid);
    recipe_run_free(&run0);
    return doc;
}
