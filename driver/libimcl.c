/* libimcl (imcl.h): the pipeline of driver.c behind a C API. A unit holds one source
 * parsed, checked and analysed in its own arena; each configuration is generated in
 * an arena of its own, freed before imcl_generate returns (the files are heap text,
 * freed with the result). Diagnostics go to memory streams, never to stderr. */
#include "imcl.h"

#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "emit.h"
#include "params.h"

#define IMCL_EXPORT __attribute__((visibility("default")))

struct imcl_unit {
    Arena *a;
    Diag diag;          /* its source cache serves every configuration */
    DriverOptions o;    /* the options of imcl_open; backends are set per call */
    DriverUnit unit;
    bool from_file;     /* opened with source NULL: read from o.input */
    const char *source; /* else the text (in a) */
    int status;
    char *load_text;    /* diagnostics of reading and checking the source (heap) */
};

struct imcl_result {
    int status;
    char *diagnostics; /* heap */
    Outputs out;
};

/* A memory stream, and what it holds once closed. */
typedef struct Mem {
    FILE *f;
    char *text;
    size_t len;
} Mem;

static bool mem_open(Mem *m)
{
    m->text = NULL;
    m->len = 0;
    m->f = open_memstream(&m->text, &m->len);
    return m->f != NULL;
}

static char *mem_close(Mem *m)
{
    fclose(m->f);
    m->f = NULL;
    return m->text;
}

static char *heap_strdup(const char *s)
{
    return strdup(s ? s : "");
}

IMCL_EXPORT const char *imcl_version(void)
{
    return IMCL_VERSION_STRING;
}

/* The options of imcl_open (a JSON object) into u->o; reports and returns false. */
static bool load_options(imcl_unit *u, const char *options)
{
    if (!options || !options[strspn(options, " \t\r\n")])
        return true;
    cJSON *root = cJSON_Parse(options);
    if (!root || !cJSON_IsObject(root)) {
        diag_plain_error(&u->diag, "options: expected a JSON object");
        cJSON_Delete(root);
        return false;
    }
    bool ok = true;
    for (cJSON *it = root->child; ok && it; it = it->next) {
        const char *name = it->string ? it->string : "";
        if (strcmp(name, "kernel") == 0 && cJSON_IsString(it)) {
            u->o.kernel = arena_strdup(u->a, it->valuestring);
        } else if (strcmp(name, "prefix") == 0 && cJSON_IsString(it)) {
            u->o.prefix = arena_strdup(u->a, it->valuestring);
        } else if (strcmp(name, "size") == 0 && (cJSON_IsString(it) || cJSON_IsArray(it))) {
            char text[128] = "";
            if (cJSON_IsString(it)) {
                snprintf(text, sizeof text, "%s", it->valuestring);
            } else {
                size_t n = 0;
                for (cJSON *e = it->child; e && n < sizeof text - 32; e = e->next)
                    n += (size_t)snprintf(text + n, sizeof text - n, "%s%lld", n ? "x" : "",
                                          cJSON_IsNumber(e) && e->valuedouble > -1e15 && e->valuedouble < 1e15
                                              ? (long long)e->valuedouble : -1LL);
            }
            if (!driver_parse_size(&u->o, text)) {
                diag_plain_error(&u->diag, "malformed --size '%s' (expected X, XxY or XxYxZ with positive integers)", text);
                ok = false;
            }
        } else if (strcmp(name, "shared_limit") == 0 && cJSON_IsNumber(it)) {
            double v = it->valuedouble;
            if (!(v >= 1 && v <= (double)(1LL << 40)) || v != (double)(long long)v) {
                diag_plain_error(&u->diag, "malformed --shared-limit '%g' (expected a positive number of bytes)", v);
                ok = false;
            } else {
                u->o.shared_limit = (long long)v;
            }
        } else {
            diag_plain_error(&u->diag, "options: unknown option or value '%s' (expected \"kernel\", \"size\", \"shared_limit\" or \"prefix\")", name);
            ok = false;
        }
    }
    cJSON_Delete(root);
    return ok;
}

IMCL_EXPORT imcl_unit *imcl_open(const char *path, const char *source, const char *options)
{
    imcl_unit *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->a = arena_new();
    Mem m;
    if (!mem_open(&m)) {
        arena_free(u->a);
        free(u);
        return NULL;
    }
    diag_init(&u->diag, u->a, m.f);
    driver_options_init(&u->o);
    u->o.input = arena_strdup(u->a, path && *path ? path : "<source>");
    u->from_file = !source;
    u->source = source ? arena_strdup(u->a, source) : NULL;
    if (!path && !source) {
        diag_plain_error(&u->diag, "no input file");
        u->status = 2;
    } else if (!load_options(u, options)) {
        u->status = 2;
    } else {
        u->status = driver_load(u->a, &u->diag, &u->o, u->source, source ? strlen(source) : 0, &u->unit);
        if (u->status == 0 && u->diag.errors)
            u->status = 1;
    }
    u->load_text = mem_close(&m);
    u->diag.out = NULL;
    return u;
}

IMCL_EXPORT int imcl_unit_status(const imcl_unit *u)
{
    return u ? u->status : 2;
}

IMCL_EXPORT const char *imcl_unit_diagnostics(const imcl_unit *u)
{
    return u && u->load_text ? u->load_text : "";
}

IMCL_EXPORT void imcl_close(imcl_unit *u)
{
    if (!u)
        return;
    arena_free(u->a);
    free(u->load_text);
    free(u);
}

/* The backends named in `list` into o->backends; reports and returns false. */
static bool set_backends(DriverOptions *o, const char *list, Diag *d)
{
    o->backends = 0;
    if (!list)
        return true;
    const char *p = list;
    while (*p) {
        size_t skip = strspn(p, ", \t");
        p += skip;
        size_t n = strcspn(p, ", \t");
        if (!n)
            break;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), p);
        if (n >= sizeof name || !driver_add_backend(o, name)) {
            StrBuf sb = {0};
            for (int i = 0; i < driver_nbackends; i++)
                sb_printf(&sb, "%s%s", i == 0 ? "" : i + 1 < driver_nbackends ? ", " : " or ", driver_backends[i]->name);
            diag_plain_error(d, "unknown backend '%.*s' (expected %s)", (int)n, p, sb_str(&sb));
            sb_free(&sb);
            return false;
        }
        p += n;
    }
    return true;
}

/* A result that holds the unit's failure. */
static imcl_result *unit_failure(const imcl_unit *u, imcl_result *r)
{
    r->status = u->status;
    r->diagnostics = heap_strdup(u->load_text);
    return r;
}

IMCL_EXPORT imcl_result *imcl_generate(imcl_unit *u, const char *config, const char *backends)
{
    if (!u)
        return NULL;
    imcl_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (u->status)
        return unit_failure(u, r);
    Mem m;
    if (!mem_open(&m)) {
        free(r);
        return NULL;
    }
    Arena *a = arena_new();
    Diag d = u->diag; /* the unit's source cache, an error count of its own */
    d.out = m.f;
    d.arena = a;
    d.errors = d.warnings = 0;
    DriverOptions o = u->o;
    TuneParams given;
    params_init(&given);
    /* As imcl does: a bad backend or configuration is reported before the source. */
    if (!set_backends(&o, backends, &d))
        r->status = 2;
    else if (config && config[strspn(config, " \t\r\n")] && !params_load_text(&given, "<config>", config, a, &d))
        r->status = 2;
    if (!r->status) {
        fputs(u->load_text, m.f);
        r->status = driver_generate(a, &d, &o, &u->unit, &given, &r->out);
    }
    if (r->status)
        outputs_free(&r->out);
    arena_free(a);
    r->diagnostics = mem_close(&m);
    return r;
}

IMCL_EXPORT imcl_result *imcl_dump_space(imcl_unit *u, const char *format, const char *backend)
{
    if (!u)
        return NULL;
    imcl_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (u->status)
        return unit_failure(u, r);
    Mem m;
    if (!mem_open(&m)) {
        free(r);
        return NULL;
    }
    Arena *a = arena_new();
    Diag d;
    diag_init(&d, a, m.f);
    DriverOptions o = u->o;
    o.dump_space = true;
    o.dump_format = format ? format : "imcl";
    if (strcmp(o.dump_format, "imcl") != 0 && strcmp(o.dump_format, "t1") != 0) {
        diag_plain_error(&d, "unknown space format '%s' (expected imcl or t1)", o.dump_format);
        r->status = 2;
    } else if (!set_backends(&o, backend, &d)) {
        r->status = 2;
    } else {
        /* The placements of earlier configurations are on the unit's symbols: the dump
         * reads the source again, as imcl --dump-space does. */
        Mem quiet;
        DriverUnit unit;
        if (mem_open(&quiet)) {
            d.out = quiet.f;
            r->status = driver_load(a, &d, &o, u->source, u->source ? strlen(u->source) : 0, &unit);
            free(mem_close(&quiet));
            d.out = m.f;
        } else {
            r->status = 2;
        }
        if (!r->status) {
            fputs(u->load_text, m.f);
            Mem doc;
            if (mem_open(&doc)) {
                r->status = driver_dump_space(doc.f, a, &d, &o, &unit);
                mem_close(&doc);
                if (!r->status)
                    sb_putn(outputs_add(&r->out, "space.json"), doc.text ? doc.text : "", doc.len);
                free(doc.text);
            } else {
                r->status = 2;
            }
        }
    }
    arena_free(a);
    r->diagnostics = mem_close(&m);
    return r;
}

IMCL_EXPORT int imcl_result_status(const imcl_result *r)
{
    return r ? r->status : 2;
}

IMCL_EXPORT const char *imcl_result_diagnostics(const imcl_result *r)
{
    return r && r->diagnostics ? r->diagnostics : "";
}

IMCL_EXPORT int imcl_result_count(const imcl_result *r)
{
    return r ? r->out.n : 0;
}

IMCL_EXPORT const char *imcl_result_name(const imcl_result *r, int i)
{
    return r && i >= 0 && i < r->out.n ? r->out.files[i]->name : NULL;
}

IMCL_EXPORT const char *imcl_result_text(const imcl_result *r, int i)
{
    if (!r || i < 0 || i >= r->out.n)
        return NULL;
    const char *t = r->out.files[i]->text.data;
    return t ? t : "";
}

IMCL_EXPORT size_t imcl_result_length(const imcl_result *r, int i)
{
    return r && i >= 0 && i < r->out.n ? r->out.files[i]->text.len : 0;
}

IMCL_EXPORT const char *imcl_result_file(const imcl_result *r, const char *name)
{
    for (int i = 0; r && name && i < r->out.n; i++)
        if (strcmp(r->out.files[i]->name, name) == 0)
            return imcl_result_text(r, i);
    return NULL;
}

IMCL_EXPORT void imcl_result_free(imcl_result *r)
{
    if (!r)
        return;
    outputs_free(&r->out);
    free(r->diagnostics);
    free(r);
}
