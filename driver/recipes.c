/* -r: a Lua recipe (tune/recipe.c) sets the configuration of every kernel for every
 * backend; with --dump-space, the recipe's tunables and constraints are the space. */
#include <cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "emit.h"
#include "recipe.h"

/* The tunables' values of -t: a JSON object, or NULL after an error. */
static cJSON *load_values(Diag *d, const char *path)
{
    StrBuf sb = {0};
    if (!sb_read_file(&sb, path)) {
        diag_plain_error(d, "cannot read '%s': %s", path, strerror(errno));
        sb_free(&sb);
        return NULL;
    }
    cJSON *v = cJSON_Parse(sb_str(&sb));
    sb_free(&sb);
    if (!cJSON_IsObject(v)) {
        diag_plain_error(d, "%s: expected a JSON object of the recipe's tunables", path);
        cJSON_Delete(v);
        return NULL;
    }
    return v;
}

static int dump(Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u, const Recipe *r)
{
    SpaceOptions so = driver_space_options(o, driver_backends[driver_first_backend(o)]);
    cJSON *all = u->nk == 1 ? NULL : cJSON_CreateArray();
    cJSON *one = NULL;
    for (int i = 0; i < u->nk; i++) {
        cJSON *doc = recipe_space(a, diag, r, u->prog, u->kernels[i], &so);
        if (!doc) {
            cJSON_Delete(all);
            return 2;
        }
        if (all)
            cJSON_AddItemToArray(all, doc);
        else
            one = doc;
    }
    char *text = cJSON_Print(all ? all : one);
    if (text)
        printf("%s\n", text);
    free(text);
    cJSON_Delete(all ? all : one);
    return 0;
}

int driver_recipe(Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u)
{
    Recipe r;
    if (!recipe_read(a, diag, o->recipe_file, &r))
        return 2;
    if (o->dump_space)
        return dump(a, diag, o, u, &r);
    cJSON *values = NULL;
    if (o->params_file && !(values = load_values(diag, o->params_file)))
        return 2;
    cJSON *used = cJSON_CreateArray();
    unsigned backends = o->backends ? o->backends : 1u;
    Outputs out = {0};
    int status = 0;
    for (int b = 0; b < driver_nbackends && !status; b++) {
        if (!(backends & 1u << b))
            continue;
        DriverOptions ob = *o;
        ob.backends = 1u << b;
        SpaceOptions so = driver_space_options(o, driver_backends[b]);
        for (int i = 0; i < u->nk && !status; i++) {
            RecipeRun run;
            TuneParams given, tp;
            const cJSON *failed = NULL;
            if (!recipe_run(diag, &r, u->prog, u->kernels[i], &so, values, &run) ||
                !recipe_constraints_hold(diag, &r, &run, values, &failed)) {
                status = 2;
            } else if (failed) {
                Loc at = {r.path, (int)cJSON_GetObjectItemCaseSensitive(failed, "line")->valuedouble, 0};
                diag_error(diag, at, "the configuration %s breaks the constraint '%s'",
                           o->params_file ? o->params_file : "of the defaults",
                           cJSON_GetObjectItemCaseSensitive(failed, "expr")->valuestring);
                status = 2;
            } else if (!recipe_params(a, diag, &r, &run, u->kernels[i], &so, &given, &tp)) {
                status = 2;
            }
            for (const cJSON *n = run.used ? run.used->child : NULL; n; n = n->next)
                cJSON_AddItemToArray(used, cJSON_Duplicate(n, false));
            recipe_run_free(&run);
            if (status)
                break;
            DriverUnit one = {u->prog, &u->kernels[i], 1};
            status = driver_generate(a, diag, &ob, &one, &given, &out);
        }
    }
    /* every value of -t names a tunable the recipe declared */
    for (const cJSON *v = values ? values->child : NULL; v && !status; v = v->next) {
        bool found = false;
        for (const cJSON *n = used->child; n && !found; n = n->next)
            found = strcmp(n->valuestring, v->string) == 0;
        if (!found) {
            diag_plain_error(diag, "%s: '%s' is not a tunable of recipe '%s'", o->params_file, v->string, r.path);
            status = 2;
        }
    }
    if (!status)
        status = driver_write(diag, o->output_dir, &out);
    if (!status)
        status = driver_write_depfile(diag, o, u->prog, &out);
    outputs_free(&out);
    cJSON_Delete(used);
    cJSON_Delete(values);
    return status;
}
