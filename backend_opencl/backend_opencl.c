/* The OpenCL backend: K.cl holds the OpenCL C 1.2 kernel; K_host.c embeds that
 * source and holds the one-shot wrapper (device choice, program build, buffers,
 * launch, read-back). */
#include <string.h>

#include "emit.h"
#include "layout.h"
#include "host.h"
#include "lanes.h"
#include "opencl_host.h"
#include "placement.h"
#include "plan.h"
#include "runtime_text/backend_opencl.h"
#include "runtime_text/wrappers.h"
#include "unparse.h"

/* Where an array lives: host_on_texture (an image read through a sampler),
 * host_on_constant (a __constant buffer), else a __global buffer (wrappers/host.c). */
static bool on_image(const Symbol *s)
{
    return host_on_texture(s);
}

static bool on_constant(const Symbol *s)
{
    return host_on_constant(s);
}

static const char *cl_type(TypeKind k)
{
    static const char *names[] = {"void", "char", "uchar", "short", "ushort", "int", "uint", "float", "double"};
    if (k > TY_DOUBLE)
        UNREACHABLE();
    return names[k];
}

static void cl_builtin(Unparser *u, Builtin b)
{
    static const char *names[] = {
        [BI_THREAD_X] = "get_local_id(0)", [BI_THREAD_Y] = "get_local_id(1)", [BI_THREAD_Z] = "get_local_id(2)",
        [BI_GROUP_X] = "get_group_id(0)", [BI_GROUP_Y] = "get_group_id(1)", [BI_GROUP_Z] = "get_group_id(2)",
        [BI_NUM_GROUPS_X] = "get_num_groups(0)", [BI_NUM_GROUPS_Y] = "get_num_groups(1)",
        [BI_NUM_GROUPS_Z] = "get_num_groups(2)", [BI_BLOCK_DIM_X] = "get_local_size(0)",
        [BI_BLOCK_DIM_Y] = "get_local_size(1)",
    };
    if (b == BI_GROUP_Z && u->batch) {
        sb_puts(u->out, "imcl_group_z");
        return;
    }
    /* The work-item functions return size_t; the grid arithmetic is int. */
    sb_printf(u->out, "(int)%s", names[b]);
}

static void cl_math(Unparser *u, const Node *call)
{
    const MathInfo *m = math_info(call->u.call.math);
    if (m->kind == MK_ABS) {
        /* OpenCL's abs returns an unsigned type. */
        sb_puts(u->out, "(int)");
        unparse_call_converted(u, "abs", call, type_scalar(TY_INT));
        return;
    }
    /* Overloaded built-ins: the arguments get the result type so that no call is
     * ambiguous (sqrt of an int, min of an int and a float). */
    unparse_call_converted(u, m->name, call, call->type);
}

/* read_image{f,i,ui}(A, imcl_s_A, (int2)(x, y)).x: one channel per texel, except
 * doubles, whose two halves sit in the first two channels of an RGBA texel. */
static void cl_texture_read(Unparser *u, const Node *r)
{
    const Symbol *s = r->u.access.sym;
    TypeKind t = s->type->elem->kind;
    int n = r->u.access.n;
    const char *fn = t == TY_FLOAT ? "read_imagef"
                   : t == TY_CHAR || t == TY_SHORT || t == TY_INT ? "read_imagei" : "read_imageui";
    if (t == TY_DOUBLE)
        sb_puts(u->out, "as_double(");
    else if (t != TY_FLOAT && t != TY_INT && t != TY_UINT)
        sb_printf(u->out, "(%s)", cl_type(t));  /* the channel comes back as int or uint */
    sb_printf(u->out, "%s(%s, imcl_s_%s, (int%d)(", fn, unparse_name(s), unparse_name(s), n == 2 ? 2 : 4);
    for (int d = 0; d < n; d++) {
        if (d)
            sb_puts(u->out, ", ");
        unparse_additive(u, r->u.access.ix[d]);
    }
    sb_puts(u->out, n == 3 ? ", 0))" : "))");
    sb_puts(u->out, t == TY_DOUBLE ? ".xy)" : ".x");
}

static const Target cl_target = {
    .name = "opencl",
    .scalar_type = cl_type,
    .builtin = cl_builtin,
    .math_call = cl_math,
    .function_qualifier = "static",
    .shared_qualifier = "__local ",
    .texture_read = cl_texture_read,
    .barrier = "barrier(CLK_LOCAL_MEM_FENCE);",
    /* PoCL runs a coarsened work-item's points in a loop that keeps it from vectorising
     * the work-group (sum7 with coarsen_z 2 at 256^3: 57 ms with the loop, 14 ms unrolled) */
    .unroll_hint = "#pragma unroll %d",
    /* the CPU variant's guard-free walk (pass_thread_mapping, row_walk): a point of many
     * taps is one long chain of additions, and two vectors of points side by side hide
     * its latency (box3d1r double on PoCL +15-22%; docs/tuning.md, "Defaults"); other
     * OpenCL compilers ignore a pragma they do not know */
    .interleave_hint = "#pragma clang loop interleave_count(%d)",
};

const char *opencl_image_format(TypeKind t)
{
    switch (t) {
    case TY_CHAR: return "{CL_R, CL_SIGNED_INT8}";
    case TY_UCHAR: return "{CL_R, CL_UNSIGNED_INT8}";
    case TY_SHORT: return "{CL_R, CL_SIGNED_INT16}";
    case TY_USHORT: return "{CL_R, CL_UNSIGNED_INT16}";
    case TY_INT: return "{CL_R, CL_SIGNED_INT32}";
    case TY_UINT: return "{CL_R, CL_UNSIGNED_INT32}";
    case TY_FLOAT: return "{CL_R, CL_FLOAT}";
    case TY_DOUBLE: return "{CL_RGBA, CL_UNSIGNED_INT32}";
    default: UNREACHABLE();
    }
}

/* One sampler per image: integer coordinates, nearest texel, and the addressing
 * mode that is the array's boundary condition when one is. They are declared in
 * the kernel's outermost scope, not at program scope: PoCL (3.1) crashes compiling
 * a kernel that reads two images through different program-scope samplers on the
 * two sides of a branch; OpenCL allows both places and other devices see no
 * difference (tests/lang/tex_samplers.imcl). */
static void samplers(StrBuf *sb, const Function *k)
{
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!on_image(s))
            continue;
        TextureAddress m = placement_texture_address(s);
        sb_printf(sb, "    /* '%s' in image memory: %s */\n", s->name,
                  m == TEXTURE_CLAMP_EDGE    ? "clamp-to-edge addressing is its clamped boundary"
                  : m == TEXTURE_BORDER_ZERO ? "CLK_ADDRESS_CLAMP's zero border is its constant boundary"
                                             : "the kernel applies its boundary condition");
        sb_printf(sb, "    const sampler_t imcl_s_%s =\n        CLK_NORMALIZED_COORDS_FALSE | %s | CLK_FILTER_NEAREST;\n",
                  unparse_name(s),
                  m == TEXTURE_CLAMP_EDGE    ? "CLK_ADDRESS_CLAMP_TO_EDGE"
                  : m == TEXTURE_BORDER_ZERO ? "CLK_ADDRESS_CLAMP"
                                             : "CLK_ADDRESS_NONE");
    }
}

static bool uses_double(Node *n, void *p)
{
    bool *found = p;
    if (n->type && n->type->kind == TY_DOUBLE)
        *found = true;
    if (n->kind == AST_DECL && n->u.decl.sym->type &&
        (n->u.decl.sym->type->kind == TY_DOUBLE ||
         (n->u.decl.sym->type->elem && n->u.decl.sym->type->elem->kind == TY_DOUBLE)))
        *found = true;
    return !*found;
}

/* The CPU variant's name in K.cl: the kernel's, then _cpu (no helper can take it:
 * helpers are printed as imcl_fn_NAME). */
static const char *cpu_kernel_name(const EmitCtx *e)
{
    return arena_printf(e->a, "%s_cpu", unparse_kernel_name(e->k));
}

/* The kernel function of e->k with parameters e->tp, named `name`, into u's output. */
static void kernel_function(Unparser *u, const EmitCtx *e, const char *name)
{
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    StrBuf *code = u->out;
    host_kernel_comment(code, e, "work-item");
    if (tp->row_fit) /* the launch chooses the work-group's shape (TuneParams.row_fit) */
        sb_printf(code, "__kernel void %s(", name);
    else
        sb_printf(code, "__kernel __attribute__((reqd_work_group_size(%d, %d, %d)))\nvoid %s(",
                  tp->block[0], tp->block[1], tp->block[2], name);
    KernelParam p[HOST_KERNEL_PARAMS(k)];
    int n = host_kernel_params(k, true, p);
    for (int j = 0; j < n; j++) {
        const Symbol *s = p[j].s;
        const char *pname = host_kernel_param_name(e->a, &p[j]);
        sb_puts(code, j ? ", " : "");
        if (HOST_PARAM_BLOCKS(p[j])) {
            sb_printf(code, "__global const int *restrict %s", pname);
        } else if (!s || p[j].extent >= 0) {
            sb_printf(code, "const int %s", pname);
        } else if (!host_is_array(s)) {
            sb_printf(code, "%s %s", cl_type(s->type->kind), pname);
        } else if (on_image(s)) {
            sb_printf(code, "__read_only image%dd_t %s", type_grid_dims(s->type), pname);
        } else if (on_constant(s)) {
            sb_printf(code, "__constant %s *restrict %s", cl_type(s->type->elem->kind), pname);
        } else {
            bool ro = !(s->access & ACC_WRITE);
            sb_printf(code, "__global %s%s *%s%s", ro ? "const " : "", cl_type(s->type->elem->kind),
                      ro ? "restrict " : "", pname);
        }
    }
    if (params_cpu_parts(tp))
        sb_printf(code, ", const int %s, const int %s", builtin_spelling(BI_PART_FROM), builtin_spelling(BI_PART_TO));
    sb_puts(code, ")\n{\n");
    samplers(code, k);
    host_kernel_body(u, e, "(int)get_group_id(2)");
    sb_puts(code, "}\n");
}

/* K.cl: the helpers, the kernel and its CPU variant when there is one. Returns the
 * number of errors. */
static int kernel_source(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    StrBuf code = {0};
    Unparser u;
    unparse_init(&u, &code, &cl_target);
    /* the CPU variant's walks along rows, in lanes where their tap loops allow */
    u.print_walk = lanes_print_walk;
    u.a = e->a;
    emit_helpers(&u, e->prog, k);
    kernel_function(&u, e, unparse_kernel_name(k));
    if (e->k_cpu) {
        const TuneParams *c = e->tp_cpu;
        if (c->row_walk)
            sb_printf(&code, "\n/* The variant for CPU devices (the host picks it on a device of type CPU:\n"
                             " * imcl_cpu_device): a work-item per row of the grid, %d rows a work-group, each\n"
                             " * walking its row in a loop the device compiler vectorises, %sthe row's\n"
                             " * interior without edge guards (docs/tuning.md, \"Defaults\"). */\n",
                      c->block[1], c->unrolled_whole ? "for loops unrolled, "
                                   : c->lanes         ? "its tap loops over chunks of it (lanes), "
                                                      : "");
        else
            sb_printf(&code, "\n/* The variant for CPU devices (the host picks it on a device of type CPU:\n"
                             " * imcl_cpu_device): work-groups of %s%dx%dx%d, rows that the device compiler\n"
                             " * vectorises, %sone guarded body (docs/tuning.md, \"Defaults\"). */\n",
                      c->row_fit ? "up to " : "", c->block[0], c->block[1], c->block[2],
                      c->unrolled_whole ? "for loops unrolled, " : "and ");
        EmitCtx ce = *e;
        ce.k = e->k_cpu;
        ce.tp = c;
        kernel_function(&u, &ce, cpu_kernel_name(e));
    }
    int errors = unparse_check_depth(&u, e->diag, "OpenCL");

    bool dbl = false;
    for (int i = 0; i < k->nparams; i++) {
        const Type *t = k->params[i]->type;
        dbl |= (t->elem ? t->elem : t)->kind == TY_DOUBLE;
    }
    ast_walk(k->body, uses_double, &dbl);
    if (e->k_cpu)
        ast_walk(e->k_cpu->body, uses_double, &dbl);
    sb_puts(sb, "/* a * b + c rounds twice, as in the C reference: the same bits on every device\n"
                " * (docs/language.md, \"Floating-point results\") */\n"
                "#pragma OPENCL FP_CONTRACT OFF\n");
    if (dbl)
        sb_puts(sb, "#if defined(cl_khr_fp64)\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n");
    sb_putc(sb, '\n');
    unparse_helper_defs(sb, u.helpers, "static inline");
    sb_puts(sb, sb_str(&code));
    sb_free(&code);
    return errors;
}

/* The kernel source as a C string literal, one source line per literal line. */
static void embed(StrBuf *sb, const char *src)
{
    sb_puts(sb, "    \"");
    for (const char *p = src; *p; p++) {
        switch (*p) {
        case '\n':
            sb_puts(sb, p[1] ? "\\n\"\n    \"" : "\\n\"");
            break;
        case '"': sb_puts(sb, "\\\""); break;
        case '\\': sb_puts(sb, "\\\\"); break;
        case '\t': sb_puts(sb, "\\t"); break;
        default: sb_putc(sb, *p);
        }
    }
    if (!*src || src[strlen(src) - 1] != '\n')
        sb_putc(sb, '"');
}

/* ---- host code shared by the one-shot wrapper and the plan (plan_opencl.c, opencl_host.h) ----
 * K_host.c defines, before PK, the static helpers both call: imcl_device (the
 * device) and imcl_build (the program), copied from runtime/device.c and
 * runtime/build.c; imcl_check_placements (the limits of the placements on the
 * device); the image helpers of runtime/image.c (texture memory); and imcl_launch
 * (the kernel's arguments and the grid), so that each exists once. */

/* Whether imcl_check_placements exists: images, and arrays in constant memory (whose
 * sizes together must fit the device's constant buffer, fixed-size ones included). */
static bool has_placement_checks(const Function *k)
{
    return host_any(k, host_on_texture) || host_any(k, host_on_constant);
}

/* imcl_check_placements: what the device must offer for the placements: image
 * support and image extents for arrays in image memory, constant-buffer size and
 * argument count for arrays in constant memory. */
static void placement_checks_helper(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    if (!has_placement_checks(k))
        return;
    bool dims[4];
    host_texture_dims(k, dims);
    int nconst = 0;
    for (int i = 0; i < k->nparams; i++)
        nconst += on_constant(k->params[i]);
    sb_printf(sb, "/* The limits of the placements on device imcl_dev, checked before anything is\n"
                  " * allocated (each check says which).\n"
                  " * Returns %s_OK, %s_ERR_ARGUMENT (an array too large) or %s_ERR_DEVICE. */\n", pk, pk, pk);
    HostWriter w = host_writer(sb, 2); /* the checks are blocks of their own */
    sb_puts(sb, "static int imcl_check_placements(cl_device_id imcl_dev");
    host_checked_extents(sb, k, true, ", ");
    sb_puts(sb, ")\n{\n");
    if (dims[2] || dims[3]) {
        static const char *info[4][3] = {
            [2] = {"CL_DEVICE_IMAGE2D_MAX_WIDTH", "CL_DEVICE_IMAGE2D_MAX_HEIGHT", NULL},
            [3] = {"CL_DEVICE_IMAGE3D_MAX_WIDTH", "CL_DEVICE_IMAGE3D_MAX_HEIGHT", "CL_DEVICE_IMAGE3D_MAX_DEPTH"},
        };
        sb_puts(sb, "    /* image memory: the device must have images, and each array must fit its largest 2D / 3D image */\n");
        sb_puts(sb, "    {\n        cl_bool imcl_images = CL_FALSE;\n");
        sb_printf(sb, "        size_t %s%s%s;\n", dims[2] ? "imcl_img2d[2] = {0, 0}" : "", dims[2] && dims[3] ? ", " : "",
                  dims[3] ? "imcl_img3d[3] = {0, 0, 0}" : "");
        sb_puts(sb, "        if (clGetDeviceInfo(imcl_dev, CL_DEVICE_IMAGE_SUPPORT, sizeof imcl_images, &imcl_images, NULL) != CL_SUCCESS ||\n");
        sb_puts(sb, "            !imcl_images");
        for (int n = 2; n <= 3; n++)
            if (dims[n])
                for (int d = 0; d < n; d++)
                    sb_printf(sb, " ||\n            clGetDeviceInfo(imcl_dev, %s, sizeof(size_t), &imcl_img%dd[%d], NULL) != CL_SUCCESS",
                              info[n][d], n, d);
        sb_printf(sb, ")\n            return %s_ERR_DEVICE;\n", pk);
        host_texture_fit(&w, e, "imcl_img", true);
        sb_puts(sb, "    }\n");
    }
    if (nconst) {
        sb_puts(sb, "    /* constant memory: the arrays together must fit the device's constant buffer */\n    {\n");
        for (int i = 0; i < k->nparams; i++) {
            const Symbol *s = k->params[i];
            if (!on_constant(s))
                continue;
            host_bytes_decl(&w, s);
        }
        sb_puts(sb, "        cl_ulong imcl_const_bytes = 0;\n        cl_uint imcl_const_args = 0;\n");
        sb_puts(sb, "        if (clGetDeviceInfo(imcl_dev, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof imcl_const_bytes, &imcl_const_bytes, NULL) != CL_SUCCESS ||\n");
        sb_printf(sb, "            clGetDeviceInfo(imcl_dev, CL_DEVICE_MAX_CONSTANT_ARGS, sizeof imcl_const_args, &imcl_const_args, NULL) != CL_SUCCESS ||\n"
                      "            imcl_const_args < %d)\n            return %s_ERR_DEVICE;\n", nconst, pk);
        sb_puts(sb, "        if (");
        const char *sep = "";
        for (int i = 0; i < k->nparams; i++)
            if (on_constant(k->params[i])) {
                sb_printf(sb, "%simcl_%s_bytes", sep, unparse_name(k->params[i]));
                sep = " + ";
            }
        sb_printf(sb, " > imcl_const_bytes)\n            return %s_ERR_ARGUMENT;\n    }\n", pk);
    }
    sb_printf(sb, "    return %s_OK;\n}\n\n", pk);
}

void opencl_device_and_checks(HostWriter *w, const EmitCtx *e)
{
    hw_line(w, "/* the device of an earlier call or plan (imcl_kept), or the one the environment picks */");
    hw_line(w, "cl_device_id imcl_dev = NULL;");
    hw_line(w, "if (imcl_cl_choose(&imcl_kept, &imcl_dev) != %s_OK)", e->host_name);
    hw_inner(w, "return %s_ERR_DEVICE;", e->host_name);
    if (has_placement_checks(e->k))
        host_placement_checks_call(w, e, "imcl_dev");
}

const char *opencl_image_texel(const EmitCtx *e, TypeKind t)
{
    return t == TY_DOUBLE ? "4 * sizeof(cl_uint)" : arena_printf(e->a, "sizeof(%s)", unparse_c_type(t));
}

/* The work-group shape and grid of parameters tp (thesis eq. 3.7-3.9) and the enqueue,
 * at `indent`: the end of imcl_launch. */
static void launch_shape(StrBuf *sb, const TuneParams *tp, int grid_dims, bool batch, const char *indent)
{
    /* the extent of each dimension; the last, where the kernel computes parts of it, theirs */
    const char *ext[3] = {"W", "H", "D"};
    if (params_cpu_parts(tp))
        ext[grid_dims - 1] = "(imcl_to - imcl_from)";
    if (tp->row_fit) {
        sb_printf(sb, "%s/* work-groups that fit the grid (rows up to %d work-items, groups up to %d) */\n"
                      "%ssize_t imcl_bx, imcl_by;\n"
                      "%simcl_cl_row_fit(W, H, %d, %d, &imcl_bx, &imcl_by);\n",
                  indent, tp->block[0], PARAMS_CPU_GROUP, indent, indent, tp->block[0], PARAMS_CPU_GROUP);
        sb_printf(sb, "%sconst size_t imcl_local[3] = {imcl_bx, imcl_by, %d};\n", indent, tp->block[2]);
    } else {
        sb_printf(sb, "%sconst size_t imcl_local[3] = {%d, %d, %d};\n", indent, tp->block[0], tp->block[1],
                  tp->block[2]);
    }
    sb_printf(sb, "%sconst size_t imcl_global[3] = {\n", indent);
    for (int d = 0; d < 3; d++) {
        int step = tp->block[d] * tp->coarsen[d];
        if (d == 0 && tp->row_walk)
            sb_printf(sb, "%s    1, /* a work-item walks a whole row (TuneParams.row_walk) */\n", indent);
        else if (d == 0 && tp->row_fit)
            sb_printf(sb, "%s    (size_t)(W + imcl_bx - 1) / imcl_bx * imcl_bx,\n", indent);
        else if (d == 1 && tp->row_fit)
            sb_printf(sb, "%s    (size_t)(H + imcl_by - 1) / imcl_by * imcl_by,\n", indent);
        else if (d == 2 && batch && tp->batch_loop && grid_dims == 2)
            sb_printf(sb, "%s    1, /* every work-item loops over the blocks */\n", indent);
        else if (d == 2 && batch && tp->batch_loop)
            sb_printf(sb, "%s    (size_t)((%s + %d - 1) / %d) * %d, /* one block's: each loops over the blocks */\n",
                      indent, ext[d], step, step, tp->block[d]);
        else if (d == 2 && batch && grid_dims == 2)
            sb_printf(sb, "%s    (size_t)imcl_count, /* a block per index in z */\n", indent);
        else if (d == 2 && batch)
            sb_printf(sb, "%s    (size_t)imcl_count * (size_t)((%s + %d - 1) / %d) * %d, /* the blocks one after the other */\n",
                      indent, ext[d], step, step, tp->block[d]);
        else
            sb_printf(sb, "%s    (size_t)((%s + %d - 1) / %d) * %d,\n", indent, ext[d], step, step, tp->block[d]);
    }
    sb_printf(sb, "%s};\n", indent);
    sb_printf(sb, "%sreturn clEnqueueNDRangeKernel(imcl_queue, imcl_kern, %d, NULL, imcl_global, imcl_local, 0, NULL, imcl_ev);\n",
              indent, batch ? 3 : grid_dims);
}

/* The host type of kernel parameter p in imcl_launch: cl_mem for an array's memory and
 * imcl_blocks, int for an extent, W, H, D and imcl_count, a scalar's own type. */
static const char *launch_arg_type(const KernelParam *p)
{
    if (HOST_PARAM_BLOCKS(*p) || (p->s && p->extent < 0 && host_is_array(p->s)))
        return "cl_mem";
    return !p->s || p->extent >= 0 ? "int" : unparse_c_type(p->s->type->kind);
}

/* imcl_launch: the kernel's arguments in its order (host_kernel_params), then the
 * grid of thesis eq. 3.7-3.9. */
static void launch_helper(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    KernelParam p[HOST_KERNEL_PARAMS(k)];
    int n = host_kernel_params(k, true, p);
    const TuneParams *cpu = e->tp_cpu;
    if (cpu)
        sb_printf(sb, "/* Sets the kernel's arguments and enqueues it over the W x H x D grid in work-groups of\n"
                      " * the shape of its variant (imcl_cpu: the CPU variant), each work-item computing\n"
                      " * %dx%dx%d points (%dx%dx%d in the CPU variant; thesis eq. 3.7-3.9); does not wait for\n"
                      " * it. *imcl_ev, unless imcl_ev is NULL, is the launch's event. Used by %s and\n"
                      " * by its plan. */\n",
                  tp->coarsen[0], tp->coarsen[1], tp->coarsen[2], cpu->coarsen[0], cpu->coarsen[1],
                  cpu->coarsen[2], e->host_name);
    else
        sb_printf(sb, "/* Sets the kernel's arguments and enqueues it over the W x H x D grid in work-groups of\n"
                      " * the tuned shape, each work-item computing %dx%dx%d points (thesis eq. 3.7-3.9); does not\n"
                      " * wait for it. *imcl_ev, unless imcl_ev is NULL, is the launch's event. Used by %s and\n"
                      " * by its plan. */\n",
                  tp->coarsen[0], tp->coarsen[1], tp->coarsen[2], e->host_name);
    const bool parts = cpu && params_cpu_parts(cpu);
    if (parts)
        sb_printf(sb, "/* The CPU variant computes %s imcl_from to imcl_to - 1 (the others ignore them):\n"
                      " * all, or a part of the wavefront of %s_plan_iterate (docs/iterate.md). */\n",
                  k->grid_dims == 3 ? "planes" : "rows", e->host_name);
    sb_printf(sb, "static cl_int imcl_launch(cl_command_queue imcl_queue, cl_kernel imcl_kern%s%s",
              cpu ? ", int imcl_cpu" : "", parts ? ", int imcl_from, int imcl_to" : "");
    for (int j = 0; j < n; j++)
        sb_printf(sb, ", %s %s", launch_arg_type(&p[j]), host_kernel_param_name(e->a, &p[j]));
    bool batch = host_batchable(k);
    sb_puts(sb, ", cl_event *imcl_ev)\n{\n    cl_int imcl_err = CL_SUCCESS;\n");
    for (int j = 0; j < n; j++)
        sb_printf(sb, "    imcl_err |= clSetKernelArg(imcl_kern, %d, sizeof(%s), &%s);\n", j,
                  launch_arg_type(&p[j]), host_kernel_param_name(e->a, &p[j]));
    sb_puts(sb, "    if (imcl_err != CL_SUCCESS)\n        return imcl_err;\n");
    if (cpu) {
        sb_puts(sb, "    if (imcl_cpu) {\n");
        if (parts) {
            sb_printf(sb, "        imcl_err = clSetKernelArg(imcl_kern, %d, sizeof(int), &imcl_from);\n", n);
            sb_printf(sb, "        imcl_err |= clSetKernelArg(imcl_kern, %d, sizeof(int), &imcl_to);\n", n + 1);
            sb_puts(sb, "        if (imcl_err != CL_SUCCESS)\n            return imcl_err;\n");
        }
        launch_shape(sb, cpu, k->grid_dims, batch, "        ");
        sb_puts(sb, "    } else {\n");
        launch_shape(sb, tp, k->grid_dims, batch, "        ");
        sb_puts(sb, "    }\n");
    } else {
        launch_shape(sb, tp, k->grid_dims, batch, "    ");
    }
    sb_puts(sb, "}\n\n");
}

void opencl_launch_call(StrBuf *sb, const EmitCtx *e, const char *queue, const char *kernel, const char *cpu,
                        const char *part, HostHandle handle, const char *count, const char *blocks,
                        const char *event)
{
    KernelParam p[HOST_KERNEL_PARAMS(e->k)];
    int n = host_kernel_params(e->k, true, p);
    sb_printf(sb, "imcl_launch(%s, %s", queue, kernel);
    if (e->k_cpu)
        sb_printf(sb, ", %s", cpu);
    if (e->k_cpu && params_cpu_parts(e->tp_cpu))
        sb_printf(sb, ", %s", part ? part : e->k->grid_dims == 3 ? "0, D" : "0, H");
    for (int j = 0; j < n; j++) {
        const Symbol *s = p[j].s;
        if (s && p[j].extent < 0 && host_is_array(s))
            sb_printf(sb, ", %s", handle(e, s, host_array_id(e->k, s)));
        else if (!s && p[j].extent == 3)
            sb_printf(sb, ", %s", host_batch_count(e->k, count));
        else if (HOST_PARAM_BLOCKS(p[j]))
            sb_printf(sb, ", %s", blocks);
        else
            sb_printf(sb, ", %s", host_kernel_param_name(e->a, &p[j]));
    }
    sb_printf(sb, ", %s)", event);
}

const char *opencl_array_handle(const EmitCtx *e, const Symbol *s, int id)
{
    (void)s;
    return arena_printf(e->a, "imcl_a[%d].buf", id);
}

/* K_source.h: the kernel source as the C string imcl_source, which K_host.c includes. */
static void source_header(StrBuf *sb, const EmitCtx *e, const char *src)
{
    host_banner_untuned(sb, e, "embedded OpenCL source");
    sb_printf(sb, "/* The kernel source (%s.cl), embedded in %s_host.c so that nothing is read from\n"
                  " * disk at run time. */\n", e->k->name, e->k->name);
    sb_puts(sb, "static const char imcl_source[] =\n");
    embed(sb, src);
    sb_puts(sb, ";\n");
}

static void host_source(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    host_banner(sb, e, "OpenCL host wrapper");
    sb_puts(sb, "#include <stdlib.h>\n#include <string.h>\n\n#include \"imcl_runtime_opencl.h\"\n");
    sb_printf(sb, "#include \"%s.h\"\n", k->name);
    sb_printf(sb, "#include \"%s_source.h\" /* imcl_source: %s.cl */\n\n", k->name, k->name);
    sb_printf(sb, "/* The kernel's program: its source and its kernel%s. */\n"
                  "static const imcl_cl_program imcl_program = {imcl_source, \"%s\", %s};\n\n",
              e->k_cpu ? ", and the variant for devices of type CPU" : "", unparse_kernel_name(k),
              e->k_cpu ? arena_printf(e->a, "\"%s\"", cpu_kernel_name(e)) : "NULL");
    sb_printf(sb, "/* What the one-shot wrapper and the plans keep between calls: the device, and the\n"
                  " * context, queue and program built on it (imcl_cl_keep; %s_release frees them; a\n"
                  " * plan holds references of its own to the context and the program). */\n"
                  "static imcl_cl_kept imcl_kept;\n\n", pk);
    placement_checks_helper(sb, e);
    launch_helper(sb, e);

    opencl_layout_table(sb, e);

    /* PK: the device memory of the call, the launch and the copies back are the runtime's
     * (imcl_cl_call_begin, imcl_cl_call_end) */
    host_wrapper_begin(sb, e);
    HostWriter w = host_writer(sb, 1);
    host_wrapper_grid(&w, e, true);
    opencl_device_and_checks(&w, e);
    hw_line(&w, "/* the context, queue and program of an earlier call or plan, or built now */");
    hw_line(&w, "int imcl_status = imcl_cl_keep(&imcl_kept, &imcl_program, imcl_dev);");
    hw_line(&w, "if (imcl_status != %s_OK)", pk);
    hw_inner(&w, "return imcl_status;");
    plan_call_begin(&w, e, "imcl_cl", "&imcl_kept", false);
    opencl_launch_call(sb, e, "imcl_kept.queue", "imcl_kept.kern", "imcl_kept.cpu", NULL, opencl_array_handle, "1",
                       "NULL", "NULL");
    sb_puts(sb, ");\n}\n\n");
    host_error_functions(sb, e, "imcl_cl", "imcl_kept.log", "    imcl_cl_release(&imcl_kept);\n",
                         "    return imcl_cl_use_queue(&imcl_kept, &imcl_program, context, device, queue);\n");
}

static int emit(EmitCtx *e, Outputs *out)
{
    StrBuf *cl = outputs_add(out, arena_printf(e->a, "%s.cl", e->k->name));
    host_banner(cl, e, "OpenCL kernel");
    int errors = kernel_source(cl, e);
    /* K_source.h embeds the kernel text, 8 columns further right. */
    layout_wrap(cl, LAYOUT_WIDTH - 8);
    source_header(outputs_add(out, arena_printf(e->a, "%s_source.h", e->k->name)), e, sb_str(cl));
    StrBuf *host = outputs_add(out, arena_printf(e->a, "%s_host.c", e->k->name));
    host_source(host, e);
    plan_opencl_emit(host, e);
    host_runtime_file(out, "imcl_runtime_opencl.h", "the OpenCL host runtime's declarations",
                      runtime_opencl_imcl_runtime_opencl_h);
    host_runtime_file(out, "imcl_runtime_rows.h", "helpers of the host runtime", runtime_wrappers_imcl_runtime_rows_h);
    host_runtime_file(out, "imcl_runtime_opencl.c", "the OpenCL host runtime",
                      runtime_opencl_imcl_runtime_opencl);
    header_emit(e, out);
    return errors;
}

const Backend backend_opencl = {
    .name = "opencl",
    .target = &cl_target,
    .emit = emit,
    .gpu = true,
    .split_reads_thread = true,
    .cpu_variant = true,
    .time_tile_cpu = true,
    .shared_limit = 32768,   /* the least CL_DEVICE_LOCAL_MEM_SIZE OpenCL allows */
    .constant_limit = 65536, /* the least CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE */
    .t1_language = "OpenCL",
    .t1_kernel_name = "%s",
    .t1_kernel_file = "%s.cl",
    .t1_global_size_type = "OpenCL",
};
