/* What the driver hands a backend, and what a backend hands back: the lowered
 * kernel, the chosen tuning parameters, and the text of each output file. */
#ifndef IMCL_EMIT_H
#define IMCL_EMIT_H

#include "ast.h"
#include "params.h"
#include "placement.h"
#include "unparse.h"

typedef struct OutFile {
    char *name;     /* file name inside the output folder (heap) */
    StrBuf text;
} OutFile;

typedef struct Outputs {
    OutFile **files;  /* heap; each file stays where it is while more are added */
    int n, cap;
} Outputs;

StrBuf *outputs_add(Outputs *o, const char *name);
void outputs_free(Outputs *o);

typedef struct EmitCtx {
    Arena *a;
    Diag *diag;
    const Program *prog;
    Function *k;              /* the kernel, after the passes */
    const char *prefix;       /* "" when none */
    const char *host_name;    /* prefix + kernel name */
    const TuneParams *tp;
    const struct SpaceOptions *so;  /* backend, --size: sizes constant-memory copies */
} EmitCtx;

/* ---- host-side pieces shared by the wrappers (wrappers/host.c) ---------------- */

/* Arrays (Image, Block, fixed-size) have buffers; scalars are passed by value. */
bool host_is_array(const Symbol *s);
/* The parameters of k in the order of the public wrapper and of every kernel:
 * the arrays in declaration order, then the scalars. Returns the count. */
int host_public_params(const Function *k, const Symbol **out);

/* Where an array parameter lives on the device (SPEC 5, mem_<array>), as the host
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
 * (SPEC 7: the arrays in declaration order, each followed by its extents, then
 * the scalars, then W, H, D): with s an array or scalar, extent -1 is s itself
 * (an array's device object) and extent d >= 0 is extent d of array s; with s
 * NULL, extent 0, 1, 2 is W, H, D. */
typedef struct KernelParam {
    const Symbol *s;
    int extent;
} KernelParam;
/* The parameters of k's kernel into out (room for 4 * nparams + 3); arrays in
 * constant memory are parameters only `with_constant` (OpenCL; CUDA kernels read
 * their __constant__ symbols). Returns the count. */
int host_kernel_params(const Function *k, bool with_constant, KernelParam *out);
/* The name of parameter p: the array's or scalar's, `a_width`, or `W`. */
const char *host_kernel_param_name(Arena *a, const KernelParam *p);

/* C spelling of a scalar type on the host. */
const char *host_c_type(TypeKind k);
/* The public parameter list: arrays (with extents) in declaration order, then
 * scalars. `device_side` prints extents of fixed arrays too (never) and
 * qualifiers for kernels are the callers' business. */
void host_param_list(StrBuf *sb, const Function *k);
/* The public arguments, in the same order, as a call: `a, a_width, ..., n`, each
 * array name preceded by array_prefix (e.g. "d_" for device buffers). */
void host_arg_list(StrBuf *sb, const Function *k, const char *array_prefix);
/* Number of elements of array parameter s, as a size_t C expression. */
void host_elems(StrBuf *sb, const Symbol *s);
/* Checks of the arguments: NULL arrays, extents below 1, arrays of more than
 * 2^31-1 elements, grid arrays of unequal extent; each failing check returns
 * `fail` (a C expression). */
void host_check_args(StrBuf *sb, const Function *k, const char *fail, int indent);
/* The same, without the NULL checks unless `pointers` (plan_create has extents only). */
void host_check_extents(StrBuf *sb, const Function *k, const char *fail, int indent, bool pointers);
/* `const int W = ...; const int H = ...; const int D = ...;` */
void host_grid_extent(StrBuf *sb, const Function *k, int indent);
/* The file banner: what generated it, from what, for which kernel and parameters. */
void host_banner(StrBuf *sb, const EmitCtx *e, const char *what);
/* PK_strerror, and PK_build_log returning `log` (a C expression). */
void host_error_functions(StrBuf *sb, const char *pk, const char *log);
/* A comment listing what the wrapper copies in and out, and why an array
 * written by the kernel is or is not copied in. */
void host_transfer_comment(StrBuf *sb, const Function *k, int indent);
/* The list of arrays copied to / from the device. */
bool host_copy_in(const Symbol *s);
bool host_copy_out(const Symbol *s);

/* ---- host code shared by a backend's one-shot wrapper and its plan ------------
 * K.cu and K_host.c define static helpers before PK that PK and the plan both
 * call (the launch with its grid and argument order, the checks of the
 * placements, texture/image set-up); the functions below print those calls, so
 * that the generated text of a call is made in one place. */

/* How a caller names the device object of array s (plan id `id`) in a launch:
 * `imcl_d_in` in PK, `plan->buf[0]` in the plan. */
typedef const char *(*HostHandle)(const EmitCtx *e, const Symbol *s, int id);

/* CUDA (backend_cuda.c). `imcl_launch(...)`, an expression of type cudaError_t: the
 * arrays as `handle` names them, extents, scalars and W, H, D by their names. */
void cuda_launch_call(StrBuf *sb, const EmitCtx *e, HostHandle handle);
/* The call of imcl_check_placements with the extents by their names, returning
 * its code from the caller on failure; nothing when no placement has limits. */
void cuda_placement_checks(StrBuf *sb, const EmitCtx *e, int indent);
/* `imcl_status = imcl_texture_create(&array, &tex, ...);` for texture array s,
 * filled from host (a C expression; "NULL" for zeros), extents by their names. */
void cuda_texture_create(StrBuf *sb, const EmitCtx *e, const Symbol *s, const char *array, const char *tex,
                         const char *host, int indent);
/* The __constant__ symbol that holds constant array s. */
const char *cuda_constant_name(const EmitCtx *e, const Symbol *s);

/* OpenCL (backend_opencl.c). `imcl_launch(queue, kernel, ..., event)`, an
 * expression of type cl_int that sets the kernel's arguments and enqueues it. */
void opencl_launch_call(StrBuf *sb, const EmitCtx *e, const char *queue, const char *kernel, HostHandle handle,
                        const char *event);
/* Picks the device into a new local `imcl_dev` and checks the placements' limits
 * on it (imcl_check_placements), returning the code from the caller on failure. */
void opencl_device_and_checks(StrBuf *sb, const EmitCtx *e, int indent);
/* `lvalue = imcl_image_create(context, ...);` for texture array s filled from host
 * ("NULL" for zeros), in a block with its format and description, extents by
 * their names; then `if (!lvalue)` sets imcl_status and jumps to `label`. */
void opencl_image_create(StrBuf *sb, const EmitCtx *e, const Symbol *s, const char *context, const char *lvalue,
                         const char *host, const char *label, int indent);

/* Helper functions of the source file that kernel k calls (wrappers/helpers.c). */
void emit_helpers(Unparser *u, const Program *prog, const Function *k);

/* K.h: identical for every backend. */
void header_emit(EmitCtx *e, Outputs *out);

/* ---- persistent plans (SPEC section 7, docs/wrappers.md) ------------------------
 * PK_plan_create / _upload_<a> / _download_<a> / _launch / _swap / _kernel_ms /
 * _destroy. Each backend appends its part to its host file with one call. */

/* The declarations of the plan API in K.h (wrappers/plan.c). */
void plan_header_emit(StrBuf *h, const EmitCtx *e);
/* The plan API of the C reference (plans over host buffers), of CUDA and of
 * OpenCL, appended to K_ref.c, K.cu and K_host.c; the CUDA and OpenCL parts call
 * the helpers that the file defines before PK (see above; OpenCL: also the
 * device choice, kernel source and build log). */
void plan_c_emit(StrBuf *sb, const EmitCtx *e);
void plan_cuda_emit(StrBuf *sb, const EmitCtx *e);
void plan_opencl_emit(StrBuf *sb, const EmitCtx *e);

/* Shared pieces of the generators (wrappers/plan.c). */
typedef enum PlanFn {
    PLAN_CREATE, PLAN_UPLOAD, PLAN_DOWNLOAD, PLAN_LAUNCH, PLAN_SWAP, PLAN_KERNEL_MS, PLAN_DESTROY
} PlanFn;
/* The array parameters in declaration order (their plan ids); returns the count. */
int plan_arrays(const Function *k, const Symbol **out);
/* A struct member `    decl;` with its comment aligned. */
void plan_member(StrBuf *sb, const char *decl, const char *comment);
/* Name of the plan parameter of launch: `plan`, or `imcl_plan` if a scalar is `plan`. */
const char *plan_handle(const Function *k);
/* The head of a plan function, without `;` or body (s: the array of upload/download). */
void plan_signature(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s);
/* In plan_create: returns PK_ERR_ARGUMENT on extents below 1, arrays of more than
 * 2^31-1 elements, or grid arrays of different extents. */
void plan_create_checks(StrBuf *sb, const EmitCtx *e, int indent);
/* In plan_create: fills p->extent[][] and p->bytes[] from the parameters. */
void plan_record_sizes(StrBuf *sb, const EmitCtx *e, const char *p, int indent);
/* In launch: `const int a_width = plan->extent[i][0];` for every grid array. */
void plan_extent_locals(StrBuf *sb, const EmitCtx *e, int indent);
/* The kernel's arguments in public order, each array as buffer_fmt printed with
 * (element C type, plan handle name, array id), followed by its extents. */
void plan_array_args(StrBuf *sb, const EmitCtx *e, const char *buffer_fmt);
/* A member `type member[n]` of the plan struct that PK_plan_swap exchanges. */
typedef struct PlanSwapped {
    const char *type;
    const char *member;
} PlanSwapped;
/* PK_plan_swap (exchanging each of the members; refusing arrays of different
 * element type, dimensions, halo, extents or placement, and arrays in constant
 * memory) and PK_plan_kernel_ms. */
void plan_swap_and_time(StrBuf *sb, const EmitCtx *e, const PlanSwapped *members, int nmembers);

#endif
