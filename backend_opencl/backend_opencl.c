/* The OpenCL backend: K.cl holds the OpenCL C 1.2 kernel; K_host.c embeds that
 * source and holds the one-shot wrapper (device choice, program build, buffers,
 * launch, read-back). */
#include <string.h>

#include "analysis.h"
#include "emit.h"
#include "unparse.h"

/* Where an array parameter lives (SPEC 5, mem_<array>): Images and Blocks in
 * texture memory are image objects read through a sampler; arrays in constant
 * memory are __constant buffers; the others are __global buffers. */
static bool on_image(const Symbol *s)
{
    return type_is_grid(s->type) && s->mem == MEM_TEXTURE;
}

static bool on_constant(const Symbol *s)
{
    return host_is_array(s) && s->mem == MEM_CONSTANT;
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
        [BI_NUM_GROUPS_Z] = "get_num_groups(2)",
    };
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

static const Target cl_target = {"opencl", cl_type, cl_builtin, cl_math, "static", "__local ", cl_texture_read, NULL};

/* The image format of element type t: one channel of its own type, or for
 * doubles an RGBA texel of 32-bit unsigned channels (no double format exists,
 * and some devices, PoCL among them, have no two-channel 3D images). */
static const char *image_format(TypeKind t)
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
 * mode that is the array's boundary condition when one is. */
static void samplers(StrBuf *sb, const Function *k)
{
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!on_image(s))
            continue;
        TextureAddress m = placement_texture_address(s);
        sb_printf(sb, "/* '%s' is read through image memory; %s. */\n", s->name,
                  m == TEXTURE_CLAMP_EDGE    ? "clamp-to-edge addressing is its clamped boundary"
                  : m == TEXTURE_BORDER_ZERO ? "the zero border of CLK_ADDRESS_CLAMP is its constant boundary"
                                             : "the kernel applies its boundary condition");
        sb_printf(sb, "__constant sampler_t imcl_s_%s = CLK_NORMALIZED_COORDS_FALSE | %s | CLK_FILTER_NEAREST;\n\n",
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

/* Returns the number of errors. */
static int kernel_source(StrBuf *sb, const EmitCtx *e)
{
    int errors;
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    StrBuf code = {0};
    Unparser u;
    unparse_init(&u, &code, &cl_target);
    emit_helpers(&u, e->prog, k);
    samplers(&code, k);
    sb_printf(&code, "/* Kernel '%s': one work-item per grid point. */\n", k->name);
    sb_printf(&code, "__kernel __attribute__((reqd_work_group_size(%d, %d, %d)))\nvoid %s(",
              tp->block[0], tp->block[1], tp->block[2], unparse_kernel_name(k));
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        sb_puts(&code, j ? ", " : "");
        if (!host_is_array(s)) {
            sb_printf(&code, "%s %s", cl_type(s->type->kind), name);
            continue;
        }
        bool ro = !(s->access & ACC_WRITE);
        if (on_image(s))
            sb_printf(&code, "__read_only image%dd_t %s", type_grid_dims(s->type), name);
        else if (on_constant(s))
            sb_printf(&code, "__constant %s *restrict %s", cl_type(s->type->elem->kind), name);
        else
            sb_printf(&code, "__global %s%s *%s%s", ro ? "const " : "", cl_type(s->type->elem->kind),
                      ro ? "restrict " : "", name);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(&code, ", const int %s%s", name, unparse_extent_suffix(d));
    }
    sb_printf(&code, "%sconst int W, const int H, const int D)\n{\n", n ? ", " : "");
    u.indent = 1;
    unparse_stmts(&u, k->body);
    sb_puts(&code, "}\n");
    errors = unparse_check_depth(&u, e->diag, "OpenCL");

    bool dbl = false;
    for (int i = 0; i < k->nparams; i++) {
        const Type *t = k->params[i]->type;
        dbl |= (t->elem ? t->elem : t)->kind == TY_DOUBLE;
    }
    ast_walk(k->body, uses_double, &dbl);
    if (dbl)
        sb_puts(sb, "#if defined(cl_khr_fp64)\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n\n");
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

static const char *device_choice =
    "/* The device: IMCL_PLATFORM / IMCL_DEVICE (0-based indices) when set, else the\n"
    " * first GPU of any platform, else the first device of the first platform. */\n"
    "static int imcl_device(cl_device_id *imcl_dev)\n"
    "{\n"
    "    cl_platform_id platforms[16];\n"
    "    cl_uint np = 0;\n"
    "    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0)\n"
    "        return -1;\n"
    "    if (np > 16)\n"
    "        np = 16;\n"
    "    const char *ep = getenv(\"IMCL_PLATFORM\"), *ed = getenv(\"IMCL_DEVICE\");\n"
    "    if ((ep && *ep) || (ed && *ed)) {\n"
    "        char *end;\n"
    "        long p = ep && *ep ? strtol(ep, &end, 10) : 0;\n"
    "        if ((ep && *ep && *end) || p < 0 || p >= (long)np)\n"
    "            return -1;\n"
    "        long d = ed && *ed ? strtol(ed, &end, 10) : 0;\n"
    "        if ((ed && *ed && *end) || d < 0)\n"
    "            return -1;\n"
    "        cl_device_id devs[64];\n"
    "        cl_uint nd = 0;\n"
    "        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)\n"
    "            return -1;\n"
    "        if (d >= (long)(nd < 64 ? nd : 64))\n"
    "            return -1;\n"
    "        *imcl_dev = devs[d];\n"
    "        return 0;\n"
    "    }\n"
    "    for (cl_uint p = 0; p < np; p++)\n"
    "        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, imcl_dev, NULL) == CL_SUCCESS)\n"
    "            return 0;\n"
    "    for (cl_uint p = 0; p < np; p++)\n"
    "        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, imcl_dev, NULL) == CL_SUCCESS)\n"
    "            return 0;\n"
    "    return -1;\n"
    "}\n\n";

static void fail(StrBuf *sb, const char *cond, const char *pk, const char *code)
{
    sb_printf(sb, "    if (%s) {\n        imcl_status = %s_%s;\n        goto done;\n    }\n", cond, pk, code);
}

/* Storage extent d of grid array s (extent + 2 * halo) as a size_t, as C text. */
static const char *storage_extent(Arena *a, const Symbol *s, int d)
{
    if (s->halo)
        return arena_printf(a, "(size_t)(%s%s + %d)", unparse_name(s), unparse_extent_suffix(d), 2 * s->halo);
    return arena_printf(a, "(size_t)%s%s", unparse_name(s), unparse_extent_suffix(d));
}

/* What the device must offer for the placements: image support and image
 * extents for arrays in image memory, constant-buffer size and argument count
 * for arrays in constant memory. Runs before anything is allocated. */
static void device_checks(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    bool dims[4] = {false};
    int nconst = 0;
    for (int i = 0; i < k->nparams; i++) {
        if (on_image(k->params[i]))
            dims[type_grid_dims(k->params[i]->type)] = true;
        nconst += on_constant(k->params[i]);
    }
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
        sb_puts(sb, "        if (");
        const char *sep = "";
        for (int i = 0; i < k->nparams; i++) {
            const Symbol *s = k->params[i];
            if (!on_image(s))
                continue;
            int n = type_grid_dims(s->type);
            for (int d = 0; d < n; d++) {
                sb_printf(sb, "%s%s > imcl_img%dd[%d]", sep, storage_extent(e->a, s, d), n, d);
                sep = " ||\n            ";
            }
        }
        sb_printf(sb, ")\n            return %s_ERR_ARGUMENT;\n    }\n", pk);
    }
    if (nconst) {
        sb_puts(sb, "    /* constant memory: the arrays together must fit the device's constant buffer */\n");
        sb_puts(sb, "    {\n        cl_ulong imcl_const_bytes = 0;\n        cl_uint imcl_const_args = 0;\n");
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
}

/* Array s into a read-only image of its storage extents (halo included). */
static void image_upload(StrBuf *sb, const EmitCtx *e, const Symbol *s)
{
    const char *pk = e->host_name;
    const char *name = unparse_name(s);
    int n = type_grid_dims(s->type);
    bool dbl = s->type->elem->kind == TY_DOUBLE;
    sb_printf(sb, "    /* '%s' as a %dD image%s */\n    {\n", s->name, n,
              dbl ? "; each double fills the first two channels of an RGBA texel of 32-bit uints" : "");
    sb_printf(sb, "        const cl_image_format imcl_format = %s;\n", image_format(s->type->elem->kind));
    sb_puts(sb, "        cl_image_desc imcl_desc;\n        memset(&imcl_desc, 0, sizeof imcl_desc);\n");
    sb_printf(sb, "        imcl_desc.image_type = CL_MEM_OBJECT_IMAGE%dD;\n", n);
    static const char *field[] = {"image_width", "image_height", "image_depth"};
    for (int d = 0; d < n; d++)
        sb_printf(sb, "        imcl_desc.%s = %s;\n", field[d], storage_extent(e->a, s, d));
    const char *create = "clCreateImage(imcl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &imcl_format, &imcl_desc";
    if (!dbl) {
        sb_printf(sb, "        imcl_d_%s = %s, (void *)%s, &imcl_err);\n", name, create, name);
    } else {
        sb_puts(sb, "        const size_t imcl_n = ");
        host_elems(sb, s);
        sb_puts(sb, ";\n        cl_uint *imcl_texels = (cl_uint *)calloc(imcl_n, 4 * sizeof(cl_uint));\n");
        sb_puts(sb, "        if (imcl_texels) {\n");
        sb_puts(sb, "            for (size_t imcl_i = 0; imcl_i < imcl_n; imcl_i++)\n");
        sb_printf(sb, "                memcpy(&imcl_texels[4 * imcl_i], &%s[imcl_i], sizeof(double));\n", name);
        sb_printf(sb, "            imcl_d_%s = %s, imcl_texels, &imcl_err);\n", name, create);
        sb_puts(sb, "            free(imcl_texels);\n        }\n");
    }
    sb_puts(sb, "    }\n");
    sb_printf(sb, "    if (!imcl_d_%s) {\n", name);
    sb_printf(sb, "        imcl_status = imcl_err == CL_IMAGE_FORMAT_NOT_SUPPORTED ? %s_ERR_DEVICE : %s_ERR_MEMORY;\n", pk, pk);
    sb_puts(sb, "        goto done;\n    }\n");
}

static void host_source(StrBuf *sb, const EmitCtx *e, const char *src)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    const TuneParams *tp = e->tp;
    host_banner(sb, e, "OpenCL host wrapper");
    sb_puts(sb, "#define CL_TARGET_OPENCL_VERSION 120\n#include <CL/cl.h>\n#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    sb_printf(sb, "#include \"%s.h\"\n\n", k->name);
    sb_printf(sb, "/* The kernel source (%s.cl), embedded so that nothing is read from disk at run time. */\n", k->name);
    sb_puts(sb, "static const char imcl_source[] =\n");
    embed(sb, src);
    sb_puts(sb, ";\n\n");
    sb_puts(sb, "static char imcl_log[16384];\n\n");
    sb_puts(sb, device_choice);

    sb_printf(sb, "int %s(", pk);
    host_param_list(sb, k);
    sb_puts(sb, ")\n{\n");
    host_check_args(sb, k, arena_printf(e->a, "%s_ERR_ARGUMENT", pk), 1);
    host_grid_extent(sb, k, 1);
    sb_puts(sb, "    if (W < 1 || H < 1 || D < 1)\n");
    sb_printf(sb, "        return %s_OK; /* an empty grid: nothing to do */\n", pk);
    sb_printf(sb, "    int imcl_status = %s_OK;\n", pk);
    sb_puts(sb, "    cl_int imcl_err = CL_SUCCESS;\n    cl_device_id imcl_dev;\n    cl_context imcl_ctx = NULL;\n"
                "    cl_command_queue imcl_queue = NULL;\n    cl_program imcl_prog = NULL;\n    cl_kernel imcl_kern = NULL;\n");
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            continue;
        const char *name = unparse_name(s);
        sb_printf(sb, "    cl_mem imcl_d_%s = NULL;\n", name);
        if (on_image(s))
            continue;
        sb_printf(sb, "    const size_t imcl_%s_bytes = ", name);
        host_elems(sb, s);
        sb_printf(sb, " * sizeof(%s);\n", host_c_type(s->type->elem->kind));
    }
    sb_puts(sb, "    const char *imcl_src = imcl_source;\n");
    sb_puts(sb, "    imcl_log[0] = 0;\n");
    sb_printf(sb, "    if (imcl_device(&imcl_dev) != 0)\n        return %s_ERR_DEVICE;\n", pk);
    device_checks(sb, e);
    sb_puts(sb, "    imcl_ctx = clCreateContext(NULL, 1, &imcl_dev, NULL, NULL, &imcl_err);\n");
    fail(sb, "!imcl_ctx", pk, "ERR_DEVICE");
    sb_puts(sb, "    imcl_queue = clCreateCommandQueue(imcl_ctx, imcl_dev, 0, &imcl_err);\n");
    fail(sb, "!imcl_queue", pk, "ERR_DEVICE");
    sb_puts(sb, "\n    /* build the program; the log is kept for build_log() */\n");
    sb_puts(sb, "    imcl_prog = clCreateProgramWithSource(imcl_ctx, 1, &imcl_src, NULL, &imcl_err);\n");
    fail(sb, "!imcl_prog", pk, "ERR_BUILD");
    sb_puts(sb, "    if (clBuildProgram(imcl_prog, 1, &imcl_dev, \"-cl-std=CL1.2\", NULL, NULL) != CL_SUCCESS) {\n");
    sb_puts(sb, "        clGetProgramBuildInfo(imcl_prog, imcl_dev, CL_PROGRAM_BUILD_LOG, sizeof imcl_log - 1, imcl_log, NULL);\n");
    sb_printf(sb, "        imcl_status = %s_ERR_BUILD;\n        goto done;\n    }\n", pk);
    sb_printf(sb, "    imcl_kern = clCreateKernel(imcl_prog, \"%s\", &imcl_err);\n", unparse_kernel_name(k));
    fail(sb, "!imcl_kern", pk, "ERR_BUILD");

    sb_puts(sb, "\n");
    host_transfer_comment(sb, k, 1);
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            continue;
        const char *name = unparse_name(s);
        if (on_image(s)) {
            image_upload(sb, e, s);
            continue;
        }
        bool ro = !(s->access & ACC_WRITE);
        bool in = host_copy_in(s);
        sb_printf(sb, "    imcl_d_%s = clCreateBuffer(imcl_ctx, %s%s, imcl_%s_bytes, %s, &imcl_err);\n", name,
                  ro ? "CL_MEM_READ_ONLY" : "CL_MEM_READ_WRITE", in ? " | CL_MEM_COPY_HOST_PTR" : "",
                  name, in ? arena_printf(e->a, "(void *)%s", name) : "NULL");
        fail(sb, arena_printf(e->a, "!imcl_d_%s", name), pk, "ERR_MEMORY");
    }
    sb_puts(sb, "\n    /* arguments in the kernel's order */\n");
    int arg = 0;
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        if (!host_is_array(s)) {
            sb_printf(sb, "    imcl_err |= clSetKernelArg(imcl_kern, %d, sizeof(%s), &%s);\n", arg++,
                      host_c_type(s->type->kind), name);
            continue;
        }
        sb_printf(sb, "    imcl_err |= clSetKernelArg(imcl_kern, %d, sizeof(cl_mem), &imcl_d_%s);\n", arg++, name);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, "    imcl_err |= clSetKernelArg(imcl_kern, %d, sizeof(int), &%s%s);\n", arg++, name,
                          unparse_extent_suffix(d));
    }
    for (int d = 0; d < 3; d++)
        sb_printf(sb, "    imcl_err |= clSetKernelArg(imcl_kern, %d, sizeof(int), &%c);\n", arg++, "WHD"[d]);
    fail(sb, "imcl_err != CL_SUCCESS", pk, "ERR_LAUNCH");

    int dims = k->grid_dims;
    sb_puts(sb, "\n    /* one work-item per grid point, work-groups of the tuned shape (thesis eq. 3.7-3.9) */\n    {\n");
    sb_printf(sb, "        const size_t imcl_local[3] = {%d, %d, %d};\n", tp->block[0], tp->block[1], tp->block[2]);
    sb_puts(sb, "        const size_t imcl_global[3] = {\n");
    static const char *ext = "WHD";
    for (int d = 0; d < 3; d++) {
        int step = tp->block[d] * tp->coarsen[d];
        sb_printf(sb, "            (size_t)((%c + %d - 1) / %d) * %d,\n", ext[d], step, step, tp->block[d]);
    }
    sb_puts(sb, "        };\n");
    sb_printf(sb, "        imcl_err = clEnqueueNDRangeKernel(imcl_queue, imcl_kern, %d, NULL, imcl_global, imcl_local, 0, NULL, NULL);\n", dims);
    sb_puts(sb, "        if (imcl_err == CL_SUCCESS)\n            imcl_err = clFinish(imcl_queue);\n    }\n");
    fail(sb, "imcl_err != CL_SUCCESS", pk, "ERR_LAUNCH");
    bool any_out = false;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s) || !host_copy_out(s))
            continue;
        if (!any_out)
            sb_puts(sb, "\n    /* copies of what the kernel wrote */\n");
        any_out = true;
        const char *name = unparse_name(s);
        sb_printf(sb, "    imcl_err = clEnqueueReadBuffer(imcl_queue, imcl_d_%s, CL_TRUE, 0, imcl_%s_bytes, %s, 0, NULL, NULL);\n",
                  name, name, name);
        fail(sb, "imcl_err != CL_SUCCESS", pk, "ERR_TRANSFER");
    }
    sb_puts(sb, "\ndone:\n");
    for (int i = 0; i < k->nparams; i++)
        if (host_is_array(k->params[i]))
            sb_printf(sb, "    if (imcl_d_%s)\n        clReleaseMemObject(imcl_d_%s);\n", unparse_name(k->params[i]),
                      unparse_name(k->params[i]));
    sb_puts(sb, "    if (imcl_kern)\n        clReleaseKernel(imcl_kern);\n    if (imcl_prog)\n        clReleaseProgram(imcl_prog);\n"
                "    if (imcl_queue)\n        clReleaseCommandQueue(imcl_queue);\n    if (imcl_ctx)\n        clReleaseContext(imcl_ctx);\n");
    sb_puts(sb, "    return imcl_status;\n}\n\n");
    host_error_functions(sb, pk, "imcl_log");
}

int backend_opencl_emit(EmitCtx *e, Outputs *out)
{
    StrBuf *cl = outputs_add(out, arena_printf(e->a, "%s.cl", e->k->name));
    host_banner(cl, e, "OpenCL kernel");
    int errors = kernel_source(cl, e);
    StrBuf *host = outputs_add(out, arena_printf(e->a, "%s_host.c", e->k->name));
    host_source(host, e, sb_str(cl));
    plan_opencl_emit(host, e);
    header_emit(e, out);
    return errors;
}
