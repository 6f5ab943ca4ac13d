/* The CUDA backend: K.cu holds the __global__ kernel and its C-callable one-shot
 * wrapper (cudaMalloc, copies, launch, copies back, cudaFree). */
#include <string.h>

#include "analysis.h"
#include "emit.h"
#include "unparse.h"

/* Where an array parameter lives on the device (SPEC 5, mem_<array>): Images and
 * Blocks in texture memory are texture objects over CUDA arrays; arrays in
 * constant memory are file-scope __constant__ copies; the others (global, and
 * shared, whose tiles the kernel loads itself) are device buffers. */
static bool on_texture(const Symbol *s)
{
    return type_is_grid(s->type) && s->mem == MEM_TEXTURE;
}

static bool on_constant(const Symbol *s)
{
    return s->mem == MEM_CONSTANT;
}

static bool on_buffer(const Symbol *s)
{
    return host_is_array(s) && !on_texture(s) && !on_constant(s);
}

/* The __constant__ copy of array s of kernel k (valid until the next call): named
 * after both, since the kernels of one source may be linked into one program. */
static const char *constant_name(const Function *k, const Symbol *s)
{
    static char buf[600];
    snprintf(buf, sizeof buf, "imcl_c_%s_%s", k->name, unparse_name(s));
    return buf;
}

static void cuda_builtin(Unparser *u, Builtin b)
{
    static const char *names[] = {
        [BI_THREAD_X] = "threadIdx.x", [BI_THREAD_Y] = "threadIdx.y", [BI_THREAD_Z] = "threadIdx.z",
        [BI_GROUP_X] = "blockIdx.x", [BI_GROUP_Y] = "blockIdx.y", [BI_GROUP_Z] = "blockIdx.z",
        [BI_NUM_GROUPS_X] = "gridDim.x", [BI_NUM_GROUPS_Y] = "gridDim.y", [BI_NUM_GROUPS_Z] = "gridDim.z",
    };
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
    const char *ty = host_c_type(t->kind);
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
        sb_printf(u->out, "tex%dD<%s>(%s", n, host_c_type(s->type->elem->kind), unparse_name(s));
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
    return on_constant(s) && u->k ? constant_name(u->k, s) : unparse_name(s);
}

static const Target cuda_target = {"cuda", host_c_type, cuda_builtin, cuda_math, "__device__ static", "__shared__ ",
                                   cuda_texture_read, cuda_buffer_name};

/* Kernel parameters: the public ones (arrays as device pointers or texture
 * objects; arrays in constant memory only by their extents), then W, H, D. */
static void kernel_params(StrBuf *sb, const Function *k)
{
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    const char *sep = "";
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        if (!host_is_array(s)) {
            sb_printf(sb, "%s%s %s", sep, host_c_type(s->type->kind), name);
            sep = ", ";
            continue;
        }
        bool ro = !(s->access & ACC_WRITE);
        if (on_texture(s)) {
            sb_printf(sb, "%scudaTextureObject_t %s", sep, name);
            sep = ", ";
        } else if (!on_constant(s)) {
            sb_printf(sb, "%s%s%s *%s%s", sep, ro ? "const " : "", host_c_type(s->type->elem->kind),
                      ro ? "__restrict__ " : "", name);
            sep = ", ";
        }
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++) {
                sb_printf(sb, "%sint %s%s", sep, name, unparse_extent_suffix(d));
                sep = ", ";
            }
    }
    sb_printf(sb, "%sint W, int H, int D", sep);
}

/* The launch arguments, in kernel_params' order. */
static void launch_args(StrBuf *sb, const Function *k)
{
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        if (!host_is_array(s))
            sb_printf(sb, "%s, ", name);
        else if (on_texture(s))
            sb_printf(sb, "imcl_t_%s, ", name);
        else if (!on_constant(s))
            sb_printf(sb, "imcl_d_%s, ", name);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, "%s%s, ", name, unparse_extent_suffix(d));
    }
    sb_puts(sb, "W, H, D");
}

/* The end of `if (...) {` at depth `indent`: status `code`, then to the clean-up. */
static void fail(StrBuf *sb, int indent, const char *pk, const char *code)
{
    sb_printf(sb, "%*simcl_status = %s_%s;\n%*sgoto done;\n%*s}\n", 4 * indent + 4, "", pk, code,
              4 * indent + 4, "", 4 * indent, "");
}

/* Storage extent d of grid array s (extent + 2 * halo), as C text. */
static const char *storage_extent(Arena *a, const Symbol *s, int d)
{
    if (s->halo)
        return arena_printf(a, "(%s%s + %d)", unparse_name(s), unparse_extent_suffix(d), 2 * s->halo);
    return arena_printf(a, "%s%s", unparse_name(s), unparse_extent_suffix(d));
}

/* The channel format of a texel of element type t: doubles travel as int2. */
static const char *texel_type(TypeKind t)
{
    return t == TY_DOUBLE ? "int2" : host_c_type(t);
}

/* Checks the storage of every texture array against the device's largest 2D and
 * 3D textures (ERR_ARGUMENT when it does not fit). */
static void texture_limits(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    bool dims[4] = {false};
    for (int i = 0; i < k->nparams; i++)
        if (on_texture(k->params[i]))
            dims[type_grid_dims(k->params[i]->type)] = true;
    if (!dims[2] && !dims[3])
        return;
    static const char *attr[4][3] = {
        [2] = {"cudaDevAttrMaxTexture2DWidth", "cudaDevAttrMaxTexture2DHeight", NULL},
        [3] = {"cudaDevAttrMaxTexture3DWidth", "cudaDevAttrMaxTexture3DHeight", "cudaDevAttrMaxTexture3DDepth"},
    };
    sb_puts(sb, "    /* textures: each array must fit the device's largest 2D / 3D texture */\n");
    sb_printf(sb, "    {\n        int imcl_dev = 0%s%s;\n", dims[2] ? ", imcl_tex2d[2] = {0, 0}" : "",
              dims[3] ? ", imcl_tex3d[3] = {0, 0, 0}" : "");
    sb_puts(sb, "        if (cudaGetDevice(&imcl_dev) != cudaSuccess");
    for (int n = 2; n <= 3; n++)
        if (dims[n])
            for (int d = 0; d < n; d++)
                sb_printf(sb, " ||\n            cudaDeviceGetAttribute(&imcl_tex%dd[%d], %s, imcl_dev) != cudaSuccess", n,
                          d, attr[n][d]);
    sb_puts(sb, ") {\n");
    fail(sb, 2, pk, "ERR_DEVICE");
    sb_puts(sb, "        if (");
    const char *sep = "";
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!on_texture(s))
            continue;
        int n = type_grid_dims(s->type);
        for (int d = 0; d < n; d++) {
            sb_printf(sb, "%s%s > imcl_tex%dd[%d]", sep, storage_extent(e->a, s, d), n, d);
            sep = " ||\n            ";
        }
    }
    sb_puts(sb, ") {\n");
    fail(sb, 2, pk, "ERR_ARGUMENT");
    sb_puts(sb, "    }\n\n");
}

/* Array s into a CUDA array and a texture object over it: point sampling,
 * unnormalized coordinates, the addressing mode of its boundary condition. */
static void texture_upload(StrBuf *sb, const EmitCtx *e, const Symbol *s)
{
    const char *pk = e->host_name;
    const char *name = unparse_name(s);
    int n = type_grid_dims(s->type);
    TypeKind t = s->type->elem->kind;
    const char *w = storage_extent(e->a, s, 0), *h = storage_extent(e->a, s, 1);
    TextureAddress mode = placement_texture_address(s);
    sb_printf(sb, "    /* '%s' as a %dD texture (%s)%s */\n", s->name, n,
              mode == TEXTURE_CLAMP_EDGE    ? "clamp-to-edge addressing is its clamped boundary"
              : mode == TEXTURE_BORDER_ZERO ? "a border of zeros is its constant boundary"
                                            : "the kernel applies its boundary condition",
              t == TY_DOUBLE ? "; each double is stored as an int2, textures having no double format" : "");
    sb_printf(sb, "    {\n        const cudaChannelFormatDesc imcl_format = cudaCreateChannelDesc<%s>();\n",
              texel_type(t));
    if (n == 2) {
        sb_printf(sb, "        if (cudaMallocArray(&imcl_a_%s, &imcl_format, %s, %s) != cudaSuccess) {\n", name, w, h);
        fail(sb, 2, pk, "ERR_MEMORY");
        sb_printf(sb, "        const size_t imcl_pitch = (size_t)%s * sizeof(%s);\n", w, host_c_type(t));
        sb_printf(sb, "        if (cudaMemcpy2DToArray(imcl_a_%s, 0, 0, %s, imcl_pitch, imcl_pitch, %s, cudaMemcpyHostToDevice) != cudaSuccess) {\n",
                  name, name, h);
        fail(sb, 2, pk, "ERR_TRANSFER");
    } else {
        const char *dd = storage_extent(e->a, s, 2);
        sb_printf(sb, "        const cudaExtent imcl_extent = make_cudaExtent(%s, %s, %s);\n", w, h, dd);
        sb_printf(sb, "        if (cudaMalloc3DArray(&imcl_a_%s, &imcl_format, imcl_extent, 0) != cudaSuccess) {\n", name);
        fail(sb, 2, pk, "ERR_MEMORY");
        sb_puts(sb, "        cudaMemcpy3DParms imcl_copy;\n        memset(&imcl_copy, 0, sizeof imcl_copy);\n");
        sb_printf(sb, "        imcl_copy.srcPtr = make_cudaPitchedPtr((void *)%s, (size_t)%s * sizeof(%s), %s, %s);\n", name,
                  w, host_c_type(t), w, h);
        sb_printf(sb, "        imcl_copy.dstArray = imcl_a_%s;\n", name);
        sb_puts(sb, "        imcl_copy.extent = imcl_extent;\n        imcl_copy.kind = cudaMemcpyHostToDevice;\n");
        sb_puts(sb, "        if (cudaMemcpy3D(&imcl_copy) != cudaSuccess) {\n");
        fail(sb, 2, pk, "ERR_TRANSFER");
    }
    sb_puts(sb, "        struct cudaResourceDesc imcl_res;\n        memset(&imcl_res, 0, sizeof imcl_res);\n");
    sb_printf(sb, "        imcl_res.resType = cudaResourceTypeArray;\n        imcl_res.res.array.array = imcl_a_%s;\n", name);
    sb_puts(sb, "        struct cudaTextureDesc imcl_desc;\n        memset(&imcl_desc, 0, sizeof imcl_desc);\n");
    const char *am = mode == TEXTURE_BORDER_ZERO ? "cudaAddressModeBorder" : "cudaAddressModeClamp";
    for (int d = 0; d < n; d++)
        sb_printf(sb, "        imcl_desc.addressMode[%d] = %s;\n", d, am);
    sb_puts(sb, "        imcl_desc.filterMode = cudaFilterModePoint;\n        imcl_desc.readMode = cudaReadModeElementType;\n");
    sb_puts(sb, "        imcl_desc.normalizedCoords = 0;\n");
    sb_printf(sb, "        if (cudaCreateTextureObject(&imcl_t_%s, &imcl_res, &imcl_desc, NULL) != cudaSuccess) {\n", name);
    fail(sb, 2, pk, "ERR_MEMORY");
    sb_puts(sb, "    }\n");
}

static void wrapper(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    const TuneParams *tp = e->tp;
    sb_printf(sb, "int %s(", pk);
    host_param_list(sb, k);
    sb_puts(sb, ")\n{\n");
    host_check_args(sb, k, arena_printf(e->a, "%s_ERR_ARGUMENT", pk), 1);
    host_grid_extent(sb, k, 1);
    sb_puts(sb, "    if (W < 1 || H < 1 || D < 1)\n");
    sb_printf(sb, "        return %s_OK; /* an empty grid: nothing to do */\n", pk);
    /* Constant copies are sized at compile time: a larger grid array cannot go there. */
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!on_constant(s) || !type_is_grid(s->type))
            continue;
        sb_printf(sb, "    /* '%s' goes to constant memory sized for %lld elements (--size or grid_size) */\n",
                  s->name, placement_constant_elems(k, s, e->so));
        sb_puts(sb, "    if (");
        host_elems(sb, s);
        sb_printf(sb, " > sizeof %s / sizeof %s[0])\n", constant_name(k, s), constant_name(k, s));
        sb_printf(sb, "        return %s_ERR_ARGUMENT;\n", pk);
    }
    sb_puts(sb, "    int imcl_count = 0;\n");
    sb_puts(sb, "    if (cudaGetDeviceCount(&imcl_count) != cudaSuccess || imcl_count == 0)\n");
    sb_printf(sb, "        return %s_ERR_DEVICE;\n", pk);
    sb_printf(sb, "    int imcl_status = %s_OK;\n", pk);
    /* Declarations before the first goto: C++ forbids jumping over initializers. */
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            continue;
        const char *name = unparse_name(s);
        if (on_texture(s)) {
            sb_printf(sb, "    cudaArray_t imcl_a_%s = NULL;\n    cudaTextureObject_t imcl_t_%s = 0;\n", name, name);
            continue;
        }
        if (on_buffer(s))
            sb_printf(sb, "    %s *imcl_d_%s = NULL;\n", host_c_type(s->type->elem->kind), name);
        sb_printf(sb, "    const size_t imcl_%s_bytes = ", name);
        host_elems(sb, s);
        sb_printf(sb, " * sizeof(%s);\n", host_c_type(s->type->elem->kind));
    }
    sb_puts(sb, "\n");
    texture_limits(sb, e);
    host_transfer_comment(sb, k, 1);
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            continue;
        const char *name = unparse_name(s);
        if (on_texture(s)) {
            texture_upload(sb, e, s);
            continue;
        }
        if (on_constant(s)) {
            sb_printf(sb, "    if (cudaMemcpyToSymbol(%s, %s, imcl_%s_bytes) != cudaSuccess) {\n", constant_name(k, s),
                      name, name);
            fail(sb, 1, pk, "ERR_TRANSFER");
            continue;
        }
        sb_printf(sb, "    if (cudaMalloc((void **)&imcl_d_%s, imcl_%s_bytes) != cudaSuccess) {\n", name, name);
        fail(sb, 1, pk, "ERR_MEMORY");
        if (host_copy_in(s)) {
            sb_printf(sb, "    if (cudaMemcpy(imcl_d_%s, %s, imcl_%s_bytes, cudaMemcpyHostToDevice) != cudaSuccess) {\n",
                      name, name, name);
            fail(sb, 1, pk, "ERR_TRANSFER");
        }
    }
    sb_puts(sb, "\n    /* one thread per grid point, blocks of the tuned shape (thesis eq. 3.7-3.9) */\n");
    sb_puts(sb, "    {\n");
    sb_printf(sb, "        const dim3 imcl_block(%d, %d, %d);\n", tp->block[0], tp->block[1], tp->block[2]);
    sb_printf(sb, "        const dim3 imcl_grid((W + %d - 1) / %d, (H + %d - 1) / %d, (D + %d - 1) / %d);\n",
              tp->block[0] * tp->coarsen[0], tp->block[0] * tp->coarsen[0],
              tp->block[1] * tp->coarsen[1], tp->block[1] * tp->coarsen[1],
              tp->block[2] * tp->coarsen[2], tp->block[2] * tp->coarsen[2]);
    sb_printf(sb, "        %s_kernel<<<imcl_grid, imcl_block>>>(", k->name);
    launch_args(sb, k);
    sb_puts(sb, ");\n");
    sb_puts(sb, "        if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {\n");
    fail(sb, 2, pk, "ERR_LAUNCH");
    sb_puts(sb, "    }\n");
    bool any_out = false;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s) || !host_copy_out(s))
            continue;
        if (!any_out)
            sb_puts(sb, "\n    /* copies of what the kernel wrote */\n");
        any_out = true;
        const char *name = unparse_name(s);
        sb_printf(sb, "    if (cudaMemcpy(%s, imcl_d_%s, imcl_%s_bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {\n",
                  name, name, name);
        fail(sb, 1, pk, "ERR_TRANSFER");
    }
    sb_puts(sb, "\ndone:\n");
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        const char *name = unparse_name(s);
        if (on_texture(s))
            sb_printf(sb, "    if (imcl_t_%s)\n        cudaDestroyTextureObject(imcl_t_%s);\n"
                          "    if (imcl_a_%s)\n        cudaFreeArray(imcl_a_%s);\n", name, name, name, name);
        else if (on_buffer(s))
            sb_printf(sb, "    cudaFree(imcl_d_%s);\n", name);
    }
    sb_puts(sb, "    return imcl_status;\n}\n\n");
}

/* File-scope declarations the kernel needs: the __constant__ copies of its arrays
 * in constant memory, and the double texture fetches. */
static void device_globals(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    bool dbl[4] = {false};
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (on_texture(s) && s->type->elem->kind == TY_DOUBLE)
            dbl[type_grid_dims(s->type)] = true;
        if (!on_constant(s))
            continue;
        long long n = placement_constant_elems(k, s, e->so);
        if (n < 1)
            UNREACHABLE();  /* placement_allowed refuses CUDA constant arrays of unknown size */
        sb_printf(sb, "/* '%s' in constant memory, %s; the wrapper copies it in. */\n", s->name,
                  type_is_grid(s->type) ? "sized for the grid given at compile time" : "as declared");
        sb_printf(sb, "static __constant__ %s %s[%lld];\n\n", host_c_type(s->type->elem->kind), constant_name(k, s), n);
    }
    for (int n = 2; n <= 3; n++) {
        if (!dbl[n])
            continue;
        sb_printf(sb, "/* A double texel: textures have no double format, so it is stored as an int2. */\n");
        sb_printf(sb, "__device__ static inline double imcl_tex%dD_double(cudaTextureObject_t t, float x, float y%s)\n{\n",
                  n, n == 3 ? ", float z" : "");
        sb_printf(sb, "    const int2 v = tex%dD<int2>(t, x, y%s);\n", n, n == 3 ? ", z" : "");
        sb_puts(sb, "    return __hiloint2double(v.y, v.x);\n}\n\n");
    }
}

int backend_cuda_emit(EmitCtx *e, Outputs *out)
{
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    StrBuf code = {0};
    Unparser u;
    unparse_init(&u, &code, &cuda_target);
    u.k = k;
    emit_helpers(&u, e->prog, k);
    device_globals(&code, e);
    sb_printf(&code, "/* Kernel '%s': one thread per grid point. */\n", k->name);
    sb_printf(&code, "__global__ void __launch_bounds__(%d) %s_kernel(",
              tp->block[0] * tp->block[1] * tp->block[2], k->name);
    kernel_params(&code, k);
    sb_puts(&code, ")\n{\n");
    u.indent = 1;
    unparse_stmts(&u, k->body);
    sb_puts(&code, "}\n\n");
    int errors = unparse_check_depth(&u, e->diag, "CUDA");
    wrapper(&code, e);
    host_error_functions(&code, e->host_name, "\"\"");
    plan_cuda_emit(&code, e);

    StrBuf *f = outputs_add(out, arena_printf(e->a, "%s.cu", k->name));
    host_banner(f, e, "CUDA kernel and host wrapper");
    bool textures = false;
    for (int i = 0; i < k->nparams; i++)
        textures |= on_texture(k->params[i]);
    /* string.h for the memset of the texture descriptors */
    sb_printf(f, "#include <cuda_runtime.h>\n#include <stddef.h>\n#include <stdlib.h>\n%s\n#include \"%s.h\"\n\n",
              textures ? "#include <string.h>\n" : "", k->name);
    unparse_helper_defs(f, u.helpers, "__device__ static inline");
    sb_puts(f, sb_str(&code));
    sb_free(&code);
    header_emit(e, out);
    return errors;
}
