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

void plan_member(StrBuf *sb, const char *decl, const char *comment)
{
    sb_printf(sb, "    %s;", decl);
    int col = 5 + (int)strlen(decl);
    if (comment)
        sb_printf(sb, "%*s/* %s */", col < 32 ? 32 - col : 1, "", comment);
    sb_puts(sb, "\n");
}

const char *plan_handle(const Function *k)
{
    /* `plan` unless a scalar parameter of the launch has that name. */
    for (int i = 0; i < k->nparams; i++)
        if (!host_is_array(k->params[i]) && strcmp(k->params[i]->name, "plan") == 0)
            return "imcl_plan";
    return "plan";
}

/* `int PK_plan_create(PK_plan **plan, int a_width, ...)` without the `;` (with `batch`:
 * PK_plan_create_batch, with its capacity). */
static void create_head(StrBuf *sb, const EmitCtx *e, bool batch)
{
    const char *pk = e->host_name;
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_printf(sb, "int %s_plan_create%s(%s_plan **plan%s", pk, batch ? "_batch" : "", pk, batch ? ", int capacity" : "");
    for (int i = 0; i < n; i++)
        if (type_is_grid(arr[i]->type))
            for (int d = 0; d < type_grid_dims(arr[i]->type); d++)
                sb_printf(sb, ", int %s%s", unparse_name(arr[i]), unparse_extent_suffix(d));
    sb_puts(sb, ")");
}

/* `int PK_plan_launch<kind>(PK_plan *plan, T scalar, ...)` without the `;`: kind "" for
 * PK_plan_launch, "_batch" or "_batch_async" for those that take the count first. */
static void launch_head(StrBuf *sb, const EmitCtx *e, const char *kind)
{
    const char *pk = e->host_name;
    const Function *k = e->k;
    sb_printf(sb, "int %s_plan_launch%s(%s_plan *%s%s", pk, kind, pk, plan_handle(k),
              *kind ? ", int " PLAN_COUNT : "");
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            sb_printf(sb, ", %s %s", unparse_c_type(s->type->kind), unparse_name(s));
    }
    sb_puts(sb, ")");
}

void plan_signature(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s)
{
    const char *pk = e->host_name;
    switch (fn) {
    case PLAN_CREATE: create_head(sb, e, false); break;
    case PLAN_CREATE_BATCH: create_head(sb, e, true); break;
    case PLAN_LAUNCH: launch_head(sb, e, ""); break;
    case PLAN_LAUNCH_BATCH: launch_head(sb, e, "_batch"); break;
    case PLAN_LAUNCH_ASYNC: launch_head(sb, e, "_batch_async"); break;
    case PLAN_WAIT: sb_printf(sb, "int %s_plan_wait(%s_plan *plan)", pk, pk); break;
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
    sb_puts(h, "/* Runs the kernel once over its grid (of every block of a batch) on the device\n"
               " * buffers and waits for it. */\n");
    plan_signature(h, e, PLAN_LAUNCH, NULL);
    sb_puts(h, ";\n");
    sb_puts(h, "/* The same over blocks 0 to imcl_count - 1 only, in one launch. */\n");
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

void plan_begin(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s)
{
    const char *pk = e->host_name;
    HostWriter w = host_writer(sb, 1);
    plan_signature(sb, e, fn, s);
    sb_puts(sb, "\n{\n");
    switch (fn) {
    case PLAN_CREATE_BATCH:
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
        break;
    case PLAN_UPLOAD_ROWS:
    case PLAN_DOWNLOAD_ROWS:
        hw_line(&w, "if (!plan || !tables || first < 0 || count < 0 || count > plan->capacity - first)");
        hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
        break;
    case PLAN_UPLOAD_STRIDED:
    case PLAN_DOWNLOAD_STRIDED:
        /* the pitches: checked with the storage's extents (plan_row_transfers) */
        hw_line(&w, "if (!plan || !host || first < 0 || count < 0 || count > plan->capacity - first)");
        hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
        break;
    case PLAN_UPLOAD:
    case PLAN_DOWNLOAD:
        hw_line(&w, "if (!plan || !host)");
        hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
        break;
    case PLAN_LAUNCH_BATCH:
    case PLAN_LAUNCH_ASYNC:
        hw_line(&w, "if (!%s || " PLAN_COUNT " < 0 || " PLAN_COUNT " > %s->capacity)", plan_handle(e->k),
                plan_handle(e->k));
        hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
        break;
    default: UNREACHABLE();
    }
    bool launch = fn == PLAN_LAUNCH_BATCH || fn == PLAN_LAUNCH_ASYNC;
    if (fn != PLAN_CREATE_BATCH)
        plan_settle(&w, e, launch ? plan_handle(e->k) : "plan", true);
    if (launch)
        plan_extent_locals(&w, e, plan_handle(e->k), "extent[%d][%d]");
}

bool plan_async(const EmitCtx *e)
{
    return e->so->backend->gpu;
}

void plan_settle_helper(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    if (!plan_async(e))
        return;
    sb_printf(sb, "/* A launch still running (%s_plan_launch_batch_async) ends before any other call on\n"
                  " * the plan goes on: nonzero when it failed. */\n"
                  "static int imcl_plan_settle(%s_plan *plan)\n{\n"
                  "    return plan->pending && %s_plan_wait(plan) != %s_OK;\n}\n\n", pk, pk, pk, pk);
}

void plan_settle(HostWriter *w, const EmitCtx *e, const char *h, bool value)
{
    if (!plan_async(e))
        return;
    if (!value) {
        hw_line(w, "imcl_plan_settle(%s);", h);
        return;
    }
    hw_line(w, "if (imcl_plan_settle(%s))", h);
    hw_inner(w, "return %s_ERR_LAUNCH;", e->host_name);
}

void plan_transfers(StrBuf *sb, const EmitCtx *e, PlanCopyFailed failed)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    HostWriter w = host_writer(sb, 1);
    for (int i = 0; i < n; i++)
        for (int up = 1; up >= 0; up--) {
            plan_begin(sb, e, up ? PLAN_UPLOAD : PLAN_DOWNLOAD, arr[i]);
            hw_line(&w, "if (%s)", failed(e, arr[i], i, up));
            hw_inner(&w, "return %s_ERR_TRANSFER;", e->host_name);
            hw_line(&w, "return %s_OK;", e->host_name);
            sb_puts(sb, "}\n\n");
        }
}

/* The arrays that share a transfer helper: one element type and dimensionality. */
static bool same_class(const Symbol *a, const Symbol *b)
{
    return a->type->elem->kind == b->type->elem->kind && type_grid_dims(a->type) == type_grid_dims(b->type);
}

static const char *rows_helper_name(const EmitCtx *e, const Symbol *s)
{
    return arena_printf(e->a, "imcl_rows_%s%d", type_name(s->type->elem), type_grid_dims(s->type));
}

/* imcl_rows_<T><dims>: the row-table and strided transfers of every array of s's class. */
static void rows_helper(StrBuf *sb, const EmitCtx *e, const Symbol *s, bool fallback, const PlanRowsAccess *access)
{
    const char *pk = e->host_name, *t = unparse_c_type(s->type->elem->kind);
    bool block = type_grid_dims(s->type) == 3;
    sb_printf(sb, "/* Blocks first to first + count - 1 of array imcl_id (a %s %s, halo imcl_halo) to its\n"
                  " * memory (imcl_up) or from it, from / into the row tables `tables` or else the host memory\n"
                  " * src / dst with the pitches given: PK_plan_upload_rows_<a> and the others of its kind%s. */\n",
              type_name(s->type->elem), block ? "Block" : "Image",
              fallback ? ";\n * an array whose memory is no buffer goes through a host copy and imcl_put / imcl_get,\n"
                         " * its own whole-array transfers" : "");
    sb_printf(sb, "static int %s(%s_plan *plan, int imcl_id, int imcl_halo, int imcl_up,\n", rows_helper_name(e, s), pk);
    sb_printf(sb, "        int (*imcl_put)(%s_plan *, const %s *), int (*imcl_get)(%s_plan *, %s *),\n", pk, t, pk, t);
    sb_printf(sb, "        int first, int count, %s %s*const *tables, const %s *src, %s *dst,\n", t, block ? "**" : "*", t, t);
    sb_printf(sb, "        ptrdiff_t row_pitch,%s ptrdiff_t block_pitch)\n{\n", block ? " ptrdiff_t plane_pitch," : "");
    HostWriter w = host_writer(sb, 1);
    if (!fallback)
        hw_line(&w, "(void)imcl_put, (void)imcl_get; /* (every array of this kind is a buffer) */");
    hw_line(&w, "/* a block's storage: its rows' length, its rows%s */", block ? " and its rows per plane" : "");
    hw_line(&w, "const size_t imcl_w = (size_t)plan->extent[imcl_id][0] + 2 * (size_t)imcl_halo;");
    hw_line(&w, "const size_t imcl_h = (size_t)plan->extent[imcl_id][1] + 2 * (size_t)imcl_halo;");
    if (block)
        hw_line(&w, "const size_t imcl_rows = imcl_h * ((size_t)plan->extent[imcl_id][2] + 2 * (size_t)imcl_halo);");
    else
        hw_line(&w, "const size_t imcl_rows = imcl_h;");
    hw_line(&w, "/* the rows, planes and blocks of host memory must not overlap */");
    if (block)
        hw_line(&w, "if (!tables && (row_pitch < (ptrdiff_t)imcl_w || plane_pitch / (ptrdiff_t)imcl_h < row_pitch ||");
    else
        hw_line(&w, "if (!tables && (row_pitch < (ptrdiff_t)imcl_w ||");
    hw_inner(&w, "    block_pitch / (ptrdiff_t)(imcl_rows / imcl_h) < %s))", block ? "plane_pitch" : "row_pitch * (ptrdiff_t)imcl_h");
    hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(&w, "const size_t imcl_off = (size_t)first * imcl_rows * imcl_w, imcl_n = (size_t)count * imcl_rows * imcl_w;");
    hw_line(&w, "if (imcl_n == 0)");
    hw_inner(&w, "return %s_OK;", pk);
    hw_line(&w, "int imcl_status = %s_OK;", pk);
    hw_line(&w, "%s *imcl_dense = NULL;", t);
    if (fallback) {
        hw_line(&w, "if (imcl_put) {");
        w.indent++;
        hw_line(&w, "/* a host copy of the array (one block: first is 0) */");
        hw_line(&w, "imcl_dense = (%s *)malloc(plan->bytes[imcl_id]);", t);
        hw_line(&w, "if (!imcl_dense)");
        hw_inner(&w, "return %s_ERR_MEMORY;", pk);
        hw_line(&w, "if (!imcl_up)");
        hw_inner(&w, "imcl_status = imcl_get(plan, imcl_dense);");
        w.indent--;
        hw_line(&w, "} else {");
        w.indent++;
    }
    access->map(&w, e, t);
    if (fallback) {
        w.indent--;
        hw_line(&w, "}");
    }
    hw_line(&w, "for (size_t imcl_r = 0; imcl_status == %s_OK && imcl_r < imcl_n / imcl_w; imcl_r++) {", pk);
    w.indent++;
    hw_line(&w, "const size_t imcl_b = imcl_r / imcl_rows, imcl_y = imcl_r %% imcl_h%s;",
            block ? ", imcl_z = imcl_r % imcl_rows / imcl_h" : "");
    hw_line(&w, "const ptrdiff_t imcl_at = (ptrdiff_t)imcl_b * block_pitch + (ptrdiff_t)imcl_y * row_pitch%s;",
            block ? " + (ptrdiff_t)imcl_z * plane_pitch" : "");
    const char *row = block ? "tables[imcl_b][imcl_z][imcl_y]" : "tables[imcl_b][imcl_y]";
    hw_line(&w, "if (imcl_up)");
    hw_inner(&w, "memcpy(imcl_dense + imcl_r * imcl_w, tables ? %s : src + imcl_at, imcl_w * sizeof(%s));", row, t);
    hw_line(&w, "else");
    hw_inner(&w, "memcpy(tables ? %s : dst + imcl_at, imcl_dense + imcl_r * imcl_w, imcl_w * sizeof(%s));", row, t);
    w.indent--;
    hw_line(&w, "}");
    if (fallback) {
        hw_line(&w, "if (imcl_put) {");
        hw_inner(&w, "if (imcl_up && imcl_status == %s_OK)", pk);
        hw_inner(&w, "    imcl_status = imcl_put(plan, imcl_dense);");
        hw_inner(&w, "free(imcl_dense);");
        hw_inner(&w, "return imcl_status;");
        hw_line(&w, "}");
    }
    access->unmap(&w, e, t);
    hw_line(&w, "return imcl_status;");
    sb_puts(sb, "}\n\n");
}

void plan_row_transfers(StrBuf *sb, const EmitCtx *e, const PlanRowsAccess *access)
{
    const char *pk = e->host_name;
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    /* one helper per class of arrays, where its first array is */
    for (int i = 0; i < n; i++) {
        if (!type_is_grid(arr[i]->type))
            continue;
        bool first = true, fallback = false;
        for (int j = 0; j < n; j++)
            if (type_is_grid(arr[j]->type) && same_class(arr[i], arr[j])) {
                first &= j >= i;
                fallback |= !access->mappable(arr[j]);
            }
        if (first)
            rows_helper(sb, e, arr[i], fallback, access);
    }
    HostWriter w = host_writer(sb, 1);
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        if (!type_is_grid(s->type))
            continue;
        const char *name = unparse_name(s);
        bool block = type_grid_dims(s->type) == 3;
        const char *whole = access->mappable(s) ? "NULL, NULL"
                                                : arena_printf(e->a, "%s_plan_upload_%s, %s_plan_download_%s", pk, name, pk, name);
        for (int strided = 0; strided < 2; strided++)
            for (int up = 1; up >= 0; up--) {
                plan_begin(sb, e, strided ? (up ? PLAN_UPLOAD_STRIDED : PLAN_DOWNLOAD_STRIDED)
                                          : (up ? PLAN_UPLOAD_ROWS : PLAN_DOWNLOAD_ROWS), s);
                hw_line(&w, "return %s(plan, %d, %d, %d, %s, first, count,", rows_helper_name(e, s), i, s->halo, up, whole);
                if (strided)
                    hw_inner(&w, "NULL, %s, %s, row_pitch,%s block_pitch);", up ? "host" : "NULL", up ? "NULL" : "host",
                             block ? " plane_pitch," : "");
                else
                    hw_inner(&w, "tables, NULL, NULL, 0,%s 0);", block ? " 0," : "");
                sb_puts(sb, "}\n\n");
            }
    }
}

void plan_launch_grid(HostWriter *w, const EmitCtx *e, bool reset_time)
{
    host_grid_extent(w, e->k);
    if (reset_time)
        hw_line(w, "%s->kernel_ms = 0.0;", plan_handle(e->k));
    hw_line(w, "if (W < 1 || H < 1 || D < 1 || " PLAN_COUNT " == 0)");
    hw_inner(w, "return %s_OK; /* an empty grid, or no block: nothing to do */", e->host_name);
}

void plan_create_alloc(HostWriter *w, const EmitCtx *e)
{
    const char *pk = e->host_name;
    hw_line(w, "%s_plan *p = (%s_plan *)calloc(1, sizeof *p);", pk, pk);
    hw_line(w, "if (!p)");
    hw_inner(w, "return %s_ERR_MEMORY;", pk);
    hw_line(w, "p->capacity = capacity;");
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    if (!n)
        return;
    hw_line(w, "/* the extent of each array (1 where it has none) and the bytes of its buffer */");
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        int dims = type_is_grid(s->type) ? type_grid_dims(s->type) : 0;
        for (int d = 0; d < 3; d++) {
            if (d < dims)
                hw_line(w, "p->extent[%d][%d] = %s%s;", i, d, unparse_name(s), unparse_extent_suffix(d));
            else
                hw_line(w, "p->extent[%d][%d] = 1;", i, d);
        }
        hw_start(w);
        sb_printf(w->sb, "p->bytes[%d] = %s", i, type_is_grid(s->type) ? "(size_t)capacity * " : "");
        host_bytes(w->sb, s);
        sb_puts(w->sb, ";\n");
    }
}

/* The arguments of PK_plan_create_batch's extents, or of PK_plan_launch_batch's scalars. */
static void pass_on(StrBuf *sb, const EmitCtx *e, bool extents)
{
    const Function *k = e->k;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (extents && type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, ", %s%s", unparse_name(s), unparse_extent_suffix(d));
        else if (!extents && !host_is_array(s))
            sb_printf(sb, ", %s", unparse_name(s));
    }
}

void plan_create_and_launch(StrBuf *sb, const EmitCtx *e, const char *plan_type)
{
    const char *pk = e->host_name, *h = plan_handle(e->k);
    const char *p = plan_type ? arena_printf(e->a, "((const %s *)%s)", plan_type, h) : h;
    plan_signature(sb, e, PLAN_CREATE, NULL);
    sb_printf(sb, "\n{\n    return %s_plan_create_batch(plan, 1", pk);
    pass_on(sb, e, true);
    sb_puts(sb, ");\n}\n\n");
    plan_signature(sb, e, PLAN_LAUNCH, NULL);
    sb_printf(sb, "\n{\n    return %s_plan_launch_batch(%s, %s ? %s->capacity : 0", pk, h, h, p);
    pass_on(sb, e, false);
    sb_puts(sb, ");\n}\n\n");
}

void plan_launch_and_wait(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name, *h = plan_handle(e->k);
    if (plan_async(e)) {
        plan_signature(sb, e, PLAN_LAUNCH_BATCH, NULL);
        sb_printf(sb, "\n{\n    const int imcl_status = %s_plan_launch_batch_async(%s, " PLAN_COUNT, pk, h);
        pass_on(sb, e, false);
        /* (a NULL plan: the launch's PK_ERR_ARGUMENT, which the wait's repeats) */
        sb_printf(sb, ");\n    const int imcl_waited = %s_plan_wait(%s);\n", pk, h);
        sb_printf(sb, "    return imcl_status != %s_OK ? imcl_status : imcl_waited;\n}\n\n", pk);
        return;
    }
    plan_signature(sb, e, PLAN_LAUNCH_ASYNC, NULL);
    sb_printf(sb, "\n{\n    /* the C reference computes on the caller's thread */\n"
                  "    return %s_plan_launch_batch(%s, " PLAN_COUNT, pk, h);
    pass_on(sb, e, false);
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

void plan_swap_and_time(StrBuf *sb, const EmitCtx *e, const PlanSwapped *members, int nmembers)
{
    const char *pk = e->host_name;
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    bool constant = false;
    if (n) {
        int cls[n];
        constant = plan_swap_classes(e, cls);
        sb_puts(sb, "/* Arrays of one class here have the same element type, dimensions, halo and placement\n"
                    " * (buffers, or textures of one addressing mode): their device memory is interchangeable\n"
                    " * when their extents agree.");
        if (constant)
            sb_puts(sb, " Class -1: an array in constant memory, which never swaps.");
        sb_puts(sb, " */\n");
        sb_printf(sb, "static const int imcl_plan_class[%d] = {", n);
        for (int i = 0; i < n; i++)
            sb_printf(sb, "%s%d", i ? ", " : "", cls[i]);
        sb_puts(sb, "};\n\n");
    }
    plan_signature(sb, e, PLAN_SWAP, NULL);
    sb_puts(sb, "\n{\n");
    if (!n) {
        sb_printf(sb, "    (void)plan;\n    (void)a;\n    (void)b;\n    return %s_ERR_ARGUMENT; /* no arrays */\n}\n\n", pk);
    } else {
        sb_printf(sb, "    if (!plan || a < 0 || a >= %d || b < 0 || b >= %d || %simcl_plan_class[a] != imcl_plan_class[b])\n",
                  n, n, constant ? "imcl_plan_class[a] < 0 || " : "");
        sb_printf(sb, "        return %s_ERR_ARGUMENT;\n", pk);
        sb_puts(sb, "    for (int d = 0; d < 3; d++)\n        if (plan->extent[a][d] != plan->extent[b][d])\n");
        sb_printf(sb, "            return %s_ERR_ARGUMENT;\n", pk);
        HostWriter w = host_writer(sb, 1);
        plan_settle(&w, e, "plan", true);
        sb_puts(sb, "    /* the arrays exchange their device memory; nothing is copied */\n");
        for (int i = 0; i < nmembers; i++) {
            const char *t = members[i].type, *m = members[i].member;
            sb_printf(sb, "    %s%simcl_%s = plan->%s[a];\n", t, t[strlen(t) - 1] == '*' ? "" : " ", m, m);
            sb_printf(sb, "    plan->%s[a] = plan->%s[b];\n    plan->%s[b] = imcl_%s;\n", m, m, m, m);
        }
        sb_printf(sb, "    return %s_OK;\n}\n\n", pk);
    }
    plan_signature(sb, e, PLAN_KERNEL_MS, NULL);
    sb_puts(sb, "\n{\n    return plan ? plan->kernel_ms : 0.0;\n}\n\n");
}

void plan_attach(StrBuf *sb, const EmitCtx *e, PlanFn fn, void (*body)(HostWriter *w, const EmitCtx *e))
{
    const char *pk = e->host_name;
    const char *ptr = fn == PLAN_ATTACH ? "host" : "memory";
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    HostWriter w = host_writer(sb, 1);
    bool any = host_any(e->k, host_on_buffer);
    if (any && fn == PLAN_ATTACH) {
        sb_puts(sb, "/* The arrays in a buffer, which alone can compute in host memory (PK_plan_attach). */\n");
        sb_printf(sb, "static const unsigned char imcl_plan_in_buffer[%d] = {", n);
        for (int i = 0; i < n; i++)
            sb_printf(sb, "%s%d", i ? ", " : "", host_on_buffer(arr[i]));
        sb_puts(sb, "};\n\n");
    }
    plan_signature(sb, e, fn, NULL);
    sb_puts(sb, "\n{\n");
    if (!any) {
        hw_line(&w, "(void)plan, (void)a, (void)%s;", ptr);
        hw_line(&w, "return %s_ERR_ARGUMENT; /* no array in a buffer */", pk);
    } else {
        hw_line(&w, "if (!plan || !%s || a < 0 || a >= %d || !imcl_plan_in_buffer[a])", ptr, n);
        hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
        plan_settle(&w, e, "plan", true);
        body(&w, e);
    }
    sb_puts(sb, "}\n\n");
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
    plan_forward(sb, e, PLAN_SWAP, NULL, arena_printf(a, "%s_plan_swap((%s_plan *)plan, a, b)", rt, rt));
    plan_forward(sb, e, PLAN_KERNEL_MS, NULL,
                 arena_printf(a, "%s_plan_kernel_ms((const %s_plan *)plan)", rt, rt));
    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_printf(sb, "\n{\n    %s_plan_destroy((%s_plan *)plan);\n}\n", rt, rt);
}
