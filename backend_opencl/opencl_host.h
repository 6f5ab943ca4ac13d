/* The host code of K_host.c that its one-shot wrapper (backend_opencl.c) and its
 * persistent plan (plan_opencl.c) share: the calls of the helpers K_host.c defines
 * before PK and of the host runtime (runtime/imcl_runtime_opencl.c), and the plan
 * generator itself. Private to backend_opencl/. */
#ifndef IMCL_OPENCL_HOST_H
#define IMCL_OPENCL_HOST_H

#include "host.h"

/* `imcl_launch(queue, kernel, [cpu, [part,]] ..., [count, blocks,] event)`, an expression of
 * type cl_int that sets the kernel's arguments and enqueues it; `cpu` (used when the
 * kernel has a CPU variant) says which variant `kernel` is, `part` (used where that
 * variant computes parts, params_cpu_parts) the first and past-the-last row or plane as
 * "FROM, TO" (NULL: all of them), `count` (used when the
 * kernel runs batches, host_batchable) how many blocks, `blocks` (a cl_mem, "NULL":
 * blocks 0 to count - 1) which. */
void opencl_launch_call(StrBuf *sb, const EmitCtx *e, const char *queue, const char *kernel, const char *cpu,
                        const char *part, HostHandle handle, const char *count, const char *blocks,
                        const char *event);
/* In PK and plan_create: the device of an earlier call or plan (imcl_kept), or else
 * picks one (imcl_cl_choose, the runtime's), into a new local `imcl_dev`, and checks
 * the placements' limits on it (imcl_check_placements), returning the code from the
 * caller on failure. */
void opencl_device_and_checks(HostWriter *w, const EmitCtx *e);
/* The image format of element type t (a C initializer of cl_image_format): one channel
 * of its own type, or for doubles an RGBA texel of 32-bit unsigned channels (no double
 * format exists, and some devices, PoCL among them, have no two-channel 3D images). */
const char *opencl_image_format(TypeKind t);
/* The bytes of its texel, as C text. */
const char *opencl_image_texel(const EmitCtx *e, TypeKind t);
/* The device object of array s (plan id `id`) in a launch: imcl_a[id].buf
 * (imcl_cl_array), the memory of PK's call or of the plan (HostHandle). */
const char *opencl_array_handle(const EmitCtx *e, const Symbol *s, int id);
/* imcl_layout, the table of the kernel's arrays that PK and the plan give the runtime
 * (plan_opencl.c), printed before PK. */
void opencl_layout_table(StrBuf *sb, const EmitCtx *e);

/* The plan API of OpenCL (docs/wrappers.md), appended to K_host.c: calls of the host
 * runtime's plan, and the kernel's own checks and launch. */
void plan_opencl_emit(StrBuf *sb, const EmitCtx *e);

#endif
