/* The frontend: preprocessing, lexing and parsing into an AST, then semantic
 * analysis (name resolution, types, language rules). */
#ifndef IMCL_FRONTEND_H
#define IMCL_FRONTEND_H

/* The largest source (before and after preprocessing) imcl reads, in bytes. */
#define FRONTEND_MAX_SOURCE (256 * 1024)

#include "ast.h"

/* Reads `path`, runs the C preprocessor when the file has directives other than
 * `#pragma`, and parses it. Returns NULL only when the file cannot be read;
 * syntax errors are counted in diag and the partial program is returned. */
Program *frontend_parse_file(Arena *a, Diag *diag, const char *path);

/* The same for the text of a file already in memory (`len` bytes; the library,
 * libimcl): `path` names it in diagnostics and locations, and when it needs the
 * preprocessor, cpp reads the text from its standard input after a line marker that
 * names `path`, quoted includes looked for beside `path`. */
Program *frontend_parse_source(Arena *a, Diag *diag, const char *path, const char *text, size_t len);

/* Parses source text already in memory (no preprocessing). */
Program *frontend_parse_text(Arena *a, Diag *diag, const char *file, const char *text);

/* Resolves names and types and checks the language rules of every function.
 * Returns the number of errors it reported. */
int sema_program(Program *p, Diag *diag);

/* Runs the C preprocessor on `text` (the contents of `path`: cpp reads the file itself
 * when on_disk, else the text). Returns the output in *out (a heap string owned by the
 * caller) and true, or reports and returns false. */
bool preprocess_run(Diag *diag, const char *path, const char *text, bool on_disk, StrBuf *out);
bool preprocess_needed(const char *text);

#endif
