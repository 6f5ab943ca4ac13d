/* Host-side text that every backend's wrappers and plans print alike: the
 * parameter lists, argument checks, banner and transfers of the public wrapper,
 * and where each array lives on the device (wrappers/host.c). */
#ifndef IMCL_HOST_H
#define IMCL_HOST_H

#include "emit.h"

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
/* The file banner: what generated it, from what, for which kernel, and the tuning
 * the file honours (none for the C reference); `what` NULL: K.h, the same for
 * every backend and configuration, which names no tuning. */
void host_banner(StrBuf *sb, const EmitCtx *e, const char *what);
/* The comment above a kernel: what one `worker` (thread, work-item) computes. */
void host_kernel_comment(StrBuf *sb, const EmitCtx *e, const char *worker);
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
 * placements, texture/image set-up); each device backend prints those calls
 * with functions of its own (backend_cuda/cuda_host.h,
 * backend_opencl/opencl_host.h), so that the generated text of a call is made in
 * one place. */

/* How a caller names the device object of array s (plan id `id`) in a launch:
 * `imcl_d_in` in PK, `plan->buf[0]` in the plan. */
typedef const char *(*HostHandle)(const EmitCtx *e, const Symbol *s, int id);

#endif
