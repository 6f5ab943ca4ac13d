/* Persistent plans (docs/wrappers.md): the parts shared by the C,
 * CUDA and OpenCL generators (backend_c/plan_c.c, backend_cuda/plan_cuda.c,
 * backend_opencl/plan_opencl.c): the declarations in K.h, the checks of
 * plan_create, the swap and its rules. The C and CUDA parts define the struct,
 * create, transfers, launch and destroy over their own device memory, calling the
 * helpers their one-shot wrapper uses too; the OpenCL part calls the folder's host
 * runtime (backend_opencl/runtime/imcl_runtime_opencl.c) for most of it. */
#include <string.h>

#include "host.h"
#include "placement.h"
#include "plan.h"

int plan_arrays(const Function *k, const Symbol **out)
{
    int n = 0;
    for (int i = 0; i < k->nparams; i++)
        if (host_is_array(k->params[i]))
            out[n++] = k->params[i];
    return n;
}

/* `name`, or `imcl_name` when a scalar parameter of the launch has that name. */
static const char *free_name(const Function *k, const char *name, const char *imcl_name)
{
    for (int i = 0; i < k->nparams; i++)
        if (!host_is_array(k->params[i]) && strcmp(k->params[i]->name, name) == 0)
            return imcl_name;
    return name;
}

const char *plan_handle(const Function *k)
{
    return free_name(k, "plan", "imcl_plan");
}

const char *plan_steps(const Function *k)
{
    return free_name(k, "steps", "imcl_steps");
}

/* `int PK_plan_create(PK_plan **plan, int a_width, ...)` without the `;` (with `batch`:
 * PK_plan_create_batch, with its capacity). */
static void create_head(StrBuf *sb, const EmitCtx *e, bool batch)
{
    const char *pk = e->host_name;
    sb_printf(sb, "int %s_plan_create%s(%s_plan **plan%s", pk, batch ? "_batch" : "", pk, batch ? ", int capacity" : "");
    plan_params(sb, e->k, true, true);
    sb_puts(sb, ")");
}

void plan_params(StrBuf *sb, const Function *k, bool extents, bool typed)
{
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (extents && type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, ", %s%s%s", typed ? "int " : "", unparse_name(s), unparse_extent_suffix(d));
        else if (!extents && !host_is_array(s))
            sb_printf(sb, ", %s%s%s", typed ? unparse_c_type(s->type->kind) : "", typed ? " " : "",
                      unparse_name(s));
    }
}

/* `int PK_plan_<fn>(PK_plan *plan[, int count], T scalar, ...)` without the `;`: fn
 * "launch", or "launch_batch", "launch_batch_async" with the count of blocks first, or
 * "iterate" with the count of steps. */
static void launch_head(StrBuf *sb, const EmitCtx *e, const char *fn, const char *count)
{
    const char *pk = e->host_name;
    const Function *k = e->k;
    sb_printf(sb, "int %s_plan_%s(%s_plan *%s", pk, fn, pk, plan_handle(k));
    if (count)
        sb_printf(sb, ", int %s", count);
    plan_params(sb, k, false, true);
    sb_puts(sb, ")");
}

void plan_signature(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s)
{
    const char *pk = e->host_name;
    switch (fn) {
    case PLAN_CREATE: create_head(sb, e, false); break;
    case PLAN_CREATE_BATCH: create_head(sb, e, true); break;
    case PLAN_LAUNCH: launch_head(sb, e, "launch", NULL); break;
    case PLAN_LAUNCH_BATCH: launch_head(sb, e, "launch_batch", PLAN_COUNT); break;
    case PLAN_LAUNCH_ASYNC: launch_head(sb, e, "launch_batch_async", PLAN_COUNT); break;
    case PLAN_ITERATE: launch_head(sb, e, "iterate", plan_steps(e->k)); break;
    case PLAN_WAIT: sb_printf(sb, "int %s_plan_wait(%s_plan *plan)", pk, pk); break;
    case PLAN_SELECT:
        sb_printf(sb, "int %s_plan_select(%s_plan *plan, int count, const int *blocks)", pk, pk);
        break;
    case PLAN_UPLOAD:
        sb_printf(sb, "int %s_plan_upload_%s(%s_plan *plan, const %s *host)", pk, unparse_name(s), pk,
                  unparse_c_type(s->type->elem->kind));
        break;
    case PLAN_DOWNLOAD:
        sb_printf(sb, "int %s_plan_download_%s(%s_plan *plan, %s *host)", pk, unparse_name(s), pk,
                  unparse_c_type(s->type->elem->kind));
        break;
    case PLAN_UPLOAD_ROWS:
    case PLAN_DOWNLOAD_ROWS:
        /* T **const *tables (Image: tables[b][y]) or T ***const *tables (Block: tables[b][z][y]) */
        sb_printf(sb, "int %s_plan_%s_rows_%s(%s_plan *plan, int first, int count, %s %s*const *tables)", pk,
                  fn == PLAN_UPLOAD_ROWS ? "upload" : "download", unparse_name(s), pk,
                  unparse_c_type(s->type->elem->kind), type_grid_dims(s->type) == 3 ? "**" : "*");
        break;
    case PLAN_UPLOAD_STRIDED:
    case PLAN_DOWNLOAD_STRIDED:
        sb_printf(sb, "int %s_plan_%s_strided_%s(%s_plan *plan, int first, int count, %s%s *host, ptrdiff_t row_pitch%s, "
                      "ptrdiff_t block_pitch)", pk,
                  fn == PLAN_UPLOAD_STRIDED ? "upload" : "download", unparse_name(s), pk,
                  fn == PLAN_UPLOAD_STRIDED ? "const " : "", unparse_c_type(s->type->elem->kind),
                  type_grid_dims(s->type) == 3 ? ", ptrdiff_t plane_pitch" : "");
        break;
    case PLAN_ATTACH: sb_printf(sb, "int %s_plan_attach(%s_plan *plan, int a, void *host)", pk, pk); break;
    case PLAN_USE_MEMORY: sb_printf(sb, "int %s_plan_use_memory(%s_plan *plan, int a, void *memory)", pk, pk); break;
    case PLAN_MEMORY: sb_printf(sb, "void *%s_plan_memory(%s_plan *plan, int a)", pk, pk); break;
    case PLAN_SWAP: sb_printf(sb, "int %s_plan_swap(%s_plan *plan, int a, int b)", pk, pk); break;
    case PLAN_KERNEL_MS: sb_printf(sb, "double %s_plan_kernel_ms(const %s_plan *plan)", pk, pk); break;
    case PLAN_DESTROY: sb_printf(sb, "void %s_plan_destroy(%s_plan *plan)", pk, pk); break;
    }
}

void plan_header_emit(StrBuf *h, const EmitCtx *e)
{
    const char *pk = e->host_name;
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_printf(h, "/* Persistent plan (docs/wrappers.md): the device, the built kernel and one device\n"
                 " * buffer per array, created once; arrays stay on the device between launches.\n"
                 " * Every int function returns %s_OK or a negative code. */\n", pk);
    sb_printf(h, "typedef struct %s_plan %s_plan;\n\n", pk, pk);
    if (n) {
        sb_printf(h, "/* Array ids for %s_plan_swap. */\nenum {\n", pk);
        for (int i = 0; i < n; i++)
            sb_printf(h, "    %s_plan_array_%s = %d%s\n", pk, unparse_name(arr[i]), i, i + 1 < n ? "," : "");
        sb_puts(h, "};\n\n");
    }
    sb_printf(h, "/* Creates a plan for arrays of these extents (as %s takes them); device\n"
                 " * buffers start zero-filled. On failure *plan is NULL. */\n", pk);
    plan_signature(h, e, PLAN_CREATE, NULL);
    sb_puts(h, ";\n");
    sb_puts(h, "/* The same for a batch of up to capacity blocks of these extents: every Image and\n"
               " * Block holds capacity blocks, one after the other (capacity 1 is plan_create;\n"
               " * more needs every Image and Block in a buffer, not a texture or a constant copy). */\n");
    plan_signature(h, e, PLAN_CREATE_BATCH, NULL);
    sb_puts(h, ";\n");
    bool rows_told = false;
    for (int i = 0; i < n; i++) {
        sb_printf(h, "/* Copies all of array '%s' (halo included; every block of a batch) to / from its\n"
                     " * device buffer. */\n", arr[i]->name);
        plan_signature(h, e, PLAN_UPLOAD, arr[i]);
        sb_puts(h, ";\n");
        plan_signature(h, e, PLAN_DOWNLOAD, arr[i]);
        sb_puts(h, ";\n");
        if (!type_is_grid(arr[i]->type))
            continue;
        if (!rows_told) {
            sb_puts(h, "/* An Image's or Block's blocks first to first + count - 1 from / into tables of rows,\n"
                       " * every row its own allocation as C codes allocate them (tables[b][y] or\n"
                       " * tables[b][z][y] for block first + b), ghost layer included; or from / into host\n"
                       " * memory with pitches of its own, host at element 0 of block first's storage\n"
                       " * (docs/wrappers.md). No copy on the host beyond the rows' own where the device\n"
                       " * shares host memory. */\n");
            rows_told = true;
        }
        plan_signature(h, e, PLAN_UPLOAD_ROWS, arr[i]);
        sb_puts(h, ";\n");
        plan_signature(h, e, PLAN_DOWNLOAD_ROWS, arr[i]);
        sb_puts(h, ";\n");
        plan_signature(h, e, PLAN_UPLOAD_STRIDED, arr[i]);
        sb_puts(h, ";\n");
        plan_signature(h, e, PLAN_DOWNLOAD_STRIDED, arr[i]);
        sb_puts(h, ";\n");
    }
    sb_printf(h, "/* Array a (a %s_plan_array_* id, an array in a buffer) computes from now on in host\n"
                 " * memory `host`, which holds its whole storage as %s_plan_upload_<a> takes it: launches\n"
                 " * read and write it in place, and the caller between the plan's calls, with no copy.\n"
                 " * Only where the device computes in host memory (the C reference; an OpenCL device\n"
                 " * with host-unified memory, PoCL's CPU device), else %s_ERR_DEVICE. */\n", pk, pk, pk);
    plan_signature(h, e, PLAN_ATTACH, NULL);
    sb_puts(h, ";\n");
    sb_printf(h, "/* Array a (an array in a buffer) computes from now on in the application's device\n"
                 " * memory `memory`, which holds its whole storage as %s_plan_upload_<a> takes it and\n"
                 " * stays the application's (never freed by the plan): OpenCL, a cl_mem buffer of the\n"
                 " * plan's context (%s_use_queue) of at least that many bytes; CUDA, a device pointer;\n"
                 " * the C reference, host memory as %s_plan_attach takes it. Launches read and write it\n"
                 " * in the plan's queue, in order with the application's work there. */\n", pk, pk, pk);
    plan_signature(h, e, PLAN_USE_MEMORY, NULL);
    sb_puts(h, ";\n");
    sb_printf(h, "/* The memory array a computes in, as %s_plan_use_memory takes it (a cl_mem, a CUDA\n"
                 " * device pointer, host memory), for the application's own kernels or a GPU-aware\n"
                 " * MPI; NULL where a is no array in a buffer. Valid until the plan's next swap,\n"
                 " * attach, use_memory or destroy; after %s_plan_wait where a launch runs. */\n", pk, pk);
    plan_signature(h, e, PLAN_MEMORY, NULL);
    sb_puts(h, ";\n");
    sb_printf(h, "/* From now on, launches compute the blocks blocks[0] to blocks[count - 1] of a batch,\n"
                 " * in one launch (each below the capacity, at most capacity of them; the list is\n"
                 " * copied), or every block when blocks is NULL (as after %s_plan_create). */\n", pk);
    plan_signature(h, e, PLAN_SELECT, NULL);
    sb_puts(h, ";\n");
    sb_puts(h, "/* Runs the kernel once over its grid (of every block of a batch, or of those\n"
               " * selected) on the device buffers and waits for it. */\n");
    plan_signature(h, e, PLAN_LAUNCH, NULL);
    sb_puts(h, ";\n");
    sb_puts(h, "/* The same over the first imcl_count blocks only (blocks 0 to imcl_count - 1, or\n"
               " * the first imcl_count selected), in one launch. */\n");
    plan_signature(h, e, PLAN_LAUNCH_BATCH, NULL);
    sb_puts(h, ";\n");
    sb_printf(h, "/* The same, but returns once the launch is under way (on a device: CUDA, OpenCL; the\n"
                 " * C reference computes before it returns). Until %s_plan_wait the plan's\n"
                 " * arrays are the device's: the caller leaves attached memory alone, and every\n"
                 " * other call on the plan (but its kernel time) waits for the launch first,\n"
                 " * returning %s_ERR_LAUNCH if it failed. Launches of several plans so run\n"
                 " * side by side, and the host meanwhile. */\n", pk, pk);
    plan_signature(h, e, PLAN_LAUNCH_ASYNC, NULL);
    sb_puts(h, ";\n");
    sb_printf(h, "/* Waits for the plan's launch still running, if any, and returns %s_OK,\n"
                 " * or %s_ERR_LAUNCH when it failed; its kernel time is known from then on. */\n",
              pk, pk);
    plan_signature(h, e, PLAN_WAIT, NULL);
    sb_puts(h, ";\n");
    sb_printf(h, "/* Exchanges the device memory of arrays a and b (%s_plan_array_* ids), without\n"
                 " * copying: both must have the same element type, halo, extents and placement (an\n"
                 " * array in constant memory never swaps), else %s_ERR_ARGUMENT. */\n", pk, pk);
    plan_signature(h, e, PLAN_SWAP, NULL);
    sb_puts(h, ";\n");
    if (e->k->iterate[0]) {
        const char *a = unparse_name(e->k->iterate[0]), *b = unparse_name(e->k->iterate[1]);
        sb_printf(h, "/* Computes %s steps (iterate pragma, docs/iterate.md): each computes '%s' from '%s', and\n"
                     " * before the next the two trade roles, as launches with %s_plan_swap(plan,\n"
                     " * %s_plan_array_%s, %s_plan_array_%s) between them would; after it '%s' holds the\n"
                     " * last step's result and '%s' the one before. 0 steps do nothing; to go on from\n"
                     " * there, swap the two first. */\n",
                  plan_steps(e->k), b, a, pk, pk, a, pk, b, b, a);
        plan_signature(h, e, PLAN_ITERATE, NULL);
        sb_puts(h, ";\n");
    }
    sb_puts(h, "/* Kernel time of the last launch in milliseconds (CUDA events, OpenCL profiling;\n"
               " * wall clock for the C reference); 0 before the first launch. */\n");
    plan_signature(h, e, PLAN_KERNEL_MS, NULL);
    sb_puts(h, ";\n");
    sb_puts(h, "/* Frees the device buffers and everything else of the plan; NULL is ignored. */\n");
    plan_signature(h, e, PLAN_DESTROY, NULL);
    sb_puts(h, ";\n\n");
}

void plan_extent_locals(HostWriter *w, const EmitCtx *e, const char *h, const char *extent)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (!type_is_grid(arr[i]->type))
            continue;
        if (!any)
            hw_line(w, "/* the extents given to plan_create, by the names the kernel uses */");
        any = true;
        for (int d = 0; d < type_grid_dims(arr[i]->type); d++)
            hw_line(w, "const int %s%s = %s->%s;", unparse_name(arr[i]), unparse_extent_suffix(d), h,
                    arena_printf(e->a, extent, i, d));
    }
}

void plan_create_begin(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    HostWriter w = host_writer(sb, 1);
    plan_signature(sb, e, PLAN_CREATE_BATCH, NULL);
    sb_puts(sb, "\n{\n");
    hw_line(&w, "if (!plan)");
    hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(&w, "*plan = NULL;");
    if (host_batchable(e->k)) {
        hw_line(&w, "if (capacity < 1)");
    } else {
        hw_line(&w, "/* a texture or a constant copy holds one block */");
        hw_line(&w, "if (capacity != 1)");
    }
    hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
    host_check_extents(&w, e->k, arena_printf(e->a, "%s_ERR_ARGUMENT", pk), false);
}

bool plan_async(const EmitCtx *e)
{
    return e->so->backend->gpu;
}

void plan_launch_grid(HostWriter *w, const EmitCtx *e)
{
    host_grid_extent(w, e->k);
    hw_line(w, "if (W < 1 || H < 1 || D < 1 || " PLAN_COUNT " == 0)");
    hw_inner(w, "return %s_OK; /* an empty grid, or no block: nothing to do */", e->host_name);
}

void plan_create_and_launch(StrBuf *sb, const EmitCtx *e, const char *plan_type)
{
    const char *pk = e->host_name, *h = plan_handle(e->k);
    const char *p = plan_type ? arena_printf(e->a, "((const %s *)%s)", plan_type, h) : h;
    plan_signature(sb, e, PLAN_CREATE, NULL);
    sb_printf(sb, "\n{\n    return %s_plan_create_batch(plan, 1", pk);
    plan_params(sb, e->k, true, false);
    sb_puts(sb, ");\n}\n\n");
    plan_signature(sb, e, PLAN_LAUNCH, NULL);
    sb_printf(sb, "\n{\n    return %s_plan_launch_batch(%s, %s ? %s->count : 0", pk, h, h, p);
    plan_params(sb, e->k, false, false);
    sb_puts(sb, ");\n}\n\n");
}

void plan_iterate(StrBuf *sb, const EmitCtx *e, const char *first)
{
    const Function *k = e->k;
    if (!k->iterate[0])
        return;
    const char *pk = e->host_name, *h = plan_handle(k), *n = plan_steps(k);
    plan_signature(sb, e, PLAN_ITERATE, NULL);
    sb_puts(sb, "\n{\n");
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "if (!%s || %s < 0)", h, n);
    hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
    if (first)
        sb_puts(sb, first);
    hw_line(&w, "/* a launch per step; before each but the first, '%s' and '%s' trade roles */",
            k->iterate[0]->name, k->iterate[1]->name);
    hw_line(&w, "for (int imcl_step = 0; imcl_step < %s; imcl_step++) {", n);
    w.indent++;
    hw_line(&w, "int imcl_status = imcl_step == 0 ? %s_OK", pk);
    hw_line(&w, "        : %s_plan_swap(%s, %s_plan_array_%s, %s_plan_array_%s);", pk, h, pk,
            unparse_name(k->iterate[0]), pk, unparse_name(k->iterate[1]));
    hw_line(&w, "if (imcl_status == %s_OK)", pk);
    hw_start(&w);
    sb_printf(sb, "    imcl_status = %s_plan_launch(%s", pk, h);
    plan_params(sb, e->k, false, false);
    sb_puts(sb, ");\n");
    hw_line(&w, "if (imcl_status != %s_OK)", pk);
    hw_inner(&w, "return imcl_status;");
    w.indent--;
    hw_line(&w, "}");
    hw_line(&w, "return %s_OK;", pk);
    sb_puts(sb, "}\n\n");
}

void plan_launch_and_wait(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name, *h = plan_handle(e->k);
    if (plan_async(e)) {
        plan_signature(sb, e, PLAN_LAUNCH_BATCH, NULL);
        sb_printf(sb, "\n{\n    const int imcl_status = %s_plan_launch_batch_async(%s, " PLAN_COUNT, pk, h);
        plan_params(sb, e->k, false, false);
        /* (a NULL plan: the launch's PK_ERR_ARGUMENT, which the wait's repeats) */
        sb_printf(sb, ");\n    const int imcl_waited = %s_plan_wait(%s);\n", pk, h);
        sb_printf(sb, "    return imcl_status != %s_OK ? imcl_status : imcl_waited;\n}\n\n", pk);
        return;
    }
    plan_signature(sb, e, PLAN_LAUNCH_ASYNC, NULL);
    sb_printf(sb, "\n{\n    /* the C reference computes on the caller's thread */\n"
                  "    return %s_plan_launch_batch(%s, " PLAN_COUNT, pk, h);
    plan_params(sb, e->k, false, false);
    sb_puts(sb, ");\n}\n\n");
    plan_signature(sb, e, PLAN_WAIT, NULL);
    sb_printf(sb, "\n{\n    return plan ? %s_OK : %s_ERR_ARGUMENT; /* nothing runs on */\n}\n\n", pk, pk);
}

void plan_array_args(StrBuf *sb, const EmitCtx *e, const char *buffer_fmt, const char *grid_fmt)
{
    const Function *k = e->k;
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    int ai = 0;
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        sb_puts(sb, j ? ", " : "");
        if (!host_is_array(s)) {
            sb_puts(sb, name);
            continue;
        }
        if (grid_fmt && type_is_grid(s->type))
            sb_printf(sb, grid_fmt, unparse_c_type(s->type->elem->kind), ai, ai);
        else
            sb_printf(sb, buffer_fmt, unparse_c_type(s->type->elem->kind), ai);
        ai++;
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, ", %s%s", name, unparse_extent_suffix(d));
    }
}

/* Whether arrays a and b may exchange their device memory (when their extents
 * agree): the same element type, dimensions (fixed-size: shape) and halo, and the
 * same placement on the host side: both buffers (global or shared memory), or
 * both textures with the same addressing (a CUDA texture object carries its
 * addressing mode). Arrays in constant memory never swap (a CUDA __constant__
 * symbol is not a handle); the rule is the same in every backend. */
static bool swappable(const Symbol *x, const Symbol *y)
{
    const Type *a = x->type, *b = y->type;
    if (host_on_constant(x) || host_on_constant(y))
        return false;
    if (a->kind != b->kind || a->elem->kind != b->elem->kind || x->halo != y->halo)
        return false;
    if (a->kind == TY_ARRAY && (a->ndims != b->ndims || memcmp(a->dims, b->dims, sizeof a->dims) != 0))
        return false;
    if (host_on_texture(x) != host_on_texture(y))
        return false;
    return !host_on_texture(x) || placement_texture_address(x) == placement_texture_address(y);
}

bool plan_swap_classes(const EmitCtx *e, int *cls)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    int ncls = 0;
    bool constant = false;
    for (int i = 0; i < n; i++) {
        cls[i] = -1;
        if (host_on_constant(arr[i])) {
            constant = true;
            continue;
        }
        for (int j = 0; j < i && cls[i] < 0; j++)
            if (swappable(arr[i], arr[j]))
                cls[i] = cls[j];
        if (cls[i] < 0)
            cls[i] = ncls++;
    }
    return constant;
}

void plan_extent_table(HostWriter *w, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    hw_line(w, "/* the extents of each array (1 where it has none) */");
    hw_start(w);
    sb_printf(w->sb, "const int imcl_extent[%d][3] = {", n ? n : 1);
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        int dims = type_is_grid(s->type) ? type_grid_dims(s->type) : 0;
        sb_puts(w->sb, i ? ", {" : "{");
        for (int d = 0; d < 3; d++)
            sb_printf(w->sb, "%s%s%s", d ? ", " : "", d < dims ? unparse_name(s) : "1",
                      d < dims ? unparse_extent_suffix(d) : "");
        sb_puts(w->sb, "}");
    }
    sb_puts(w->sb, n ? "};\n" : "{1, 1, 1}};\n");
}

void plan_forward(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s, const char *call)
{
    plan_signature(sb, e, fn, s);
    sb_printf(sb, "\n{\n    return %s;\n}\n\n", call);
}

void plan_forward_transfers(StrBuf *sb, const EmitCtx *e, const char *rt)
{
    Arena *a = e->a;
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        plan_forward(sb, e, PLAN_UPLOAD, s, arena_printf(a, "%s_plan_upload((%s_plan *)plan, %d, host)", rt, rt, i));
        plan_forward(sb, e, PLAN_DOWNLOAD, s,
                     arena_printf(a, "%s_plan_download((%s_plan *)plan, %d, host)", rt, rt, i));
        if (!type_is_grid(s->type))
            continue;
        const char *planes = type_grid_dims(s->type) == 3 ? "plane_pitch" : "0";
        for (int strided = 0; strided < 2; strided++)
            for (int up = 1; up >= 0; up--) {
                PlanFn fn = strided ? (up ? PLAN_UPLOAD_STRIDED : PLAN_DOWNLOAD_STRIDED)
                                    : (up ? PLAN_UPLOAD_ROWS : PLAN_DOWNLOAD_ROWS);
                const char *args = !strided ? "tables, NULL, NULL, 0, 0, 0"
                                 : up ? arena_printf(a, "NULL, host, NULL, row_pitch, %s, block_pitch", planes)
                                      : arena_printf(a, "NULL, NULL, host, row_pitch, %s, block_pitch", planes);
                plan_forward(sb, e, fn, s,
                             arena_printf(a, "%s_plan_rows((%s_plan *)plan, %d, %d, first, count,\n"
                                             "            %s)", rt, rt, i, up, args));
            }
    }
}

void plan_forward_rest(StrBuf *sb, const EmitCtx *e, const char *rt)
{
    Arena *a = e->a;
    plan_forward(sb, e, PLAN_ATTACH, NULL, arena_printf(a, "%s_plan_attach((%s_plan *)plan, a, host)", rt, rt));
    plan_forward(sb, e, PLAN_USE_MEMORY, NULL,
                 arena_printf(a, "%s_plan_use_memory((%s_plan *)plan, a, memory)", rt, rt));
    plan_forward(sb, e, PLAN_MEMORY, NULL, arena_printf(a, "%s_plan_memory((%s_plan *)plan, a)", rt, rt));
    plan_forward(sb, e, PLAN_SELECT, NULL,
                 arena_printf(a, "%s_plan_select((%s_plan *)plan, count, blocks)", rt, rt));
    plan_forward(sb, e, PLAN_SWAP, NULL, arena_printf(a, "%s_plan_swap((%s_plan *)plan, a, b)", rt, rt));
    plan_forward(sb, e, PLAN_KERNEL_MS, NULL,
                 arena_printf(a, "%s_plan_kernel_ms((const %s_plan *)plan)", rt, rt));
    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_printf(sb, "\n{\n    %s_plan_destroy((%s_plan *)plan);\n}\n", rt, rt);
}

const char *plan_use(const EmitCtx *e, const Symbol *s, const char *rt)
{
    StrBuf b = {0};
    if (host_copy_in(s))
        sb_printf(&b, "%s_IN", rt);
    if (host_copy_out(s))
        sb_printf(&b, "%s%s_OUT", b.len ? " | " : "", rt);
    const char *use = arena_printf(e->a, "%s", b.len ? sb_str(&b) : "0");
    sb_free(&b);
    return use;
}

void plan_call_begin(HostWriter *w, const EmitCtx *e, const char *rt, const char *args, bool declare)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    host_transfer_comment(w, e->k);
    hw_line(w, "/* the caller's arrays by plan_array id, and the memory the call gives each */");
    hw_start(w);
    sb_printf(w->sb, "void *const imcl_host[%d] = {", n ? n : 1);
    for (int i = 0; i < n; i++)
        sb_printf(w->sb, "%s%s%s", i ? ", " : "", arr[i]->access & ACC_WRITE ? "" : "(void *)", unparse_name(arr[i]));
    sb_puts(w->sb, n ? "};\n" : "NULL};\n");
    plan_extent_table(w, e);
    hw_line(w, "%s_array imcl_a[%d];", rt, n ? n : 1);
    hw_line(w, "%simcl_status = %s_call_begin(%s, %d, %s, imcl_extent, imcl_host, imcl_a);",
            declare ? "const int " : "", rt, args, n, n ? "imcl_layout" : "NULL");
    hw_line(w, "if (imcl_status != %s_OK)", e->host_name);
    hw_inner(w, "return imcl_status;");
    hw_line(w, "/* the launch (imcl_launch); the wait for its end, and the copies of what it wrote */");
    hw_start(w);
    sb_printf(w->sb, "return %s_call_end(%s, %d, %s, imcl_host, imcl_a,\n        ", rt, args, n, n ? "imcl_layout" : "NULL");
}

void plan_wavefront_parts(HostWriter *w, const Function *k, int part_points)
{
    const bool planes = k->grid_dims == 3;
    hw_line(w, "/* step s of a pass computes its %s %d behind step s - 1 (as far as '%s' is read",
            planes ? "planes" : "rows", k->iterate_radius, k->iterate[0]->name);
    hw_line(w, " * away from the point), so that it finds all it reads of the step before computed");
    hw_line(w, " * and overwrites nothing that is still to be read; each part of the wavefront holds");
    hw_line(w, " * about %dK points of the blocks (docs/iterate.md) */", part_points >> 10);
    hw_line(w, "const int imcl_n = %s, imcl_radius = %d;", planes ? "D" : "H", k->iterate_radius);
    hw_line(w, "const long long imcl_points = (long long)W%s * imcl_p->count; /* of a %s */", planes ? " * H" : "",
            planes ? "plane" : "row");
    hw_line(w, "const int imcl_chunk = imcl_points < %d ? (int)(%d / imcl_points) : 1;", part_points, part_points);
}

void plan_wavefront_loops(HostWriter *w, const char *ok)
{
    hw_line(w, "for (int imcl_w = 0; %s", ok);
    hw_line(w, "        && imcl_w * imcl_chunk - (imcl_t - 1) * imcl_radius < imcl_n; imcl_w++)");
    w->indent++;
    hw_line(w, "for (int imcl_s = 0; imcl_s < imcl_t && %s; imcl_s++) {", ok);
    w->indent++;
    hw_line(w, "const int imcl_at = imcl_w * imcl_chunk - imcl_s * imcl_radius;");
    hw_line(w, "const int imcl_lo = imcl_at > 0 ? imcl_at : 0;");
    hw_line(w, "const int imcl_hi = imcl_at + imcl_chunk < imcl_n ? imcl_at + imcl_chunk : imcl_n;");
}

void plan_wavefront_end(HostWriter *w)
{
    w->indent--;
    hw_line(w, "}");
    w->indent--;
}
