/* Arena allocation, growable strings and diagnostics shared by every stage.
 *
 * One Arena lives for one compilation: every AST node, symbol, type and string is
 * allocated from it and freed with it (no per-node free). Diagnostics are counted
 * and printed in the `file:line:col: error: message` convention, followed by the
 * source line and a caret. */
#ifndef IMCL_SUPPORT_H
#define IMCL_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Loc {
    const char *file; /* arena string; NULL for compiler-made nodes */
    int line;         /* 1-based; 0 when unknown */
    int col;          /* 1-based; 0 when unknown */
} Loc;

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);          /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
/* An arena array with room for one more element: `items` (n used, *cap slots of
 * `elem` bytes) itself, or a copy twice as large. */
void *arena_grow(Arena *a, void *items, int n, int *cap, size_t elem);
#define ARENA_GROW(a, items, n, cap) ((items) = arena_grow((a), (items), (n), &(cap), sizeof *(items)))

/* A growable heap string: the only heap memory outside arenas; free with sb_free. */
typedef struct StrBuf {
    char *data;
    size_t len, cap;
} StrBuf;

void sb_putc(StrBuf *sb, char c);
void sb_puts(StrBuf *sb, const char *s);
void sb_putn(StrBuf *sb, const char *s, size_t n); /* the first n bytes of s */
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
/* Appends the bytes of file `path`; false (errno says why) when it cannot be read. */
bool sb_read_file(StrBuf *sb, const char *path);
void sb_free(StrBuf *sb);
const char *sb_str(StrBuf *sb); /* never NULL */

/* Diagnostics: one Diag per compilation. Source text of the main file and of any
 * file named by a line marker is looked up to print the offending line. */
typedef struct Diag {
    FILE *out;
    int errors;
    int warnings;
    int internal;     /* of the errors, internal errors (diag_internal) */
    int max_errors;   /* stop printing after this many (0: unlimited) */
    Arena *arena;
    struct SourceCache *cache;
    /* When set, a diag_plain_error message is reported where locate puts it (a
     * recipe's line for the parameter it names: tune/recipe.c); a Loc without a file
     * keeps it plain. */
    Loc (*locate)(void *ctx, const char *message);
    void *locate_ctx;
} Diag;

/* out NULL: a quiet Diag that counts the errors and prints nothing. */
void diag_init(Diag *d, Arena *arena, FILE *out);
void diag_add_source(Diag *d, const char *file, const char *text); /* text is copied */
void diag_error(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An internal error: a broken invariant of imcl's own (a bug, never the user's), as
 * an error "internal error: ...", counted in errors and internal; the driver exits
 * with status 3 after one (README.md, "Using imcl"; imcl(1); docs/testing.md). */
void diag_internal(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An error without a source location (usage, parameters, I/O): "imcl: error: ..." */
void diag_plain_error(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Internal compiler error: a bug in imcl, never a user error. Prints file and line
 * and aborts; the only abnormal exit in the library. */
#define UNREACHABLE() imcl_unreachable(__FILE__, __LINE__)
_Noreturn void imcl_unreachable(const char *file, int line);

#endif
