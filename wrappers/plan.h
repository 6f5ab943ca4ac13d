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
    PLAN_UPLOAD_STRIDED, PLAN_DOWNLOAD_STRIDED, PLAN_ATTACH, PLAN_USE_MEMORY, PLAN_LAUNCH, PLAN_LAUNCH_BATCH,
    PLAN_LAUNCH_ASYNC, PLAN_WAIT, PLAN_SWAP, PLAN_KERNEL_MS, PLAN_DESTROY
} PlanFn;
/* The array parameters in declaration order (their plan ids); returns the count. */
int plan_arrays(const Function *k, const Symbol **out);
/* A struct member `    decl;` with its comment aligned. */
void plan_member(StrBuf *sb, const char *decl, const char *comment);
/* Name of the plan parameter of launch: `plan`, or `imcl_plan` if a scalar is `plan`. */
const char *plan_handle(const Function *k);
/* The head of a plan function, without `;` or body (s: the array of upload/download). */
void plan_signature(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s);
/* The head of plan function fn (PLAN_CREATE, _UPLOAD, _DOWNLOAD of array s, _LAUNCH)
 * and the start of its body, which returns PK_ERR_ARGUMENT on a NULL plan or host
 * pointer; plan_create sets *plan to NULL and checks the extents as PK does (below
 * 1, more than 2^31-1 elements, grid arrays of different extents), plan_launch
 * defines the extents given to plan_create by the names the kernel uses. The body
 * goes on at depth 1 (host_writer(sb, 1)). */
void plan_begin(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s);
/* In plan_create_batch: `PK_plan *p = calloc(...)` (PK_ERR_MEMORY when it fails), then
 * p->capacity, p->extent[][] and p->bytes[] from the parameters (an Image or Block
 * holds capacity blocks; the plan struct has `int capacity`). */
void plan_create_alloc(HostWriter *w, const EmitCtx *e);
/* PK_plan_create, which is PK_plan_create_batch for one block, and PK_plan_launch,
 * which is PK_plan_launch_batch for all of them: the same in every backend. The plan's
 * capacity is read through a pointer of type `plan_type *` (the runtime's plan), or
 * NULL: the PK_plan the file defines. */
void plan_create_and_launch(StrBuf *sb, const EmitCtx *e, const char *plan_type);
/* Whether the backend's launches run on while the host goes on (a device's: OpenCL,
 * CUDA), so that its plan has a launch that may be pending (PK_plan_launch_batch_async,
 * PK_plan_wait) and its other calls wait for it first (plan_settle). */
bool plan_async(const EmitCtx *e);
/* Where plan_async: PK_plan_launch_batch, which starts PK_plan_launch_batch_async and
 * waits for it (PK_plan_wait); elsewhere PK_plan_launch_batch_async, which is
 * PK_plan_launch_batch, and PK_plan_wait, which has nothing to wait for. */
void plan_launch_and_wait(StrBuf *sb, const EmitCtx *e);
/* Where plan_async, after the plan struct: imcl_plan_settle(plan), which waits for a
 * launch still running and says whether it failed. */
void plan_settle_helper(StrBuf *sb, const EmitCtx *e);
/* Where plan_async, at the top of a plan function after its argument checks (the plan,
 * named h, not NULL): imcl_plan_settle, returning PK_ERR_LAUNCH from the function when
 * the launch failed (`value` false: the wait alone, for a function that returns
 * nothing). */
void plan_settle(HostWriter *w, const EmitCtx *e, const char *h, bool value);
/* The name of launch_batch's count: `imcl_count` (no parameter of a kernel has it). */
#define PLAN_COUNT "imcl_count"
/* How a device's upload (up) or download of array s (plan id `id`) fails: the C
 * condition, true when the copy failed. */
typedef const char *(*PlanCopyFailed)(const EmitCtx *e, const Symbol *s, int id, bool up);
/* A device's PK_plan_upload_<a> and PK_plan_download_<a> of every array, returning
 * PK_ERR_TRANSFER when `failed` says so. */
void plan_transfers(StrBuf *sb, const EmitCtx *e, PlanCopyFailed failed);
/* How a backend reaches the memory of an Image or Block for PK_plan_upload_rows_<a>,
 * PK_plan_download_rows_<a> and the strided ones (plan_row_transfers): `mappable` says
 * whether array s's memory can be reached from the host at all; `map` prints, for
 * elements of type t, the statements that point imcl_dense at the blocks' imcl_n
 * elements from element imcl_off on of array imcl_id (size_t and int locals), copying
 * them there first when !imcl_up, and returning PK_ERR_TRANSFER or PK_ERR_MEMORY from
 * the function when that fails; `unmap` those that end the access, copying back when
 * imcl_up (setting imcl_status on failure). Arrays not mappable (textures, constant
 * copies: one block) go through a host copy and the plan's own upload or download. */
typedef struct PlanRowsAccess {
    bool (*mappable)(const Symbol *s);
    void (*map)(HostWriter *w, const EmitCtx *e, const char *t);
    void (*unmap)(HostWriter *w, const EmitCtx *e, const char *t);
} PlanRowsAccess;
/* PK_plan_upload_rows_<a> and PK_plan_download_rows_<a> of every Image and Block: the
 * array's storage (halo included) from or into a row table, as PK_rows takes a block;
 * and PK_plan_upload_strided_<a> / _download_strided_<a>: from or into a host array
 * with pitches of its own (a padded allocation, the inside of a bigger array). */
void plan_row_transfers(StrBuf *sb, const EmitCtx *e, const PlanRowsAccess *access);
/* In a device's plan_launch: W, H, D, the kernel time reset to 0 (`reset_time`; the
 * OpenCL runtime's imcl_cl_plan_ready resets it itself), and the return of an empty
 * grid. */
void plan_launch_grid(HostWriter *w, const EmitCtx *e, bool reset_time);
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
/* A member `type member[n]` of the plan struct that PK_plan_swap exchanges. */
typedef struct PlanSwapped {
    const char *type;
    const char *member;
} PlanSwapped;
/* PK_plan_swap (exchanging each of the members; refusing arrays of different
 * element type, dimensions, halo, extents or placement, and arrays in constant
 * memory) and PK_plan_kernel_ms. */
void plan_swap_and_time(StrBuf *sb, const EmitCtx *e, const PlanSwapped *members, int nmembers);
/* PK_plan_attach(plan, a, host) (fn PLAN_ATTACH) or PK_plan_use_memory(plan, a, memory)
 * (PLAN_USE_MEMORY, printed after the first): the checks every backend makes
 * (PK_ERR_ARGUMENT for a NULL plan or pointer, an unknown id, an array that is no
 * buffer: texture and constant memory), then `body` at depth 1, which makes array a's
 * memory the caller's `host` or device `memory` (its whole storage, every block) and
 * returns. */
void plan_attach(StrBuf *sb, const EmitCtx *e, PlanFn fn, void (*body)(HostWriter *w, const EmitCtx *e));

/* The plan functions of a backend whose plan is its host runtime's (`RT_plan`, functions
 * `RT_plan_*`: OpenCL's imcl_cl, the C reference's imcl_c). In PK_plan_create_batch:
 * `const int imcl_extent[n][3]`, the extents of each array (1 where it has none). */
void plan_extent_table(HostWriter *w, const EmitCtx *e);
/* A plan function whose body is `return CALL;`, CALL a call of the runtime. */
void plan_forward(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s, const char *call);
/* The whole-array transfers of every array and the row and strided ones of every Image
 * and Block: RT_plan_upload, _download and _rows. */
void plan_forward_transfers(StrBuf *sb, const EmitCtx *e, const char *rt);
/* PK_plan_attach, _use_memory, _swap, _kernel_ms and _destroy: RT_plan_attach ... */
void plan_forward_rest(StrBuf *sb, const EmitCtx *e, const char *rt);

#endif
