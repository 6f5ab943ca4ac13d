/* The CUDA backend: K.cu holds the __global__ kernel, its C-callable one-shot wrapper
 * (cudaMalloc, copies, launch, copies back, cudaFree) and its plan (plan_cuda.c); the
 * folder's host runtime (runtime/imcl_runtime_cuda.cu, written once beside) what they
 * call alike. */

#include "cuda_host.h"
#include "emit.h"
#include "host.h"
#include "placement.h"
#include "plan.h"
#include "runtime_text/backend_cuda.h"
#include "runtime_text/wrappers.h"
#include "unparse.h"

/* Where an array lives: host_on_texture, host_on_constant, host_on_buffer
 * (wrappers/host.c). Arrays in constant memory are file-scope __constant__ copies
 * that the kernel reads by name. */

/* The __constant__ copy of array s of kernel k (valid until the next call): named
 * after both, since the kernels of one source may be linked into one program. */
static const char *constant_name(const Function *k, const Symbol *s)
{
    static char buf[600];
    snprintf(buf, sizeof buf, "imcl_c_%s_%s", k->name, unparse_name(s));
    return buf;
}

const char *cuda_constant_name(const EmitCtx *e, const Symbol *s)
{
    return arena_printf(e->a, "%s", constant_name(e->k, s));
}

static void cuda_builtin(Unparser *u, Builtin b)
{
    static const char *names[] = {
        [BI_THREAD_X] = "threadIdx.x", [BI_THREAD_Y] = "threadIdx.y", [BI_THREAD_Z] = "threadIdx.z",
        [BI_GROUP_X] = "blockIdx.x", [BI_GROUP_Y] = "blockIdx.y", [BI_GROUP_Z] = "blockIdx.z",
        [BI_NUM_GROUPS_X] = "gridDim.x", [BI_NUM_GROUPS_Y] = "gridDim.y", [BI_NUM_GROUPS_Z] = "gridDim.z",
        [BI_BLOCK_DIM_X] = "blockDim.x", [BI_BLOCK_DIM_Y] = "blockDim.y",
    };
    if (b == BI_GROUP_Z && u->batch) {
        sb_puts(u->out, "imcl_group_z");
        return;
    }
    /* The hardware indices are unsigned; the grid arithmetic is int. */
    sb_printf(u->out, "(int)%s", names[b]);
}

static void cuda_math(Unparser *u, const Node *call)
{
    if (unparse_libm_call(u, call))
        return;
    const MathInfo *m = math_info(call->u.call.math);
    Type *t = call->type;
    if (call->u.call.math != MATH_CLAMP) {
        /* CUDA overloads min and max for every arithmetic type. */
        unparse_call_converted(u, m->name, call, t);
        return;
    }
    /* clamp(x, lo, hi) = min(max(x, lo), hi), each argument evaluated once. */
    const Node *a0 = call->u.call.args.items[0], *a1 = call->u.call.args.items[1],
               *a2 = call->u.call.args.items[2];
    const char *ty = unparse_c_type(t->kind);
    sb_printf(u->out, "min(max((%s)(", ty);
    unparse_expr(u, a0);
    sb_printf(u->out, "), (%s)(", ty);
    unparse_expr(u, a1);
    sb_printf(u->out, ")), (%s)(", ty);
    unparse_expr(u, a2);
    sb_puts(u->out, "))");
}

/* tex2D<T>(t, x + 0.5f, y + 0.5f): unnormalized coordinates address texel centres;
 * doubles go through imcl_tex2D_double / imcl_tex3D_double. */
static void cuda_texture_read(Unparser *u, const Node *r)
{
    const Symbol *s = r->u.access.sym;
    int n = r->u.access.n;
    if (s->type->elem->kind == TY_DOUBLE)
        sb_printf(u->out, "imcl_tex%dD_double(%s", n, unparse_name(s));
    else
        sb_printf(u->out, "tex%dD<%s>(%s", n, unparse_c_type(s->type->elem->kind), unparse_name(s));
    for (int d = 0; d < n; d++) {
        const Node *x = r->u.access.ix[d];
        long long c = 0;
        sb_puts(u->out, ", ");
        /* idx - 1 + 0.5f is printed idx - 0.5f */
        if (x->kind == AST_BINARY && (x->u.binary.op == '+' || x->u.binary.op == '-') &&
            x->u.binary.rhs->kind == AST_INT_LIT && ast_const_int(x->u.binary.rhs, &c) && c < (1 << 24)) {
            if (x->u.binary.op == '-')
                c = -c;
            unparse_additive(u, x->u.binary.lhs);
        } else {
            unparse_additive(u, x);
        }
        double v = (double)c + 0.5;
        sb_printf(u->out, " %c %.1ff", v < 0 ? '-' : '+', v < 0 ? -v : v);
    }
    sb_putc(u->out, ')');
}

static const char *cuda_buffer_name(Unparser *u, const Symbol *s)
{
    return host_on_constant(s) && u->k ? constant_name(u->k, s) : unparse_name(s);
}

static const Target cuda_target = {
    .name = "cuda",
    .scalar_type = unparse_c_type,
    .builtin = cuda_builtin,
    .math_call = cuda_math,
    .function_qualifier = "__device__ static",
    .shared_qualifier = "__shared__ ",
    .texture_read = cuda_texture_read,
    .buffer_name = cuda_buffer_name,
    .barrier = "__syncthreads();",
};

/* Kernel parameters (host_kernel_params: arrays as device pointers or texture
 * objects, arrays in constant memory only by their extents; then W, H, D). */
static void kernel_params(StrBuf *sb, const EmitCtx *e)
{
    KernelParam p[HOST_KERNEL_PARAMS(e->k)];
    int n = host_kernel_params(e->k, false, p);
    for (int j = 0; j < n; j++) {
        const Symbol *s = p[j].s;
        const char *name = host_kernel_param_name(e->a, &p[j]);
        sb_puts(sb, j ? ", " : "");
        if (HOST_PARAM_BLOCKS(p[j])) {
            sb_printf(sb, "const int *__restrict__ %s", name);
        } else if (!s || p[j].extent >= 0) {
            sb_printf(sb, "int %s", name);
        } else if (!host_is_array(s)) {
            sb_printf(sb, "%s %s", unparse_c_type(s->type->kind), name);
        } else if (host_on_texture(s)) {
            sb_printf(sb, "cudaTextureObject_t %s", name);
        } else {
            bool ro = !(s->access & ACC_WRITE);
            sb_printf(sb, "%s%s *%s%s", ro ? "const " : "", unparse_c_type(s->type->elem->kind), ro ? "__restrict__ " : "",
                      name);
        }
    }
}

/* ---- host code shared by the one-shot wrapper and the plan (plan_cuda.c, cuda_host.h) ----
 * K.cu defines, before PK, the static helpers both call: imcl_check_placements
 * (the limits of the placements) and imcl_launch (the grid and the kernel's
 * arguments), so that the launch geometry and the argument order exist once; texture
 * memory is the folder's host runtime's (runtime/imcl_runtime_cuda.cu). */

/* The arguments of a launch, in kernel_params' order: the device object of each
 * array as `handle` names it, extents, scalars and W, H, D by name, `count` blocks
 * and the device list of `blocks` (NULL: 0 to count - 1). */
static void launch_args(StrBuf *sb, const EmitCtx *e, HostHandle handle, const char *count,
                        const char *blocks)
{
    KernelParam p[HOST_KERNEL_PARAMS(e->k)];
    int n = host_kernel_params(e->k, false, p);
    for (int j = 0; j < n; j++) {
        const Symbol *s = p[j].s;
        sb_puts(sb, j ? ", " : "");
        if (s && p[j].extent < 0 && host_is_array(s))
            sb_puts(sb, handle(e, s, host_array_id(e->k, s)));
        else if (!s && p[j].extent == 3)
            sb_puts(sb, count);
        else if (HOST_PARAM_BLOCKS(p[j]))
            sb_puts(sb, blocks);
        else
            sb_puts(sb, host_kernel_param_name(e->a, &p[j]));
    }
}

static const char *param_handle(const EmitCtx *e, const Symbol *s, int id)
{
    (void)e;
    (void)id;
    return unparse_name(s);
}

void cuda_launch_call(StrBuf *sb, const EmitCtx *e, HostHandle handle, const char *count,
                      const char *blocks, const char *stream)
{
    sb_puts(sb, "imcl_launch(");
    launch_args(sb, e, handle, host_batch_count(e->k, count), blocks);
    sb_printf(sb, ", %s)", stream);
}

/* The launch helper: the grid of thesis eq. 3.7-3.9 and the kernel's arguments. */
static void launch_helper(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    sb_printf(sb, "/* Launches the kernel over the W x H x D grid in blocks of the tuned shape, each thread\n"
                  " * computing %dx%dx%d points (thesis eq. 3.7-3.9), and returns the launch's error; does not\n"
                  " * wait for the kernel, which runs in stream imcl_s. Used by %s and by its plan. */\n",
              tp->coarsen[0], tp->coarsen[1], tp->coarsen[2], e->host_name);
    sb_puts(sb, "static cudaError_t imcl_launch(");
    kernel_params(sb, e);
    int bz = tp->block[2] * tp->coarsen[2];
    const char *grid_xy = arena_printf(e->a, "(W + %d - 1) / %d, (H + %d - 1) / %d", tp->block[0] * tp->coarsen[0],
                                       tp->block[0] * tp->coarsen[0], tp->block[1] * tp->coarsen[1],
                                       tp->block[1] * tp->coarsen[1]);
    sb_printf(sb, ", cudaStream_t imcl_s)\n{\n    const dim3 imcl_block(%d, %d, %d);\n", tp->block[0], tp->block[1],
              tp->block[2]);
    if (!host_batchable(k) || tp->batch_loop) {
        if (host_batchable(k))
            sb_printf(sb, "    /* a batch: every thread loops over its blocks (%s) */\n", PARAM_NAME(batch_loop));
        sb_printf(sb, "    const dim3 imcl_grid(%s, (D + %d - 1) / %d);\n", grid_xy, bz, bz);
        sb_printf(sb, "    %s_kernel<<<imcl_grid, imcl_block, 0, imcl_s>>>(", e->host_name);
        launch_args(sb, e, param_handle, "imcl_count", "imcl_blocks");
        sb_puts(sb, ");\n    return cudaGetLastError();\n}\n\n");
        return;
    }
    sb_printf(sb, "    /* a batch: each block's work-groups follow the previous block's in z, at most 65535\n"
                  "     * in all, so a larger batch takes several launches, each with the list of blocks\n"
                  "     * (or without one, the arrays) moved to its first block */\n"
                  "    const unsigned imcl_zgroups = (unsigned)((D + %d - 1) / %d);\n"
                  "    if (imcl_zgroups > 65535u)\n        return cudaErrorInvalidValue;\n"
                  "    const int imcl_per_launch = (int)(65535u / imcl_zgroups);\n"
                  "    for (int imcl_first = 0; imcl_first < imcl_count; imcl_first += imcl_per_launch) {\n"
                  "        const int imcl_n = imcl_count - imcl_first < imcl_per_launch ? imcl_count - imcl_first\n"
                  "                                                                      : imcl_per_launch;\n"
                  "        const dim3 imcl_grid(%s, imcl_zgroups * (unsigned)imcl_n);\n",
              bz, bz, grid_xy);
    sb_printf(sb, "        %s_kernel<<<imcl_grid, imcl_block, 0, imcl_s>>>(", e->host_name);
    launch_args(sb, e, param_handle, "imcl_n", "imcl_blocks");
    sb_puts(sb, ");\n        const cudaError_t imcl_e = cudaGetLastError();\n"
                "        if (imcl_e != cudaSuccess)\n            return imcl_e;\n"
                "        if (imcl_blocks) {\n            imcl_blocks += imcl_n;\n            continue;\n        }\n");
    HostWriter w = host_writer(sb, 2);
    host_batch_advance(&w, e, "(size_t)imcl_n", "+=");
    sb_puts(sb, "    }\n    return cudaSuccess;\n}\n\n");
}

const char *cuda_texel_type(TypeKind t)
{
    return t == TY_DOUBLE ? "int2" : unparse_c_type(t);
}

/* Whether imcl_check_placements exists: textures, and grid arrays in constant memory
 * (sized at compile time; fixed-size arrays always fit). */
static bool has_placement_checks(const Function *k)
{
    return host_any(k, host_placement_checked);
}

/* imcl_check_placements: constant copies sized at compile time cannot take a
 * larger array; each texture must fit the device's largest 2D / 3D texture. */
static void placement_checks_helper(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    if (!has_placement_checks(k))
        return;
    bool dims[4];
    host_texture_dims(k, dims);
    sb_printf(sb, "/* The limits of the placements, checked before anything is allocated (each check\n"
                  " * says which).\n * Returns %s_OK, %s_ERR_ARGUMENT (an array too large) or %s_ERR_DEVICE. */\n",
              pk, pk, pk);
    sb_puts(sb, "static int imcl_check_placements(");
    host_checked_extents(sb, k, true, "");
    sb_puts(sb, ")\n{\n");
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_on_constant(s) || !type_is_grid(s->type))
            continue;
        sb_printf(sb, "    /* '%s' goes to constant memory sized for %lld elements (--size or grid_size) */\n",
                  s->name, placement_constant_elems(k, s, e->so));
        sb_puts(sb, "    if (");
        host_elems(sb, s);
        sb_printf(sb, " > sizeof %s / sizeof %s[0])\n", constant_name(k, s), constant_name(k, s));
        sb_printf(sb, "        return %s_ERR_ARGUMENT;\n", pk);
    }
    if (dims[2] || dims[3]) {
        static const char *attr[4][3] = {
            [2] = {"cudaDevAttrMaxTexture2DWidth", "cudaDevAttrMaxTexture2DHeight", NULL},
            [3] = {"cudaDevAttrMaxTexture3DWidth", "cudaDevAttrMaxTexture3DHeight", "cudaDevAttrMaxTexture3DDepth"},
        };
        sb_puts(sb, "    /* textures: each array must fit the device's largest 2D / 3D texture */\n");
        sb_printf(sb, "    int imcl_dev = 0%s%s;\n", dims[2] ? ", imcl_tex2d[2] = {0, 0}" : "",
                  dims[3] ? ", imcl_tex3d[3] = {0, 0, 0}" : "");
        sb_puts(sb, "    if (cudaGetDevice(&imcl_dev) != cudaSuccess");
        for (int n = 2; n <= 3; n++)
            if (dims[n])
                for (int d = 0; d < n; d++)
                    sb_printf(sb, " ||\n        cudaDeviceGetAttribute(&imcl_tex%dd[%d], %s, imcl_dev) != cudaSuccess", n,
                              d, attr[n][d]);
        sb_printf(sb, ")\n        return %s_ERR_DEVICE;\n", pk);
        HostWriter w = host_writer(sb, 1);
        host_texture_fit(&w, e, "imcl_tex", false);
    }
    sb_printf(sb, "    return %s_OK;\n}\n\n", pk);
}

void cuda_placement_checks(HostWriter *w, const EmitCtx *e)
{
    if (has_placement_checks(e->k))
        host_placement_checks_call(w, e, NULL);
}

const char *cuda_address_mode(const Symbol *s)
{
    return placement_texture_address(s) == TEXTURE_BORDER_ZERO ? "cudaAddressModeBorder" : "cudaAddressModeClamp";
}

const char *cuda_array_handle(const EmitCtx *e, const Symbol *s, int id)
{
    if (host_on_texture(s))
        return arena_printf(e->a, "imcl_a[%d].tex", id);
    return arena_printf(e->a, "(%s *)imcl_a[%d].buf", unparse_c_type(s->type->elem->kind), id);
}

static void wrapper(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    sb_puts(sb, "/* ---- host side: the helpers of the one-shot wrapper and of the plan ---- */\n\n");
    placement_checks_helper(sb, e);
    sb_printf(sb, "/* The stream of the one-shot wrapper's copies and launches, and of the plans created\n"
                  " * from now on: the application's (%s_use_queue), or 0, the default stream. */\n"
                  "static cudaStream_t imcl_stream;\n\n", pk);
    launch_helper(sb, e);
    cuda_layout_table(sb, e);

    /* PK: the device memory of the call, the launch and the copies back are the runtime's
     * (imcl_cu_call_begin, imcl_cu_call_end) */
    host_wrapper_begin(sb, e);
    HostWriter w = host_writer(sb, 1);
    host_wrapper_grid(&w, e, true);
    cuda_placement_checks(&w, e);
    plan_call_begin(&w, e, "imcl_cu", "imcl_stream", true);
    cuda_launch_call(sb, e, cuda_array_handle, "1", "NULL", "imcl_stream");
    sb_puts(sb, ");\n}\n\n");
}

/* File-scope declarations the kernel needs: the __constant__ copies of its arrays
 * in constant memory, and the double texture fetches. */
static void device_globals(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    bool dbl[4] = {false};
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (host_on_texture(s) && s->type->elem->kind == TY_DOUBLE)
            dbl[type_grid_dims(s->type)] = true;
        if (!host_on_constant(s))
            continue;
        long long n = placement_constant_elems(k, s, e->so);
        if (n < 1)
            UNREACHABLE();  /* placement_allowed refuses CUDA constant arrays of unknown size */
        sb_printf(sb, "/* '%s' in constant memory, %s; the wrapper copies it in. */\n", s->name,
                  type_is_grid(s->type) ? "sized for the grid given at compile time" : "as declared");
        sb_printf(sb, "static __constant__ %s %s[%lld];\n\n", unparse_c_type(s->type->elem->kind), constant_name(k, s), n);
    }
    /* imcl_tex2D_double, imcl_tex3D_double (runtime/tex2d_double.cuh, tex3d_double.cuh) */
    if (dbl[2])
        host_runtime(sb, e, runtime_cuda_tex2d_double);
    if (dbl[3])
        host_runtime(sb, e, runtime_cuda_tex3d_double);
}

static int emit(EmitCtx *e, Outputs *out)
{
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    StrBuf code = {0};
    Unparser u;
    unparse_init(&u, &code, &cuda_target);
    u.k = k;
    emit_helpers(&u, e->prog, k);
    device_globals(&code, e);
    host_kernel_comment(&code, e, "thread");
    /* (the host name: --prefix keeps two builds of one kernel apart in a program) */
    sb_printf(&code, "__global__ void __launch_bounds__(%d) %s_kernel(",
              tp->block[0] * tp->block[1] * tp->block[2], e->host_name);
    kernel_params(&code, e);
    sb_puts(&code, ")\n{\n");
    host_kernel_body(&u, e, "(int)blockIdx.z");
    sb_puts(&code, "}\n\n");
    int errors = unparse_check_depth(&u, e->diag, "CUDA");
    wrapper(&code, e);
    const char *pk = e->host_name;
    host_error_functions(&code, e, "imcl_cu", "\"\"", "    imcl_stream = 0; /* the default stream again */\n",
                         arena_printf(e->a, "    /* a CUDA application shares its stream; the device is the current one */\n"
                                            "    if (context || device)\n        return %s_ERR_ARGUMENT;\n"
                                            "    %s_release();\n    imcl_stream = (cudaStream_t)queue;\n"
                                            "    return %s_OK;\n", pk, pk, pk));
    plan_cuda_emit(&code, e);

    StrBuf *f = outputs_add(out, arena_printf(e->a, "%s.cu", k->name));
    host_banner(f, e, "CUDA kernel and host wrapper");
    sb_printf(f, "#include \"imcl_runtime_cuda.h\"\n#include \"%s.h\"\n\n", k->name);
    unparse_helper_defs(f, u.helpers, "__device__ static inline");
    sb_puts(f, sb_str(&code));
    sb_free(&code);
    host_runtime_file(out, "imcl_runtime_cuda.h", "the CUDA host runtime's declarations",
                      runtime_cuda_imcl_runtime_cuda_h);
    host_runtime_file(out, "imcl_runtime_rows.h", "helpers of the host runtime", runtime_wrappers_imcl_runtime_rows_h);
    host_runtime_file(out, "imcl_runtime_cuda.cu", "the CUDA host runtime", runtime_cuda_imcl_runtime_cuda);
    header_emit(e, out);
    return errors;
}

const Backend backend_cuda = {
    .name = "cuda",
    .target = &cuda_target,
    .emit = emit,
    .gpu = true,
    .warp_shuffles = true,
    .shared_limit = 49152,        /* static __shared__ memory per block */
    .constant_limit = 65536,      /* __constant__ memory */
    .constant_needs_size = true,  /* __constant__ arrays are sized when compiled */
    .t1_language = "CUDA",
    .t1_kernel_name = "%s_kernel",
    .kernel_prefixed = true,
    .mpi_device_memory = true,    /* a device pointer: a CUDA-aware MPI sends from it */
    .t1_kernel_file = "%s.cu",
    .t1_global_size_type = "CUDA",
};
