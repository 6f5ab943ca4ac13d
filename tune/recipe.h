/* Lua recipes (docs/recipes.md): a recipe run in a sandboxed Lua 5.4 sets a kernel's
 * configuration as a params.json would, from tunables an autotuner fills. */
#ifndef IMCL_RECIPE_H
#define IMCL_RECIPE_H

#include <cJSON.h>

#include "params.h"
#include "placement.h"

/* A recipe's text, read once. */
typedef struct Recipe {
    const char *path;
    const char *text;
    size_t len;
} Recipe;

/* What one run of a recipe for one kernel and backend gives. */
typedef struct RecipeRun {
    cJSON *config;        /* the configuration: a flat object, as a params.json holds */
    cJSON *lines;         /* parameter name -> the recipe line that set it last */
    cJSON *tunables;      /* name -> {"values": [...], "default": v, "line": n}, in order */
    cJSON *constraints;   /* [{"expr": "TX * TY <= 1024", "line": n}, ...] */
    cJSON *used;          /* the names of `values` a tunable read */
} RecipeRun;

/* Reads the recipe at path into *r (in the arena); reports and returns false when it
 * cannot be read. */
bool recipe_read(Arena *a, Diag *d, const char *path, Recipe *r);
/* Runs recipe r for kernel k of prog on the backend and size of so, the tunables
 * taking their values from `values` (a JSON object; NULL: their defaults). Reports
 * (`recipe.lua:LINE: error: ...`) and returns false on an error; *out is to be freed
 * with recipe_run_free either way. */
bool recipe_run(Diag *d, const Recipe *r, const Program *prog, Function *k, const SpaceOptions *so,
                const cJSON *values, RecipeRun *out);
void recipe_run_free(RecipeRun *run);
/* The parameters of run: its configuration loaded as -t loads a params.json and
 * checked against k as -t checks it (params_for_kernel), *tp the result; an error
 * about a parameter is reported at the recipe line that set it. */
bool recipe_params(Arena *a, Diag *d, const Recipe *r, const RecipeRun *run, Function *k, const SpaceOptions *so,
                   TuneParams *given, TuneParams *tp);
/* *failed: the first constraint of run that does not hold for `values` (a JSON object
 * of tunables; defaults where it has none), NULL when all hold. Reports and returns
 * false when a constraint cannot be evaluated. */
bool recipe_constraints_hold(Diag *d, const Recipe *r, const RecipeRun *run, const cJSON *values,
                             const cJSON **failed);
/* --dump-space -r: the recipe's space of kernel k (imcl format: its tunables, their
 * defaults and its constraints, with the kernel's function, grid and arguments), after
 * checking that imcl compiles every configuration it admits; NULL after an error. */
cJSON *recipe_space(Arena *a, Diag *d, const Recipe *r, const Program *prog, Function *k, const SpaceOptions *so);

#endif
