/* The host code of K_host.c that its one-shot wrapper (backend_opencl.c) and its
 * persistent plan (plan_opencl.c) share: the calls of the static helpers K_host.c
 * defines before PK, and the plan generator itself. Private to backend_opencl/. */
#ifndef IMCL_OPENCL_HOST_H
#define IMCL_OPENCL_HOST_H

#include "host.h"

/* `imcl_launch(queue, kernel, [cpu,] ..., [count,] event)`, an expression of type cl_int
 * that sets the kernel's arguments and enqueues it; `cpu` (used when the kernel has a
 * CPU variant) says which variant `kernel` is, `count` (used when the kernel runs
 * batches, host_batchable) how many blocks. */
void opencl_launch_call(StrBuf *sb, const EmitCtx *e, const char *queue, const char *kernel, const char *cpu,
                        HostHandle handle, const char *count, const char *event);
/* In PK and plan_create: the device of an earlier call or plan (imcl_kept), or else
 * picks one (imcl_device, runtime/device.c), into a new local `imcl_dev`, and checks
 * the placements' limits on it (imcl_check_placements), returning the code from the
 * caller on failure. */
void opencl_device_and_checks(HostWriter *w, const EmitCtx *e);
/* Unless `ctx` is already set (the application's, PK_use_queue): `ctx =
 * clCreateContext(...)`, `queue = clCreateCommandQueue(..., properties, ...)`; then
 * imcl_build into `prog` and `kern`, each failure jumping to `label`; `what` is
 * the comment over the build ("build the program"). When the kernel has a CPU variant,
 * `cpu = imcl_cpu_device(imcl_dev)` first, and the variant it says is built. */
void opencl_context_and_build(HostWriter *w, const EmitCtx *e, const char *ctx, const char *queue,
                              const char *properties, const char *prog, const char *kern, const char *cpu,
                              const char *what, const char *label);
/* `lvalue = imcl_image_create(context, ...);` (runtime/image.c) for texture array s
 * filled from host ("NULL" for zeros), in a block with its format and description,
 * extents by their names; then `if (!lvalue)` sets imcl_status and jumps to `label`. */
void opencl_image_create(HostWriter *w, const EmitCtx *e, const Symbol *s, const char *context, const char *lvalue,
                         const char *host, const char *label);

/* The plan API of OpenCL (docs/wrappers.md), appended to K_host.c; it calls the
 * helpers above, and the device choice, kernel source and build log of the
 * one-shot wrapper. */
void plan_opencl_emit(StrBuf *sb, const EmitCtx *e);

#endif
