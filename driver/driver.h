/* The compiler pipeline behind the command line. */
#ifndef IMCL_DRIVER_H
#define IMCL_DRIVER_H

#include <stdbool.h>

#include "backend.h"

/* Every backend (driver/backends.c); the first is the default. */
extern const Backend *const driver_backends[];
extern const int driver_nbackends;

typedef struct DriverOptions {
    const char *input;
    const char *params_file;
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
    double bandwidth;       /* --bandwidth GB/s, 0 when not given */
    double peak;            /* --peak GFLOP/s, 0 when not given */
} DriverOptions;

void driver_options_init(DriverOptions *o);
bool driver_add_backend(DriverOptions *o, const char *name);
bool driver_parse_size(DriverOptions *o, const char *text);
/* Runs the whole compilation; returns the exit status (0, 1 or 2). */
int driver_run(const DriverOptions *o);

#endif
