/* The host code of K.cu that its one-shot wrapper (backend_cuda.c) and its
 * persistent plan (plan_cuda.c) share: the calls of the static helpers K.cu
 * defines before PK, and the plan generator itself. Private to backend_cuda/. */
#ifndef IMCL_CUDA_HOST_H
#define IMCL_CUDA_HOST_H

#include "host.h"

/* `imcl_launch(...)`, an expression of type cudaError_t: the arrays as `handle`
 * names them, extents, scalars and W, H, D by their names, then `count` blocks when
 * the kernel runs batches (host_batchable) and the device list of `blocks` (C text,
 * "NULL": blocks 0 to count - 1), then the `stream` (C text) it runs in. */
void cuda_launch_call(StrBuf *sb, const EmitCtx *e, HostHandle handle, const char *count,
                      const char *blocks, const char *stream);
/* The call of imcl_check_placements with the extents by their names, returning
 * its code from the caller on failure; nothing when no placement has limits. */
void cuda_placement_checks(HostWriter *w, const EmitCtx *e);
/* The channel format of a texel of element type t (doubles travel as int2), and the
 * addressing mode of texture array s. */
const char *cuda_texel_type(TypeKind t);
const char *cuda_address_mode(const Symbol *s);
/* The device object of array s (plan id `id`) in a launch: imcl_a[id] (imcl_cu_array),
 * the memory of PK's call or of the plan (HostHandle). */
const char *cuda_array_handle(const EmitCtx *e, const Symbol *s, int id);
/* imcl_layout, the table of the kernel's arrays that PK and the plan give the runtime
 * (plan_cuda.c), printed before PK. */
void cuda_layout_table(StrBuf *sb, const EmitCtx *e);
/* The __constant__ symbol that holds constant array s. */
const char *cuda_constant_name(const EmitCtx *e, const Symbol *s);

/* The plan API of CUDA (docs/wrappers.md), appended to K.cu; it calls the
 * helpers above. */
void plan_cuda_emit(StrBuf *sb, const EmitCtx *e);

#endif
