/* Host-side text that every backend's wrappers and plans print alike: the
 * parameter lists, argument checks, banner and transfers of the public wrapper,
 * where each array lives on the device, the pieces of the device backends' host
 * code that are the same, the writer of host code (HostWriter) and the copy of
 * the host runtime files (wrappers/host.c). */
#ifndef IMCL_HOST_H
#define IMCL_HOST_H

#include "emit.h"

/* Arrays (Image, Block, fixed-size) have buffers; scalars are passed by value. */
bool host_is_array(const Symbol *s);
/* The parameters of k in the order of the public wrapper and of every kernel:
 * the arrays in declaration order, then the scalars. Returns the count. */
int host_public_params(const Function *k, const Symbol **out);

/* Where an array parameter lives on the device (mem_<array>, docs/tuning.md), as the host
 * sees it: an Image/Block in texture memory is a CUDA texture object over a CUDA
 * array, or an OpenCL image; an array in constant memory is a CUDA __constant__
 * symbol, or an OpenCL buffer passed as a __constant argument; every other array
 * (global memory, and shared memory, whose tiles the kernel loads itself) is a
 * device buffer. */
bool host_on_texture(const Symbol *s);
bool host_on_constant(const Symbol *s);
bool host_on_buffer(const Symbol *s);
/* The position of array parameter s among the arrays (its plan_array id). */
int host_array_id(const Function *k, const Symbol *s);

/* One parameter of a kernel, in the order every kernel and launch takes them
 * (docs/wrappers.md: the arrays in declaration order, each followed by its extents, then
 * the scalars, then W, H, D): with s an array or scalar, extent -1 is s itself
 * (an array's device object) and extent d >= 0 is extent d of array s; with s
 * NULL, extent 0, 1, 2 is W, H, D. */
typedef struct KernelParam {
    const Symbol *s;    /* NULL: W, H, D (extent 0 to 2), imcl_count (3), imcl_blocks (4) */
    int extent;
} KernelParam;
/* The room host_kernel_params needs for the parameters of k. */
#define HOST_KERNEL_PARAMS(k) (4 * (k)->nparams + 5)
/* The parameters of k's kernel into out; arrays in constant memory are parameters
 * only `with_constant` (OpenCL; CUDA kernels read their __constant__ symbols). The
 * last two, when k has an Image or Block, are imcl_count, the blocks of a batch (1:
 * one grid; docs/wrappers.md, "Batches"), and imcl_blocks, the blocks' indices in the
 * batch (a device array of imcl_count ints, or NULL: blocks 0 to imcl_count - 1), in
 * every configuration so that a tuner's argument list does not depend on it.
 * Returns the count. */
int host_kernel_params(const Function *k, bool with_constant, KernelParam *out);
/* Whether p is imcl_blocks, the one parameter of a kernel that is a pointer to int. */
#define HOST_PARAM_BLOCKS(p) (!(p).s && (p).extent == 4)
/* The name of parameter p: the array's or scalar's, `a_width`, `W`, imcl_count or
 * imcl_blocks. */
const char *host_kernel_param_name(Arena *a, const KernelParam *p);

/* The public parameter list: arrays (with extents) in declaration order, then
 * scalars. `device_side` prints extents of fixed arrays too (never) and
 * qualifiers for kernels are the callers' business. */
void host_param_list(StrBuf *sb, const Function *k);
/* The same with `tables`: the C reference's PK_rows, `int count` first and each
 * Image/Block as a table of count row tables (`T **const *a`, `T ***const *a`). */
void host_param_list_as(StrBuf *sb, const Function *k, bool tables);
/* The public arguments, in the same order, as a call: `a, a_width, ..., n`, each
 * array name preceded by array_prefix (e.g. "d_" for device buffers). */
void host_arg_list(StrBuf *sb, const Function *k, const char *array_prefix);
/* Number of elements of array parameter s, as a size_t C expression. */
void host_elems(StrBuf *sb, const Symbol *s);
/* Its bytes: `<elements> * sizeof(T)`. */
void host_bytes(StrBuf *sb, const Symbol *s);
/* Storage extent d of grid array s (extent + 2 * halo) as C text: `(size_t)(a_width + 2)`,
 * or with `cast` false `(a_width + 2)`; without a halo `(size_t)a_width`, `a_width`. */
const char *host_storage_extent(Arena *a, const Symbol *s, int d, bool cast);
/* The file banner: what generated it, from what, for which kernel, and the tuning
 * the file honours (none for the C reference); `what` NULL: K.h, the same for
 * every backend and configuration, which names no tuning. */
void host_banner(StrBuf *sb, const EmitCtx *e, const char *what);
/* The same without the tuning: a file that is the same for every backend and
 * configuration (K_dist.c). */
void host_banner_untuned(StrBuf *sb, const EmitCtx *e, const char *what);
/* The comment above a kernel: what one `worker` (thread, work-item) computes. */
void host_kernel_comment(StrBuf *sb, const EmitCtx *e, const char *worker);
/* PK_strerror (the text is the runtime `rt`'s: rt_strerror), PK_build_log returning
 * `log` (a C expression), PK_release with the statements `release` (NULL: it has
 * nothing to free), and PK_use_queue(context, device, queue) with the statements
 * `use_queue`. */
void host_error_functions(StrBuf *sb, const EmitCtx *e, const char *rt, const char *log, const char *release,
                          const char *use_queue);
/* The list of arrays copied to / from the device. */
bool host_copy_in(const Symbol *s);
bool host_copy_out(const Symbol *s);

/* ---- host code shared by a backend's one-shot wrapper and its plan ------------
 * K.cu and K_host.c define static helpers before PK that PK and the plan both
 * call (the launch with its grid and argument order, the checks of the
 * placements, texture/image set-up); each device backend prints those calls
 * with functions of its own (backend_cuda/cuda_host.h,
 * backend_opencl/opencl_host.h), so that the generated text of a call is made in
 * one place. */

/* How a caller names the device object of array s (plan id `id`) in a launch:
 * `imcl_d_in` in PK, `plan->buf[0]` in the plan. */
typedef const char *(*HostHandle)(const EmitCtx *e, const Symbol *s, int id);

/* Whether some parameter of k is an array that `pred` (host_on_texture, ...) accepts. */
bool host_any(const Function *k, bool (*pred)(const Symbol *));
/* The arrays whose extents imcl_check_placements takes: textures (OpenCL images), and
 * grid arrays in constant memory (fixed-size arrays have a known size). */
bool host_placement_checked(const Symbol *s);
/* The extents of the checked arrays, as parameters (`int a_width`, with `decl`) or as
 * arguments (`a_width`), each after a separator: `first` before the first, ", "
 * before the others. */
void host_checked_extents(StrBuf *sb, const Function *k, bool decl, const char *first);
/* dims[2] / dims[3]: whether k has a 2D / 3D array in texture memory. */
void host_texture_dims(const Function *k, bool dims[4]);

/* ---- batches of blocks (docs/wrappers.md, "Batches") ----------------------------
 * A device kernel runs over a batch of equally shaped blocks in one launch: each
 * block's work-groups follow the previous block's in z, and each Image and Block
 * holds the blocks one after the other, a storage apart. */

/* Whether k runs batches: it has Images or Blocks and every one of them is a buffer
 * (a texture or a constant copy holds one block). */
bool host_batchable(const Function *k);
/* The statements of device kernel e->k with parameters e->tp: when it runs batches,
 * the block imcl_b of this work-group and imcl_group_z, its z index within the block
 * (group_z: the launch's z index of the work-group, as the target spells it), with
 * every Image and Block moved to the block's storage; or with batch_loop 1 a loop
 * over the imcl_count blocks around the body; then the body. */
void host_kernel_body(Unparser *u, const EmitCtx *e, const char *group_z);
/* The count argument of a launch of k: `count` where k runs batches, else 1. */
const char *host_batch_count(const Function *k, const char *count);

/* ---- host runtime ----------------------------------------------------------------
 * The fixed helpers of the generated files are source files in backend_X/runtime/
 * and wrappers/runtime/, embedded into imcl as string literals when it is built
 * (cmake/embed_runtime.cmake; declared in the build folder's runtime_text/F.h). */

/* Copies runtime file `text` into sb, and an empty line after it: the kernel's host
 * name replaces PK in every identifier PK_.... */
void host_runtime(StrBuf *sb, const EmitCtx *e, const char *text);
/* A runtime file written as it is into the output folder as file `name` (the same for
 * every kernel, so written once however many kernels and backends make it), after a
 * banner saying it is generated text of `what`. */
void host_runtime_file(Outputs *out, const char *name, const char *what, const char *text);

/* ---- writer of host code ---------------------------------------------------------
 * Host code is printed a line at a time at the writer's depth (4 spaces a level), as
 * the unparser prints kernels; a function that prints at the caller's depth takes the
 * caller's writer. */
typedef struct HostWriter {
    StrBuf *sb;
    int indent;
} HostWriter;

/* A writer appending to sb at depth indent. */
HostWriter host_writer(StrBuf *sb, int indent);
/* One line at the writer's depth: the indentation, the formatted text, a newline. */
void hw_line(HostWriter *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line a level deeper (the statement of an `if` without braces). */
void hw_inner(HostWriter *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The indentation alone: the start of a line printed in pieces into w->sb. */
void hw_start(HostWriter *w);
/* `a OP BLOCKS * (size_t)(w * h * d);` for every Image and Block the kernel uses: its
 * pointer moved `blocks` (C text) blocks' storage on (op "+=") or back ("-="), the halo
 * included, the extents from their parameters (the batch prologue, and CUDA's launches
 * of a long batch). */
void host_batch_advance(HostWriter *w, const EmitCtx *e, const char *blocks, const char *op);
/* Ends the line printed so far and starts its continuation a level deeper. */
void hw_break(HostWriter *w);

/* Checks of the arguments: NULL arrays, extents below 1, arrays of more than
 * 2^31-1 elements, grid arrays of unequal extent; each failing check returns
 * `fail` (a C expression). */
void host_check_args(HostWriter *w, const Function *k, const char *fail);
/* The same, without the NULL checks unless `pointers` (plan_create has extents only). */
void host_check_extents(HostWriter *w, const Function *k, const char *fail, bool pointers);
/* `const int W = ...; const int H = ...; const int D = ...;` */
void host_grid_extent(HostWriter *w, const Function *k);
/* The head of PK and the start of its body: `int PK(<host_param_list>)\n{\n`. */
void host_wrapper_begin(StrBuf *sb, const EmitCtx *e);
/* In PK: host_check_args returning PK_ERR_ARGUMENT, host_grid_extent, and with
 * `empty_returns` the return of PK_OK on an empty grid (a device launch of no
 * blocks is an error). */
void host_wrapper_grid(HostWriter *w, const EmitCtx *e, bool empty_returns);
/* `const size_t imcl_<a>_bytes = <host_bytes>;` */
void host_bytes_decl(HostWriter *w, const Symbol *s);
/* A comment listing what the wrapper copies in and out, and why an array
 * written by the kernel is or is not copied in. */
void host_transfer_comment(HostWriter *w, const Function *k);
/* `if (cond) { imcl_status = PK_<code>; goto label; }` (code: "ERR_MEMORY", ...). */
void host_fail(HostWriter *w, const EmitCtx *e, const char *cond, const char *code, const char *label);
/* `if (imcl_status != PK_OK) goto label;` */
void host_goto_unless_ok(HostWriter *w, const EmitCtx *e, const char *label);
/* In PK and plan_create: the call of imcl_check_placements (`device`, OpenCL's
 * imcl_dev, or NULL, then the extents of host_checked_extents) under a comment,
 * returning its code from the caller when it is not PK_OK. */
void host_placement_checks_call(HostWriter *w, const EmitCtx *e, const char *device);
/* In imcl_check_placements: `if (a_width > <limit>2d[0] || ...) return PK_ERR_ARGUMENT;`,
 * every storage extent of every texture array against the arrays <limit>2d / <limit>3d
 * of the device's largest 2D / 3D texture (`cast`: extents as size_t). */
void host_texture_fit(HostWriter *w, const EmitCtx *e, const char *limit, bool cast);

#endif
