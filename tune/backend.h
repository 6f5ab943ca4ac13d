/* A backend as the layers below the driver see it: one row per backend, each
 * defined in its own folder (backend_X/), listed once in driver/backends.c. Code
 * that differs between backends asks the row, never compares a backend's name. */
#ifndef IMCL_BACKEND_H
#define IMCL_BACKEND_H

#include <stdbool.h>

struct Target;
struct EmitCtx;
struct Outputs;

typedef struct Backend {
    const char *name;                /* -b NAME */
    const struct Target *target;     /* how kernel code is printed (ast/unparse.h) */
    /* Adds the backend's files for one kernel (docs/wrappers.md); returns the
     * number of errors it reported. */
    int (*emit)(struct EmitCtx *e, struct Outputs *out);
    /* A GPU backend runs the tuning passes (shared and texture memory, unrolling,
     * the thread mapping); the C reference runs the kernel as written. */
    bool gpu;
    long long shared_limit;          /* default bytes of shared memory per block */
    long long constant_limit;        /* bytes of constant memory */
    bool constant_needs_size;        /* constant copies are sized when compiled (CUDA) */
    /* The host finds the device type at run time, and a configuration that leaves the
     * geometry to imcl gets a second variant of the kernel for CPU devices
     * (params_cpu_variant). */
    bool cpu_variant;
    /* The loop over x of a row runs a function that reaches the arrays through
     * restrict pointers to the row (Function.rows, pass_global_memory). */
    bool row_pointers;
    /* Threads of a warp exchange registers (__shfl_sync): mem_<array> register. */
    bool warp_shuffles;
    /* In a kernel with a barrier, the test that picks the interior copy also reads
     * the thread's index (a test that always holds), so that the device compiler sees
     * a branch that may differ between work-items: PoCL 3.1 runs the second copy twice
     * for the first work-item of a group when the test reads block indices only and
     * both copies hold loops (docs/testing.md, "Root causes"). */
    bool split_reads_thread;
    /* PK_plan_iterate fuses time_tile steps of an iterated kernel in one pass over
     * memory (the C reference's wavefront, backend_c/plan_c.c); elsewhere the space
     * lists no time_tile and -t refuses one above 1. */
    bool time_tile;
    /* The same in the CPU variant's row walk alone (OpenCL on a CPU device: its parts of
     * the wavefront are launches, params_cpu_parts); the dump lists the values as
     * time_tile_cpu, and -t takes one above 1 only where that variant runs. */
    bool time_tile_cpu;
    /* PK_plan_memory is device memory a GPU-aware MPI takes (CUDA's device pointers):
     * the distributed plans exchange in it where MPI says it can (wrappers/dist.c). */
    bool mpi_device_memory;
    /* The T1 document (Kernel Tuner, KTT, BAT) of a kernel: */
    const char *t1_language;         /* "CUDA", "OpenCL", "C" */
    const char *t1_kernel_name;      /* printf format of the kernel function, %s its name */
    /* The kernel function is a symbol of the program (CUDA's __global__, not OpenCL's
     * kernel of its own program): its name carries --prefix, so that two builds of one
     * kernel with different prefixes link into one program. */
    bool kernel_prefixed;
    const char *t1_kernel_file;      /* and of the file that defines it */
    /* GlobalSizeType: "CUDA" counts blocks, "OpenCL" work-items; NULL: none. */
    const char *t1_global_size_type;
} Backend;

#endif
