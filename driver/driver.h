/* The compiler pipeline behind the command line. */
#ifndef IMCL_DRIVER_H
#define IMCL_DRIVER_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "backend.h"

/* Every backend (driver/backends.c); the first is the default. */
extern const Backend *const driver_backends[];
extern const int driver_nbackends;

typedef struct DriverOptions {
    const char *input;
    const char *params_file;
    const char *recipe_file;  /* -r: a Lua recipe sets the configuration (tune/recipe.c) */
    const char *output_dir;
    const char *kernel;
    const char *prefix;
    unsigned backends;      /* bit i: driver_backends[i] was asked for (-b) */
    bool dump_space;
    const char *dump_format;
    int size[3];
    int size_dims;          /* 0 when --size was not given */
    long long shared_limit; /* --shared-limit, 0 for the backend's default */
    bool emit_ast;
    const char *emit_ast_after;  /* --emit-ast=after:PASS: a pass of the pass table */
    bool footprint;
    bool analyze;           /* --analyze: the cost of a grid point and its roofline bound */
    bool liveness;          /* --liveness: live scalars per line, with -t the register estimate */
    double bandwidth;       /* --bandwidth GB/s, 0 when not given */
    double peak;            /* --peak GFLOP/s, 0 when not given */
    const char *batch_file; /* --batch FILE: one configuration per line (driver/batch.c) */
    const char *depfile;    /* --depfile FILE: the generated files' dependencies, for make */
    bool mpi;               /* --mpi: distributed plans over MPI too (docs/mpi.md) */
} DriverOptions;

void driver_options_init(DriverOptions *o);
bool driver_add_backend(DriverOptions *o, const char *name);
bool driver_parse_size(DriverOptions *o, const char *text);
struct SpaceOptions;
/* The backend and device facts that placements depend on. */
struct SpaceOptions driver_space_options(const DriverOptions *o, const Backend *b);
/* The backend of --dump-space and of the batch mode: the first one asked for. */
int driver_first_backend(const DriverOptions *o);
/* Runs the whole compilation; returns the exit status (0, 1 or 2). */
int driver_run(const DriverOptions *o);

/* The steps of driver_run, for the batch mode and the library (driver/libimcl.c).
 * A unit is a parsed, checked and analysed source with the kernels -k selects; it
 * lives in the arena of driver_load. Each configuration may be generated in an arena
 * of its own (freed after it): driver_generate leaves nothing of that arena in the
 * unit that a later configuration reads (placements are set again for each). */
typedef struct DriverUnit {
    Program *prog;
    Function **kernels;
    int nk;
} DriverUnit;

struct TuneParams;
struct Outputs;

/* Parses o->input (or, when text is not NULL, the `len` bytes of text, named o->input
 * in diagnostics), checks it, selects the kernels, takes their dead code out
 * (warning about it) and analyses their accesses and register terms.
 * Returns 0, or the exit status. */
int driver_load(Arena *a, Diag *diag, const DriverOptions *o, const char *text, size_t len, DriverUnit *u);
/* --dump-space: the space of u's kernels, in o->dump_format, for the first backend of o.
 * Returns 0, or 2 after an error in diag (no T1 document for a grid_size kernel). */
int driver_dump_space(FILE *out, Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u);
/* One configuration (`given`, as loaded by params_load) for every backend of o: the
 * files into *out, each name once, laid out as they are written. Returns the exit
 * status; *out is complete only when it is 0 (free it with outputs_free either way). */
int driver_generate(Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u, struct TuneParams *given,
                    struct Outputs *out);
/* Writes every file of out into dir (created when missing), each through a temporary
 * file and a rename. Returns 0 or 2. */
int driver_write(Diag *diag, const char *dir, const struct Outputs *out);
/* --depfile: after driver_write, writes o->depfile (when given) as a make rule: every
 * file of out in o->output_dir, in name order, depends on the source, each file it
 * includes, and the -t and -r files. Returns 0 or 2. */
int driver_write_depfile(Diag *diag, const DriverOptions *o, const Program *prog, const struct Outputs *out);
/* -r (driver/recipes.c): the recipe o->recipe_file sets the configuration of each
 * kernel of u for each backend (the tunables' values from o->params_file when given),
 * and the files are written to o->output_dir; with --dump-space, the recipe's space
 * is printed instead. Returns the exit status. */
int driver_recipe(Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u);
/* --batch (driver/batch.c): every configuration of o->batch_file into
 * o->output_dir/<line>/. Returns 0 when every line was generated, 1 when some failed,
 * 2 when the file cannot be read. */
int driver_batch(Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u);

#endif
