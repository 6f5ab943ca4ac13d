#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ---------------------------------------------------------------- */

typedef struct Chunk {
    struct Chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char mem[];
} Chunk;

struct Arena {
    Chunk *head;
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("imcl: fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

Arena *arena_new(void)
{
    Arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    return a;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->used + size > c->size) {
        size_t csize = size > 65536 ? size : 65536;
        c = xmalloc(sizeof(Chunk) + csize);
        c->size = csize;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->mem + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

void *arena_grow(Arena *a, void *items, int n, int *cap, size_t elem)
{
    if (n < *cap)
        return items;
    int grown = *cap ? 2 * *cap : elem > 256 ? 4 : 16; /* large items: a smaller start */
    void *p = arena_alloc(a, elem * (size_t)grown);
    if (n)
        memcpy(p, items, elem * (size_t)n);
    *cap = grown;
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    StrBuf sb = {0};
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    char *p = arena_strndup(a, sb_str(&sb), sb.len);
    sb_free(&sb);
    return p;
}

/* ---- growable strings ----------------------------------------------------- */

static void sb_grow(StrBuf *sb, size_t extra)
{
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        fputs("imcl: fatal: out of memory\n", stderr);
        abort();
    }
    sb->data = p;
    sb->cap = cap;
}

/* Room for extra more characters and the NUL (the test inline: compile speed). */
static inline void sb_reserve(StrBuf *sb, size_t extra)
{
    if (sb->len + extra + 1 > sb->cap)
        sb_grow(sb, extra);
}

void sb_putc(StrBuf *sb, char c)
{
    sb_reserve(sb, 1);
    sb->data[sb->len++] = c;
    sb->data[sb->len] = 0;
}

void sb_puts(StrBuf *sb, const char *s)
{
    sb_putn(sb, s, strlen(s));
}

void sb_putn(StrBuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

/* Whether fmt has no conversions but %s, %d, %c and %%: most of what the backends
 * print, formatted here without vsnprintf (compile speed). */
static bool simple_format(const char *fmt)
{
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p + 2, '%'))
        if (p[1] != 's' && p[1] != 'd' && p[1] != 'c' && p[1] != '%')
            return false;
    return true;
}

static void sb_simple_printf(StrBuf *sb, const char *fmt, va_list ap)
{
    for (const char *p = fmt;;) {
        const char *q = strchr(p, '%');
        sb_putn(sb, p, q ? (size_t)(q - p) : strlen(p));
        if (!q)
            return;
        switch (q[1]) {
        case 's': {
            const char *a = va_arg(ap, const char *);
            sb_puts(sb, a ? a : "(null)"); /* as glibc prints it */
            break;
        }
        case 'd': {
            long long v = va_arg(ap, int);
            char buf[24], *e = buf + sizeof buf, *d = e;
            unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            do
                *--d = (char)('0' + m % 10);
            while (m /= 10);
            if (v < 0)
                *--d = '-';
            sb_putn(sb, d, (size_t)(e - d));
            break;
        }
        case 'c':
            sb_putc(sb, (char)va_arg(ap, int));
            break;
        default:
            sb_putc(sb, '%');
            break;
        }
        p = q + 2;
    }
}

void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap)
{
    if (simple_format(fmt)) {
        sb_reserve(sb, 0); /* the text ends in a NUL even when nothing is added */
        sb_simple_printf(sb, fmt, ap);
        return;
    }
    /* Formatted straight into the free space; a second try only when it did not fit
     * (compile speed: most pieces are short). */
    sb_reserve(sb, 128);
    size_t room = sb->cap - sb->len;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(sb->data + sb->len, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        sb->data[sb->len] = 0;
        return;
    }
    if ((size_t)n >= room) {
        sb_reserve(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    }
    sb->len += (size_t)n;
}

bool sb_read_file(StrBuf *sb, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(sb, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

void sb_printf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void sb_free(StrBuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

const char *sb_str(StrBuf *sb)
{
    return sb->data ? sb->data : "";
}

/* ---- diagnostics ---------------------------------------------------------- */

typedef struct SourceCache {
    struct SourceCache *next;
    const char *file;
    const char *text; /* NULL: could not be read */
} SourceCache;

void diag_init(Diag *d, Arena *arena, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->out = out;
    d->arena = arena;
    d->max_errors = 50;
}

void diag_add_source(Diag *d, const char *file, const char *text)
{
    SourceCache *c = ARENA_NEW(d->arena, SourceCache);
    c->file = arena_strdup(d->arena, file);
    c->text = text ? arena_strdup(d->arena, text) : NULL;
    c->next = d->cache;
    d->cache = c;
}

static const char *source_text(Diag *d, const char *file)
{
    for (SourceCache *c = d->cache; c; c = c->next)
        if (strcmp(c->file, file) == 0)
            return c->text;
    /* A file named by a preprocessor line marker (an #include): read it once. */
    char *text = NULL;
    FILE *f = fopen(file, "rb");
    if (f) {
        StrBuf sb = {0};
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0 && sb.len < (1u << 24))
            for (size_t i = 0; i < n; i++)
                sb_putc(&sb, buf[i]);
        fclose(f);
        text = arena_strdup(d->arena, sb_str(&sb));
        sb_free(&sb);
    }
    diag_add_source(d, file, text);
    return d->cache->text;
}

/* Prints the source line of loc and a caret under its column. Tabs are kept so
 * that the caret lines up in a terminal; other control bytes print as '?'. */
static void print_source_line(Diag *d, Loc loc)
{
    if (!loc.file || loc.line <= 0)
        return;
    const char *text = source_text(d, loc.file);
    if (!text)
        return;
    const char *p = text;
    for (int l = 1; l < loc.line && *p; p++)
        if (*p == '\n')
            l++;
    if (!*p && loc.line > 1 && p > text && p[-1] == '\n')
        return;
    const char *end = p;
    while (*end && *end != '\n')
        end++;
    if (end > p && end[-1] == '\r')
        end--;
    /* Nothing to show: an empty file, or a column beyond what is printed. */
    if (end == p && !*end)
        return;
    if (end - p > 400) {
        if (loc.col > 400)
            return;
        end = p + 400;
    }
    fputc(' ', d->out);
    for (const char *q = p; q < end; q++) {
        unsigned char c = (unsigned char)*q;
        fputc(c == '\t' || (c >= 32 && c < 127) || c >= 128 ? (char)c : '?', d->out);
    }
    fputc('\n', d->out);
    if (loc.col <= 0)
        return;
    fputc(' ', d->out);
    for (int i = 1; i < loc.col && p + i - 1 < end; i++)
        fputc(p[i - 1] == '\t' ? '\t' : ' ', d->out);
    fputs("^\n", d->out);
}

static void vreport(Diag *d, Loc loc, const char *kind, const char *fmt, va_list ap)
{
    if (!d->out)
        return;
    if (loc.file && loc.line > 0) {
        if (loc.col > 0)
            fprintf(d->out, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, kind);
        else
            fprintf(d->out, "%s:%d: %s: ", loc.file, loc.line, kind);
    } else {
        fprintf(d->out, "imcl: %s: ", kind);
    }
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    print_source_line(d, loc);
}

static void report(Diag *d, Loc loc, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, loc, kind, fmt, ap);
    va_end(ap);
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
    d->errors++;
    if (d->max_errors && d->errors > d->max_errors) {
        if (d->errors == d->max_errors + 1 && d->out)
            fprintf(d->out, "imcl: too many errors, stopping\n");
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vreport(d, loc, "error", fmt, ap);
    va_end(ap);
}

void diag_internal(Diag *d, Loc loc, const char *fmt, ...)
{
    d->errors++;
    d->internal++;
    StrBuf msg = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&msg, fmt, ap);
    va_end(ap);
    report(d, loc, "error", "internal error: %s (a bug in imcl: please report it)", sb_str(&msg));
    sb_free(&msg);
}

void diag_warning(Diag *d, Loc loc, const char *fmt, ...)
{
    d->warnings++;
    va_list ap;
    va_start(ap, fmt);
    vreport(d, loc, "warning", fmt, ap);
    va_end(ap);
}

void diag_note(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, loc, "note", fmt, ap);
    va_end(ap);
}

void diag_plain_error(Diag *d, const char *fmt, ...)
{
    if (!d->out) {
        d->errors++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    if (d->locate) {
        StrBuf msg = {0};
        sb_vprintf(&msg, fmt, ap);
        va_end(ap);
        Loc loc = d->locate(d->locate_ctx, sb_str(&msg));
        if (loc.file) {
            diag_error(d, loc, "%s", sb_str(&msg));
        } else {
            d->errors++;
            fprintf(d->out, "imcl: error: %s\n", sb_str(&msg));
        }
        sb_free(&msg);
        return;
    }
    d->errors++;
    fputs("imcl: error: ", d->out);
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    va_end(ap);
}

_Noreturn void imcl_unreachable(const char *file, int line)
{
    fprintf(stderr, "imcl: internal compiler error at %s:%d\n", file, line);
    abort();
}
