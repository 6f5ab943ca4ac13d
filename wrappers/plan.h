/* Persistent plans (docs/wrappers.md): the plan API's
 * declarations in K.h and the pieces every backend's plan generator shares
 * (wrappers/plan.c). */
#ifndef IMCL_PLAN_H
#define IMCL_PLAN_H

#include "emit.h"
#include "host.h"

/* PK_plan_create / _upload_<a> / _download_<a> / _launch / _swap / _kernel_ms /
 * _destroy. Each backend appends its part to its host file with one call
 * (backend_c/plan_c.c, backend_cuda/plan_cuda.c, backend_opencl/plan_opencl.c). */

/* The declarations of the plan API in K.h. */
void plan_header_emit(StrBuf *h, const EmitCtx *e);

/* Shared pieces of the generators. */
typedef enum PlanFn {
    PLAN_CREATE, PLAN_CREATE_BATCH, PLAN_UPLOAD, PLAN_DOWNLOAD, PLAN_UPLOAD_ROWS, PLAN_DOWNLOAD_ROWS,
    PLAN_UPLOAD_STRIDED, PLAN_DOWNLOAD_STRIDED, PLAN_ATTACH, PLAN_USE_MEMORY, PLAN_MEMORY, PLAN_LAUNCH,
    PLAN_LAUNCH_BATCH, PLAN_LAUNCH_ASYNC, PLAN_WAIT, PLAN_SELECT, PLAN_SWAP, PLAN_ITERATE, PLAN_KERNEL_MS, PLAN_DESTROY
} PlanFn;
/* The array parameters in declaration order (their plan ids); returns the count. */
int plan_arrays(const Function *k, const Symbol **out);
/* What follows a plan function's first parameters, each after ", ": the extents of every
 * Image and Block (`extents`: `int a_width, int a_height, ...`, as PK_plan_create takes
 * them) or the scalars (`double c, ...`, as PK_plan_launch), in declaration order; with
 * `typed` as parameters, else as the arguments of a call (`a_width`, `c`). */
void plan_params(StrBuf *sb, const Function *k, bool extents, bool typed);
/* Name of the plan parameter of launch: `plan`, or `imcl_plan` if a scalar is `plan`. */
const char *plan_handle(const Function *k);
/* The head of a plan function, without `;` or body (s: the array of upload/download). */
void plan_signature(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s);
/* The head of PK_plan_create_batch and the start of its body, which returns
 * PK_ERR_ARGUMENT on a NULL plan, a capacity below 1 (not 1 for a kernel that cannot
 * batch), or extents PK refuses (below 1, more than 2^31-1 elements, grid arrays of
 * different extents), and sets *plan to NULL. The body goes on at depth 1
 * (host_writer(sb, 1)). */
void plan_create_begin(StrBuf *sb, const EmitCtx *e);
/* PK_plan_create, which is PK_plan_create_batch for one block, and PK_plan_launch,
 * which is PK_plan_launch_batch for all of them (the selection's, PK_plan_select): the
 * same in every backend. The plan's count of blocks is read through a pointer of type
 * `plan_type *` (the runtime's plan), or NULL: the PK_plan the file defines. */
void plan_create_and_launch(StrBuf *sb, const EmitCtx *e, const char *plan_type);
/* The name of PK_plan_iterate's count of steps: `steps`, or `imcl_steps` if a scalar
 * is `steps`. */
const char *plan_steps(const Function *k);
/* For a kernel with the iterate pragma: PK_plan_iterate as its launches and swaps, one
 * launch per step (time_tile 1; the C reference fuses steps: backend_c/plan_c.c), the
 * statements `first` (or nothing) printed after its checks of the arguments. */
void plan_iterate(StrBuf *sb, const EmitCtx *e, const char *first);
/* The wavefront of a PK_plan_iterate that fuses steps (docs/iterate.md), in a plan whose
 * runtime plan is `imcl_p` (its count of blocks) and where W, H and D are declared: its
 * comment and geometry, imcl_n (the planes, 2D: rows), imcl_radius and imcl_chunk (the
 * planes of a part of about part_points points of the blocks). */
void plan_wavefront_parts(HostWriter *w, const Function *k, int part_points);
/* Inside a pass of imcl_t steps: the loops over its parts w and steps s, while `ok`
 * holds, down to imcl_lo and imcl_hi, the planes of part w of step s clipped to the
 * grid (imcl_lo < imcl_hi where there are any), in an open block two levels deeper,
 * which plan_wavefront_end closes. */
void plan_wavefront_loops(HostWriter *w, const char *ok);
void plan_wavefront_end(HostWriter *w);
/* Whether the backend's launches run on while the host goes on (a device's: OpenCL,
 * CUDA), so that its plan has a launch that may be pending (PK_plan_launch_batch_async,
 * PK_plan_wait) and its other calls wait for it first (the runtime's). */
bool plan_async(const EmitCtx *e);
/* Where plan_async: PK_plan_launch_batch, which starts PK_plan_launch_batch_async and
 * waits for it (PK_plan_wait); elsewhere PK_plan_launch_batch_async, which is
 * PK_plan_launch_batch, and PK_plan_wait, which has nothing to wait for. */
void plan_launch_and_wait(StrBuf *sb, const EmitCtx *e);
/* The name of launch_batch's count: `imcl_count` (no parameter of a kernel has it). */
#define PLAN_COUNT "imcl_count"
/* In a device's plan_launch: W, H, D, and the return of an empty grid. */
void plan_launch_grid(HostWriter *w, const EmitCtx *e);
/* The kernel's arguments in public order, each array as buffer_fmt printed with
 * (element C type, array id), followed by its extents; an Image or Block as grid_fmt,
 * unless NULL, with (type, id, id). */
void plan_array_args(StrBuf *sb, const EmitCtx *e, const char *buffer_fmt, const char *grid_fmt);
/* In a plan's launch: `const int a_width = h->EXTENT;` for every grid array, EXTENT being
 * `extent` printed with the array's id and the dimension ("extent[%d][%d]"). */
void plan_extent_locals(HostWriter *w, const EmitCtx *e, const char *h, const char *extent);
/* The swap class of each array into cls (by plan id): arrays of one class may exchange
 * their device memory when their extents agree (PK_plan_swap), class -1 never (an array in
 * constant memory, which is no handle). Returns whether some array is in constant memory. */
bool plan_swap_classes(const EmitCtx *e, int *cls);
/* The plan functions of a backend whose plan is its host runtime's (`RT_plan`, functions
 * `RT_plan_*`: OpenCL's imcl_cl, CUDA's imcl_cu, the C reference's imcl_c). In
 * PK_plan_create_batch: `const int imcl_extent[n][3]`, the extents of each array (1 where
 * it has none). */
void plan_extent_table(HostWriter *w, const EmitCtx *e);
/* A plan function whose body is `return CALL;`, CALL a call of the runtime. */
void plan_forward(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s, const char *call);
/* The whole-array transfers of every array and the row and strided ones of every Image
 * and Block: RT_plan_upload, _download and _rows. */
void plan_forward_transfers(StrBuf *sb, const EmitCtx *e, const char *rt);
/* The one-shot wrapper PK through the runtime's RT_call_begin and RT_call_end (OpenCL's
 * imcl_cl, CUDA's imcl_cu), after PK's checks and `int imcl_status` (or declaring it,
 * `declare`): the transfers
 * comment, `imcl_host` (the caller's arrays by plan id), `imcl_extent`, `imcl_a` (the
 * memory of the call), the call of RT_call_begin(ARGS, n, imcl_layout, ...), returning
 * its failure, and the start of `return RT_call_end(ARGS, n, imcl_layout, imcl_host,
 * imcl_a, ` for the caller to finish with its launch and `);`. */
void plan_call_begin(HostWriter *w, const EmitCtx *e, const char *rt, const char *args, bool declare);
/* What PK does with array s, for its layout: `RT_IN | RT_OUT` (copied in, copied out),
 * one of them, or 0. */
const char *plan_use(const EmitCtx *e, const Symbol *s, const char *rt);
/* PK_plan_attach, _use_memory, _memory, _swap, _kernel_ms and _destroy: RT_plan_attach ... */
void plan_forward_rest(StrBuf *sb, const EmitCtx *e, const char *rt);

/* imcl --mpi (wrappers/dist.c): the distributed plan's declarations in K.h, and
 * K_dist.c with the runtime it calls, the same for every backend (for a kernel with
 * k->dist; header_emit calls both). */
void dist_header_emit(StrBuf *h, const EmitCtx *e);
void dist_emit(const EmitCtx *e, Outputs *out);

#endif
