/* What the driver hands a backend, and what a backend hands back: the lowered
 * kernel, the chosen tuning parameters, and the text of each output file; and
 * the two pieces every backend adds alike (K.h and the kernel's helper
 * functions). Host-side text helpers: host.h; plan pieces: plan.h. */
#ifndef IMCL_EMIT_H
#define IMCL_EMIT_H

#include "ast.h"
#include "params.h"
#include "placement.h"
#include "unparse.h"

typedef struct OutFile {
    char *name;     /* file name inside the output folder (heap) */
    StrBuf text;
    bool runtime;   /* the host runtime: the same whatever the source, so in no depfile */
} OutFile;

typedef struct Outputs {
    OutFile **files;  /* heap; each file stays where it is while more are added */
    int n, cap;
} Outputs;

/* (wrappers/host.c) */
StrBuf *outputs_add(Outputs *o, const char *name);
void outputs_free(Outputs *o);

typedef struct EmitCtx {
    Arena *a;
    Diag *diag;
    const Program *prog;
    Function *k;              /* the kernel, after the passes */
    const char *prefix;       /* "" when none */
    const char *host_name;    /* prefix + kernel name */
    const TuneParams *tp;
    const struct SpaceOptions *so;  /* backend, --size: sizes constant-memory copies */
    /* The CPU variant of the kernel, after the passes, and its parameters, when the
     * backend picks one at run time (Backend.cpu_variant, params_cpu_variant); else NULL. */
    Function *k_cpu;
    const TuneParams *tp_cpu;
    /* The C reference also defines PK_rows, the kernel over a batch of arrays given
     * as row tables (backend_c.c), which K.h then declares. */
    bool tables;
} EmitCtx;

/* Helper functions of the source file that kernel k calls (wrappers/helpers.c). */
void emit_helpers(Unparser *u, const Program *prog, const Function *k);

/* K.h: identical for every backend (wrappers/header.c); with --mpi, K_dist.c too. */
void header_emit(EmitCtx *e, Outputs *out);

#endif
