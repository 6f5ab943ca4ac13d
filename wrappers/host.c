/* Host-side text shared by the C, CUDA and OpenCL wrappers, the writer of host code
 * and the copy of the host runtime files (host.h). */
#include "host.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "unparse.h"

StrBuf *outputs_add(Outputs *o, const char *name)
{
    if (o->n == o->cap) {
        int cap = o->cap ? o->cap * 2 : 16;
        OutFile **files = realloc(o->files, sizeof *files * (size_t)cap);
        if (!files)
            UNREACHABLE();
        o->files = files;
        o->cap = cap;
    }
    OutFile *f = calloc(1, sizeof *f);
    if (!f)
        UNREACHABLE();
    f->name = strdup(name);
    o->files[o->n++] = f;
    return &f->text;
}

void outputs_free(Outputs *o)
{
    for (int i = 0; i < o->n; i++) {
        free(o->files[i]->name);
        sb_free(&o->files[i]->text);
        free(o->files[i]);
    }
    free(o->files);
    memset(o, 0, sizeof *o);
}

bool host_is_array(const Symbol *s)
{
    return s->type->kind == TY_ARRAY || type_is_grid(s->type);
}

int host_public_params(const Function *k, const Symbol **out)
{
    int n = 0;
    for (int i = 0; i < k->nparams; i++)
        if (host_is_array(k->params[i]))
            out[n++] = k->params[i];
    for (int i = 0; i < k->nparams; i++)
        if (!host_is_array(k->params[i]))
            out[n++] = k->params[i];
    return n;
}

bool host_on_texture(const Symbol *s)
{
    return type_is_grid(s->type) && s->mem == MEM_TEXTURE;
}

bool host_on_constant(const Symbol *s)
{
    return host_is_array(s) && s->mem == MEM_CONSTANT;
}

bool host_on_buffer(const Symbol *s)
{
    return host_is_array(s) && !host_on_texture(s) && !host_on_constant(s);
}

int host_array_id(const Function *k, const Symbol *s)
{
    int id = 0;
    for (int i = 0; i < k->nparams && k->params[i] != s; i++)
        id += host_is_array(k->params[i]);
    return id;
}

int host_kernel_params(const Function *k, bool with_constant, KernelParam *out)
{
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order), m = 0;
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        if (!host_is_array(s) || with_constant || !host_on_constant(s))
            out[m++] = (KernelParam){s, -1};
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                out[m++] = (KernelParam){s, d};
    }
    for (int d = 0; d < 3; d++)
        out[m++] = (KernelParam){NULL, d};
    if (function_has_grid(k)) {
        out[m++] = (KernelParam){NULL, 3};
        out[m++] = (KernelParam){NULL, 4};
    }
    return m;
}


const char *host_kernel_param_name(Arena *a, const KernelParam *p)
{
    if (!p->s)
        return (const char *[]){"W", "H", "D", "imcl_count", "imcl_blocks"}[p->extent];
    if (p->extent < 0)
        return unparse_name(p->s);
    return arena_printf(a, "%s%s", unparse_name(p->s), unparse_extent_suffix(p->extent));
}

bool host_copy_in(const Symbol *s)
{
    return (s->access & ACC_READ) || ((s->access & ACC_WRITE) && !s->fully_written);
}

bool host_copy_out(const Symbol *s)
{
    return (s->access & ACC_WRITE) != 0;
}

void host_transfer_comment(HostWriter *w, const Function *k)
{
    StrBuf in = {0}, out = {0}, skipped = {0};
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            continue;
        StrBuf *which = host_copy_in(s) ? &in : &skipped;
        sb_printf(which, "%s%s", which->len ? ", " : "", s->name);
        if (host_copy_out(s))
            sb_printf(&out, "%s%s", out.len ? ", " : "", s->name);
    }
    if (skipped.len)
        hw_line(w, "/* transfers: in [%s], out [%s]; not copied in: %s (every element is overwritten before it is read) */",
                sb_str(&in), sb_str(&out), sb_str(&skipped));
    else
        hw_line(w, "/* transfers: in [%s], out [%s]; written arrays the kernel may not overwrite in full are copied in, so no data is lost */",
                sb_str(&in), sb_str(&out));
    sb_free(&in);
    sb_free(&out);
    sb_free(&skipped);
}

void host_param_list(StrBuf *sb, const Function *k)
{
    host_param_list_as(sb, k, false);
}

void host_param_list_as(StrBuf *sb, const Function *k, bool tables)
{
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    if (tables)
        sb_puts(sb, "int imcl_count, ");
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        sb_puts(sb, j ? ", " : "");
        if (!host_is_array(s)) {
            sb_printf(sb, "%s %s", unparse_c_type(s->type->kind), name);
            continue;
        }
        bool ro = !(s->access & ACC_WRITE);
        if (tables && type_is_grid(s->type))
            /* count tables; each array's own type, so that `double ***t[]` passes as it is */
            sb_printf(sb, "%s %s*const *%s", unparse_c_type(s->type->elem->kind),
                      type_grid_dims(s->type) == 3 ? "**" : "*", name);
        else
            sb_printf(sb, "%s%s *%s", ro ? "const " : "", unparse_c_type(s->type->elem->kind), name);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, ", int %s%s", name, unparse_extent_suffix(d));
    }
    if (n == 0)
        sb_puts(sb, "void");
}

void host_arg_list(StrBuf *sb, const Function *k, const char *array_prefix)
{
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        sb_printf(sb, "%s%s%s", j ? ", " : "", host_is_array(s) ? array_prefix : "", name);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, ", %s%s", name, unparse_extent_suffix(d));
    }
}

void host_elems(StrBuf *sb, const Symbol *s)
{
    const char *name = unparse_name(s);
    if (s->type->kind == TY_ARRAY) {
        long long n = 1;
        for (int d = 0; d < s->type->ndims; d++)
            n *= s->type->dims[d];
        sb_printf(sb, "(size_t)%lld", n);
        return;
    }
    for (int d = 0; d < type_grid_dims(s->type); d++) {
        if (d)
            sb_puts(sb, " * ");
        if (s->halo)
            sb_printf(sb, "(size_t)(%s%s + %d)", name, unparse_extent_suffix(d), 2 * s->halo);
        else
            sb_printf(sb, "(size_t)%s%s", name, unparse_extent_suffix(d));
    }
}

const char *host_storage_extent(Arena *a, const Symbol *s, int d, bool cast)
{
    const char *name = unparse_name(s), *suffix = unparse_extent_suffix(d), *c = cast ? "(size_t)" : "";
    if (s->halo)
        return arena_printf(a, "%s(%s%s + %d)", c, name, suffix, 2 * s->halo);
    return arena_printf(a, "%s%s%s", c, name, suffix);
}

/* ---- writer of host code ---- */

HostWriter host_writer(StrBuf *sb, int indent)
{
    return (HostWriter){sb, indent};
}

void hw_start(HostWriter *w)
{
    for (int i = 0; i < w->indent; i++)
        sb_puts(w->sb, "    ");
}

void hw_break(HostWriter *w)
{
    sb_putc(w->sb, '\n');
    w->indent++;
    hw_start(w);
    w->indent--;
}

void hw_line(HostWriter *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hw_start(w);
    sb_vprintf(w->sb, fmt, ap);
    sb_putc(w->sb, '\n');
    va_end(ap);
}

void hw_inner(HostWriter *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    w->indent++;
    hw_start(w);
    w->indent--;
    sb_vprintf(w->sb, fmt, ap);
    sb_putc(w->sb, '\n');
    va_end(ap);
}

void host_check_args(HostWriter *w, const Function *k, const char *fail)
{
    host_check_extents(w, k, fail, true);
}

/* `if (b_width != a_width || ...) return FAIL;` over the dimensions of grid arrays a, b. */
static void same_extents(HostWriter *w, const Symbol *b, const Symbol *a, const char *fail)
{
    hw_start(w);
    sb_puts(w->sb, "if (");
    for (int d = 0; d < type_grid_dims(a->type); d++)
        sb_printf(w->sb, "%s%s%s != %s%s", d ? " || " : "", unparse_name(b), unparse_extent_suffix(d),
                  unparse_name(a), unparse_extent_suffix(d));
    sb_puts(w->sb, ")\n");
    hw_inner(w, "return %s;", fail);
}

void host_check_extents(HostWriter *w, const Function *k, const char *fail, bool pointers)
{
    StrBuf cond = {0};
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_is_array(s))
            continue;
        const char *name = unparse_name(s);
        if (pointers)
            sb_printf(&cond, "%s!%s", cond.len ? " || " : "", name);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(&cond, "%s%s%s < 1", cond.len ? " || " : "", name, unparse_extent_suffix(d));
    }
    if (cond.len) {
        hw_line(w, "%s", pointers ? "/* every array is needed, and every extent must be positive */"
                                  : "/* every extent must be positive */");
        hw_line(w, "if (%s)", sb_str(&cond));
        hw_inner(w, "return %s;", fail);
    }
    sb_free(&cond);
    /* Kernels index with int: an array of more elements cannot be addressed. */
    bool first = true;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!type_is_grid(s->type))
            continue;
        if (first) {
            hw_line(w, "/* indices are int: at most 2^31 - 1 elements per array */");
            hw_start(w);
            sb_puts(w->sb, "if (");
        } else {
            sb_puts(w->sb, " ||");
            hw_break(w);
        }
        first = false;
        host_elems(w->sb, s);
        sb_puts(w->sb, " > 2147483647u");
    }
    if (!first) {
        sb_puts(w->sb, ")\n");
        hw_inner(w, "return %s;", fail);
    }
    if (k->grid_kind == GRID_ARRAYS && k->ngrid_arrays > 1) {
        hw_line(w, "/* the arrays the grid is bound to must have one extent */");
        for (int i = 1; i < k->ngrid_arrays; i++)
            same_extents(w, k->grid_arrays[i], k->grid_arrays[0], fail);
    }
    if (k->iterate[0]) {
        hw_line(w, "/* iterate: '%s' and '%s' trade roles after each step, so have one extent */",
                k->iterate[0]->name, k->iterate[1]->name);
        same_extents(w, k->iterate[1], k->iterate[0], fail);
    }
}


void host_grid_extent(HostWriter *w, const Function *k)
{
    static const char *names[] = {"W", "H", "D"};
    StrBuf *sb = w->sb;
    for (int d = 0; d < 3; d++) {
        hw_start(w);
        sb_printf(sb, "const int %s = ", names[d]);
        if (k->grid_kind == GRID_ARRAYS) {
            if (d < k->grid_dims)
                sb_printf(sb, "%s%s", unparse_name(k->grid_arrays[0]), unparse_extent_suffix(d));
            else
                sb_puts(sb, "1");
        } else {
            Unparser u;
            unparse_init(&u, sb, &unparse_target_scalars);
            unparse_expr(&u, k->grid_size[d]);
        }
        sb_puts(sb, ";\n");
    }
}

/* The banner's first line: what generated the file, from what, for which kernel. */
static void banner_head(StrBuf *sb, const EmitCtx *e, const char *what)
{
    /* The path as given, made safe inside a comment. */
    StrBuf path = {0};
    for (const char *p = e->prog->file; *p; p++) {
        if (*p == '*' && p[1] == '/')
            sb_puts(&path, "*\\/");
        else if (*p == '\n' || *p == '\r' || (unsigned char)*p < 32)
            sb_putc(&path, '?');
        else
            sb_putc(&path, *p);
    }
    sb_printf(sb, "/* Generated by imcl " IMCL_VERSION_STRING " from %s: %s for kernel '%s'.\n",
              sb_str(&path), what ? what : "public interface", e->k->name);
    sb_free(&path);
}

static void banner_tail(StrBuf *sb)
{
    sb_puts(sb, " * Do not edit: regenerate with imcl instead. This file, with the runtime text imcl\n"
                " * copies into it, belongs to you: no licence condition of imcl's applies to it. */\n");
}

void host_banner_untuned(StrBuf *sb, const EmitCtx *e, const char *what)
{
    banner_head(sb, e, what);
    banner_tail(sb);
}

void host_banner(StrBuf *sb, const EmitCtx *e, const char *what)
{
    const TuneParams *tp = e->tp;
    banner_head(sb, e, what);
    if (!what) {
        /* K.h: the same for every backend and configuration */
    } else if (!e->so->backend->gpu) {
        /* Block shapes, coarsening, placements and unrolling are GPU choices. */
        sb_printf(sb, " * The kernel as written, rows in parallel with OpenMP's schedule(%s); the GPU\n"
                      " * parameters do not apply.\n", params_omp_schedule(e->a, tp));
    } else {
        sb_printf(sb, " * Tuning: block %dx%dx%d, coarsening %dx%dx%d, %s mapping.\n",
                  tp->block[0], tp->block[1], tp->block[2], tp->coarsen[0], tp->coarsen[1], tp->coarsen[2],
                  tp->interleaved ? "interleaved" : "blocked");
        if (e->tp_cpu && e->tp_cpu->row_walk)
            sb_printf(sb, " * On CPU devices (chosen at run time): a work-item per row, walking it, %d rows a\n"
                          " * work-group, the interior of each row without edge guards%s.\n",
                      e->tp_cpu->block[1], e->tp_cpu->unrolled_whole ? ", for loops unrolled"
                                           : e->tp_cpu->lanes         ? ", tap loops over chunks of the row"
                                                                      : "");
        else if (e->tp_cpu)
            sb_printf(sb, " * On CPU devices (chosen at run time): block %s%dx%dx%d, no interior split%s.\n",
                      e->tp_cpu->row_fit ? "up to " : "", e->tp_cpu->block[0], e->tp_cpu->block[1], e->tp_cpu->block[2],
                      e->tp_cpu->unrolled_whole ? ", for loops unrolled" : "");
        /* The placements other than global (unrolled loops say so where they are). */
        const Function *k = e->k;
        bool any = false;
        for (int i = 0; i < k->nparams; i++)
            if (host_is_array(k->params[i]) && k->params[i]->mem != MEM_GLOBAL) {
                sb_printf(sb, "%s'%s' in %s memory", any ? ", " : " * Placements: ", k->params[i]->name,
                          mem_kind_name(k->params[i]->mem));
                any = true;
            }
        if (any)
            sb_puts(sb, ".\n");
    }
    banner_tail(sb);
}

void host_kernel_comment(StrBuf *sb, const EmitCtx *e, const char *worker)
{
    const int *c = e->tp->coarsen;
    if (e->tp->row_walk) {
        sb_printf(sb, "/* Kernel '%s': one %s per row of the grid. */\n", e->k->name, worker);
    } else if (c[0] * c[1] * c[2] == 1) {
        sb_printf(sb, "/* Kernel '%s': one %s per grid point. */\n", e->k->name, worker);
    } else if (e->k->grid_dims == 3) {
        sb_printf(sb, "/* Kernel '%s': each %s computes %d x %d x %d grid points (coarsening). */\n",
                  e->k->name, worker, c[0], c[1], c[2]);
    } else {
        sb_printf(sb, "/* Kernel '%s': each %s computes %d x %d grid points (coarsening). */\n",
                  e->k->name, worker, c[0], c[1]);
    }
}

void host_error_functions(StrBuf *sb, const EmitCtx *e, const char *rt, const char *log, const char *release,
                          const char *use_queue)
{
    sb_printf(sb, "const char *%s_strerror(int code)\n{\n    return %s_strerror(code);\n}\n\n", e->host_name, rt);
    sb_printf(sb, "const char *%s_build_log(void)\n{\n    return %s;\n}\n", e->host_name, log);
    sb_printf(sb, "\nvoid %s_release(void)\n{\n%s}\n", e->host_name,
              release ? release : "    /* the one-shot wrapper keeps nothing between calls */\n");
    sb_printf(sb, "\nint %s_use_queue(void *context, void *device, void *queue)\n{\n%s}\n", e->host_name, use_queue);
}

bool host_any(const Function *k, bool (*pred)(const Symbol *))
{
    for (int i = 0; i < k->nparams; i++)
        if (host_is_array(k->params[i]) && pred(k->params[i]))
            return true;
    return false;
}

bool host_placement_checked(const Symbol *s)
{
    return host_on_texture(s) || (host_on_constant(s) && type_is_grid(s->type));
}

void host_checked_extents(StrBuf *sb, const Function *k, bool decl, const char *first)
{
    const char *sep = first;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_placement_checked(s))
            continue;
        for (int d = 0; d < type_grid_dims(s->type); d++) {
            sb_printf(sb, "%s%s%s%s", sep, decl ? "int " : "", unparse_name(s), unparse_extent_suffix(d));
            sep = ", ";
        }
    }
}

void host_texture_dims(const Function *k, bool dims[4])
{
    for (int n = 0; n < 4; n++)
        dims[n] = false;
    for (int i = 0; i < k->nparams; i++)
        if (host_on_texture(k->params[i]))
            dims[type_grid_dims(k->params[i]->type)] = true;
}

void host_runtime(StrBuf *sb, const EmitCtx *e, const char *text)
{
    /* The text between markers goes in one piece (compile speed). */
    const char *p = text;
    for (const char *m = strstr(p, "PK_"); m; m = strstr(m + 1, "PK_")) {
        if (m > text && (isalnum((unsigned char)m[-1]) || m[-1] == '_'))
            continue;
        sb_putn(sb, p, (size_t)(m - p));
        sb_puts(sb, e->host_name);
        p = m + 2;
    }
    sb_puts(sb, p);
    sb_putc(sb, '\n');
}

void host_runtime_file(Outputs *out, const char *name, const char *what, const char *text)
{
    StrBuf *sb = outputs_add(out, name);
    out->files[out->n - 1]->runtime = true;
    sb_printf(sb, "/* Generated by imcl " IMCL_VERSION_STRING ": %s, the same for every kernel.\n"
                  " * Do not edit: regenerate with imcl instead. This file belongs to you: no licence\n"
                  " * condition of imcl's applies to it. */\n", what);
    sb_puts(sb, text);
}

void host_fail(HostWriter *w, const EmitCtx *e, const char *cond, const char *code, const char *label)
{
    hw_line(w, "if (%s) {", cond);
    hw_inner(w, "imcl_status = %s_%s;", e->host_name, code);
    hw_inner(w, "goto %s;", label);
    hw_line(w, "}");
}

void host_goto_unless_ok(HostWriter *w, const EmitCtx *e, const char *label)
{
    hw_line(w, "if (imcl_status != %s_OK)", e->host_name);
    hw_inner(w, "goto %s;", label);
}

void host_placement_checks_call(HostWriter *w, const EmitCtx *e, const char *device)
{
    hw_line(w, "/* the limits of the placements%s (imcl_check_placements) */", device ? " on this device" : "");
    hw_start(w);
    sb_printf(w->sb, "const int imcl_fits = imcl_check_placements(%s", device ? device : "");
    host_checked_extents(w->sb, e->k, false, device ? ", " : "");
    sb_puts(w->sb, ");\n");
    hw_line(w, "if (imcl_fits != %s_OK)", e->host_name);
    hw_inner(w, "return imcl_fits;");
}

void host_texture_fit(HostWriter *w, const EmitCtx *e, const char *limit, bool cast)
{
    const Function *k = e->k;
    hw_start(w);
    sb_puts(w->sb, "if (");
    bool first = true;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!host_on_texture(s))
            continue;
        int n = type_grid_dims(s->type);
        for (int d = 0; d < n; d++) {
            if (!first) {
                sb_puts(w->sb, " ||");
                hw_break(w);
            }
            first = false;
            sb_printf(w->sb, "%s > %s%dd[%d]", host_storage_extent(e->a, s, d, cast), limit, n, d);
        }
    }
    sb_puts(w->sb, ")\n");
    hw_inner(w, "return %s_ERR_ARGUMENT;", e->host_name);
}

bool host_batchable(const Function *k)
{
    bool any = false;
    for (int i = 0; i < k->nparams; i++)
        if (type_is_grid(k->params[i]->type)) {
            if (!host_on_buffer(k->params[i]))
                return false;
            any = true;
        }
    return any;
}

#define NEXT_BLOCK "imcl_next_block"

/* The first statements of a batchable kernel: the block imcl_b of this work-group
 * (group_z: the launch's z index of the work-group, as the target spells it), the
 * launch's imcl_n-th (imcl_blocks, when not NULL, lists the blocks a launch computes:
 * PK_plan_select), imcl_group_z its z index within the block, and every Image and
 * Block moved to the block's storage. */
static void batch_prologue(StrBuf *sb, const EmitCtx *e, const char *group_z)
{
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "/* the block of a batch this work-group computes (docs/wrappers.md): the work-groups of");
    if (k->grid_dims == 3) {
        int span = tp->block[2] * tp->coarsen[2];
        hw_line(&w, " * the launch's n-th block are imcl_zgroups in z, the next block's follow them, and");
        hw_line(&w, " * each block's arrays lie one storage after the previous block's */");
        if (params_cpu_parts(tp)) /* a plane a group (a row walk), those of the launch */
            hw_line(&w, "const int imcl_zgroups = imcl_to - imcl_from;");
        else
            hw_line(&w, "const int imcl_zgroups = (D + %d) / %d;", span - 1, span);
        hw_line(&w, "const int imcl_n = %s / imcl_zgroups;", group_z);
        hw_line(&w, "const int imcl_b = imcl_blocks ? imcl_blocks[imcl_n] : imcl_n;");
        hw_line(&w, "const int imcl_group_z = %s - imcl_n * imcl_zgroups;", group_z);
    } else {
        hw_line(&w, " * the launch's n-th block are those of index n in z, and each block's arrays lie one");
        hw_line(&w, " * storage after the previous block's */");
        hw_line(&w, "const int imcl_b = imcl_blocks ? imcl_blocks[%s] : %s;", group_z, group_z);
    }
    host_batch_advance(&w, e, "imcl_b", "+=");
}

/* With batch_loop 1, instead: a loop over the imcl_count blocks around the kernel's
 * body, which the unparser prints two levels deep with its returns as gotos to
 * NEXT_BLOCK (Unparser.return_label); batch_loop_end closes it (with that label
 * where the body returns), moving every Image and Block back to block 0's storage.
 * imcl_group_z is the launch's z group. */
static void batch_loop_begin(StrBuf *sb, const EmitCtx *e, const char *group_z)
{
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "/* the blocks of a batch one after the other (%s, docs/wrappers.md): each", PARAM_NAME(batch_loop));
    hw_line(&w, " * work-item computes its points of every block the launch lists, and each block's");
    hw_line(&w, " * arrays lie one storage after the previous block's */");
    if (e->k->grid_dims == 3)
        hw_line(&w, "const int imcl_group_z = %s;", group_z);
    hw_line(&w, "for (int imcl_n = 0; imcl_n < imcl_count; imcl_n++) {");
    w.indent++;
    hw_line(&w, "const int imcl_b = imcl_blocks ? imcl_blocks[imcl_n] : imcl_n;");
    host_batch_advance(&w, e, "imcl_b", "+=");
    /* (the body's own block: a return, now a goto, leaves its scope, never enters one) */
    hw_line(&w, "{");
}

static void batch_loop_end(StrBuf *sb, const EmitCtx *e, bool label)
{
    HostWriter w = host_writer(sb, 2);
    hw_line(&w, "}");
    if (label)
        sb_puts(sb, NEXT_BLOCK ":;\n");
    host_batch_advance(&w, e, "imcl_b", "-=");
    w.indent--;
    hw_line(&w, "}");
}

const char *host_batch_count(const Function *k, const char *count)
{
    return host_batchable(k) ? count : "1";
}

void host_kernel_body(Unparser *u, const EmitCtx *e, const char *group_z)
{
    u->batch = host_batchable(e->k);
    bool loop = u->batch && e->tp->batch_loop;
    if (loop)
        batch_loop_begin(u->out, e, group_z);
    else if (u->batch)
        batch_prologue(u->out, e, group_z);
    u->indent = loop ? 3 : 1;
    u->return_label = loop ? NEXT_BLOCK : NULL;
    unparse_stmts(u, e->k->body);
    if (loop)
        batch_loop_end(u->out, e, ast_has_return(e->k->body));
    u->indent = 0;
    u->batch = false;
    u->return_label = NULL;
}

void host_batch_advance(HostWriter *w, const EmitCtx *e, const char *blocks, const char *op)
{
    const Function *k = e->k;
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (!type_is_grid(s->type) || !ast_uses_symbol(k->body, s))
            continue;
        /* (the storage of one block has fewer than 2^31 elements: PK's checks) */
        hw_start(w);
        sb_printf(w->sb, "%s %s %s * (size_t)(", unparse_name(s), op, blocks);
        for (int d = 0; d < type_grid_dims(s->type); d++)
            sb_printf(w->sb, "%s%s", d ? " * " : "", host_storage_extent(e->a, s, d, false));
        sb_puts(w->sb, ");\n");
    }
}

void host_bytes(StrBuf *sb, const Symbol *s)
{
    host_elems(sb, s);
    sb_printf(sb, " * sizeof(%s)", unparse_c_type(s->type->elem->kind));
}

void host_bytes_decl(HostWriter *w, const Symbol *s)
{
    hw_start(w);
    sb_printf(w->sb, "const size_t imcl_%s_bytes = ", unparse_name(s));
    host_bytes(w->sb, s);
    sb_puts(w->sb, ";\n");
}

void host_wrapper_begin(StrBuf *sb, const EmitCtx *e)
{
    sb_printf(sb, "int %s(", e->host_name);
    host_param_list(sb, e->k);
    sb_puts(sb, ")\n{\n");
}

void host_wrapper_grid(HostWriter *w, const EmitCtx *e, bool empty_returns)
{
    host_check_args(w, e->k, arena_printf(e->a, "%s_ERR_ARGUMENT", e->host_name));
    host_grid_extent(w, e->k);
    if (!empty_returns)
        return;
    hw_line(w, "if (W < 1 || H < 1 || D < 1)");
    hw_inner(w, "return %s_OK; /* an empty grid: nothing to do */", e->host_name);
}
