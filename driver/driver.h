/* The compiler pipeline behind the command line. */
#ifndef IMCL_DRIVER_H
#define IMCL_DRIVER_H

#include <stdbool.h>

typedef enum Backend { BACKEND_CUDA, BACKEND_OPENCL, BACKEND_C, BACKEND_COUNT } Backend;

typedef struct DriverOptions {
    const char *input;
    const char *params_file;
    const char *output_dir;
    const char *kernel;
    const char *prefix;
    bool backends[BACKEND_COUNT];
    bool any_backend;
    bool dump_space;
    const char *dump_format;
    int size[3];
    int size_dims;          /* 0 when --size was not given */
    long long shared_limit; /* --shared-limit, 0 for the backend's default */
    bool emit_ast;
    bool footprint;
} DriverOptions;

void driver_options_init(DriverOptions *o);
bool driver_add_backend(DriverOptions *o, const char *name);
bool driver_parse_size(DriverOptions *o, const char *text);
/* Runs the whole compilation; returns the exit status (0, 1 or 2). */
int driver_run(const DriverOptions *o);

#endif
