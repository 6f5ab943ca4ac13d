/* What a generated file holds before the place a host runtime file is copied to, so
 * that the runtime file compiles on its own (tests/lit/runtime, docs/architecture.md,
 * "Host runtime"): the headers the generated file includes, its return codes for a
 * kernel whose host name is PK (the OpenCL runtime compiles as it is). tests/lit/runtime
 * includes it, then the runtime file, then a function that names each static helper of
 * the file, as the rest of the generated file would. */
#ifndef IMCL_RUNTIME_PRELUDE_H
#define IMCL_RUNTIME_PRELUDE_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__CUDACC__)
/* K.cu: nvcc includes cuda_runtime.h itself; K.cu names it too */
#include <cuda_runtime.h>
#else
/* K_ref.c: its headers */
#include <math.h>
#endif

/* K.h's return codes (wrappers/header.c) */
enum {
    PK_OK = 0,
    PK_ERR_ARGUMENT = -1,
    PK_ERR_DEVICE = -2,
    PK_ERR_MEMORY = -3,
    PK_ERR_TRANSFER = -4,
    PK_ERR_BUILD = -5,
    PK_ERR_LAUNCH = -6
};

#endif
