/* The CUDA backend: K.cu holds the __global__ kernel and its C-callable one-shot
 * wrapper (cudaMalloc, copies, launch, copies back, cudaFree). */
#include <string.h>

#include "emit.h"
#include "unparse.h"

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

static const Target cuda_target = {"cuda", host_c_type, cuda_builtin, cuda_math, "__device__ static"};

/* Kernel parameters: the public ones (arrays as device pointers), then W, H, D. */
static void kernel_params(StrBuf *sb, const Function *k)
{
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        sb_puts(sb, j ? ", " : "");
        if (!host_is_array(s)) {
            sb_printf(sb, "%s %s", host_c_type(s->type->kind), name);
            continue;
        }
        bool ro = !(s->access & ACC_WRITE);
        sb_printf(sb, "%s%s *%s%s", ro ? "const " : "", host_c_type(s->type->elem->kind),
                  ro ? "__restrict__ " : "", name);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, ", int %s%s", name, unparse_extent_suffix(d));
    }
    sb_printf(sb, "%sint W, int H, int D", n ? ", " : "");
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
        sb_printf(sb, "    %s *imcl_d_%s = NULL;\n", host_c_type(s->type->elem->kind), name);
        sb_printf(sb, "    const size_t imcl_%s_bytes = ", name);
        host_elems(sb, s);
        sb_printf(sb, " * sizeof(%s);\n", host_c_type(s->type->elem->kind));
    }
    sb_puts(sb, "\n");
    host_transfer_comment(sb, k, 1);
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            continue;
        const char *name = unparse_name(s);
        sb_printf(sb, "    if (cudaMalloc((void **)&imcl_d_%s, imcl_%s_bytes) != cudaSuccess) {\n", name, name);
        sb_printf(sb, "        imcl_status = %s_ERR_MEMORY;\n        goto done;\n    }\n", pk);
        if (host_copy_in(s)) {
            sb_printf(sb, "    if (cudaMemcpy(imcl_d_%s, %s, imcl_%s_bytes, cudaMemcpyHostToDevice) != cudaSuccess) {\n",
                      name, name, name);
            sb_printf(sb, "        imcl_status = %s_ERR_TRANSFER;\n        goto done;\n    }\n", pk);
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
    host_arg_list(sb, k, "imcl_d_");
    sb_printf(sb, "%sW, H, D);\n", k->nparams ? ", " : "");
    sb_puts(sb, "        if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {\n");
    sb_printf(sb, "            imcl_status = %s_ERR_LAUNCH;\n            goto done;\n        }\n    }\n", pk);
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
        sb_printf(sb, "        imcl_status = %s_ERR_TRANSFER;\n        goto done;\n    }\n", pk);
    }
    sb_puts(sb, "\ndone:\n");
    for (int i = 0; i < k->nparams; i++)
        if (host_is_array(k->params[i]))
            sb_printf(sb, "    cudaFree(imcl_d_%s);\n", unparse_name(k->params[i]));
    sb_puts(sb, "    return imcl_status;\n}\n\n");
}

int backend_cuda_emit(EmitCtx *e, Outputs *out)
{
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    StrBuf code = {0};
    Unparser u;
    unparse_init(&u, &code, &cuda_target);
    emit_helpers(&u, e->prog, k);
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
    sb_printf(f, "#include <cuda_runtime.h>\n#include <stddef.h>\n#include <stdlib.h>\n\n#include \"%s.h\"\n\n", k->name);
    unparse_helper_defs(f, u.helpers, "__device__ static inline");
    sb_puts(f, sb_str(&code));
    sb_free(&code);
    header_emit(e, out);
    return errors;
}
