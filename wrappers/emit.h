/* What the driver hands a backend, and what a backend hands back: the lowered
 * kernel, the chosen tuning parameters, and the text of each output file. */
#ifndef IMCL_EMIT_H
#define IMCL_EMIT_H

#include "ast.h"
#include "params.h"
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

/* Backends: each adds its files (see docs/wrappers.md) and returns the number of
 * errors reported. */
int backend_c_emit(EmitCtx *e, Outputs *out);
int backend_cuda_emit(EmitCtx *e, Outputs *out);
int backend_opencl_emit(EmitCtx *e, Outputs *out);

/* ---- host-side pieces shared by the wrappers (wrappers/host.c) ---------------- */

/* Arrays (Image, Block, fixed-size) have buffers; scalars are passed by value. */
bool host_is_array(const Symbol *s);
/* The parameters of k in the order of the public wrapper and of every kernel:
 * the arrays in declaration order, then the scalars. Returns the count. */
int host_public_params(const Function *k, const Symbol **out);

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
/* Checks of the arguments: NULL arrays, extents below 1, grid arrays of unequal
 * extent; each failing check returns `fail` (a C expression). */
void host_check_args(StrBuf *sb, const Function *k, const char *fail, int indent);
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
 * OpenCL, appended to K_ref.c, K.cu and K_host.c; the OpenCL part uses the
 * device choice, kernel source and build log that K_host.c defines before it. */
void plan_c_emit(StrBuf *sb, const EmitCtx *e);
void plan_cuda_emit(StrBuf *sb, const EmitCtx *e);
void plan_opencl_emit(StrBuf *sb, const EmitCtx *e);

/* Shared pieces of the generators (wrappers/plan.c). */
typedef enum PlanFn {
    PLAN_CREATE, PLAN_UPLOAD, PLAN_DOWNLOAD, PLAN_LAUNCH, PLAN_SWAP, PLAN_KERNEL_MS, PLAN_DESTROY
} PlanFn;
/* The array parameters in declaration order (their plan ids); returns the count. */
int plan_arrays(const Function *k, const Symbol **out);
/* Whether plans support this configuration: every array in global memory. */
bool plan_supported(const EmitCtx *e);
/* A struct member `    decl;` with its comment aligned. */
void plan_member(StrBuf *sb, const char *decl, const char *comment);
/* Name of the plan parameter of launch: `plan`, or `imcl_plan` if a scalar is `plan`. */
const char *plan_handle(const Function *k);
/* The head of a plan function, without `;` or body (s: the array of upload/download). */
void plan_signature(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s);
/* Every plan function refusing with PK_ERR_ARGUMENT (unsupported configurations). */
void plan_stubs(StrBuf *sb, const EmitCtx *e);
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
/* PK_plan_swap (over plan->buf[] of buffer_type) and PK_plan_kernel_ms. */
void plan_swap_and_time(StrBuf *sb, const EmitCtx *e, const char *buffer_type);

#endif
