/* libimcl: the imcl compiler as a library (libimcl.so, driver/libimcl.c).
 *
 * A unit is one source file parsed, checked and analysed once; each call of
 * imcl_generate runs the passes and the backends for one configuration on it and
 * hands back the generated files in memory, the same bytes the imcl executable
 * writes for `imcl -t CONFIG -b BACKEND ... FILE`, and the diagnostics it prints.
 *
 *     imcl_unit *u = imcl_open("sum7.imcl", NULL, "{\"size\": \"64x64x64\"}");
 *     if (imcl_unit_status(u) != 0) { fputs(imcl_unit_diagnostics(u), stderr); ... }
 *     imcl_result *r = imcl_generate(u, "{\"block_size_x\": 16}", "opencl");
 *     if (imcl_result_status(r) == 0)
 *         puts(imcl_result_file(r, "sum7.cl"));
 *     imcl_result_free(r);
 *     imcl_close(u);
 *
 * Nothing exits the process and nothing is printed: every error is a diagnostic in
 * the text a unit or result holds. Every call is independent of the ones before it
 * (each configuration is generated in memory of its own, freed with its result), so
 * a process may generate any number of configurations. The library is not
 * thread-safe: call it from one thread at a time. */
#ifndef IMCL_H
#define IMCL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct imcl_unit imcl_unit;
typedef struct imcl_result imcl_result;

/* "0.1.0": the version of the compiler (imcl --version). */
const char *imcl_version(void);

/* Reads and checks a source file: `source` is its text (NUL-terminated), or NULL to
 * read the file `path`; `path` names it in diagnostics either way. `options` is NULL
 * or a JSON object of the command line's options that hold for every configuration:
 *   "kernel": "name"        -k: only this kernel of the file
 *   "size": "64x64x64"      --size (or [64, 64, 64])
 *   "shared_limit": 49152   --shared-limit
 *   "prefix": "p_"          --prefix
 * Returns a unit (NULL only when out of memory); imcl_unit_status says whether it
 * can be used: 0, or the exit status imcl would have (1 or 2), the reason in
 * imcl_unit_diagnostics. Close it with imcl_close. */
imcl_unit *imcl_open(const char *path, const char *source, const char *options);
int imcl_unit_status(const imcl_unit *u);
/* The warnings and errors of reading and checking the source ("" when none). */
const char *imcl_unit_diagnostics(const imcl_unit *u);
void imcl_close(imcl_unit *u);

/* One configuration: `config` is a flat JSON object as `imcl -t` reads it (NULL or ""
 * for no parameters: the defaults), `backends` one backend name or several separated
 * by commas or spaces ("opencl", "cuda,c"; NULL or "" for the default backend, cuda).
 * The result holds the files (when its status is 0) and the diagnostics: the unit's,
 * then the configuration's, as imcl prints them. NULL only when u is NULL or out of
 * memory. */
imcl_result *imcl_generate(imcl_unit *u, const char *config, const char *backends);

/* --dump-space=FORMAT ("imcl" or "t1"; NULL: "imcl") for `backend` (as above, the
 * first one counts): a result with one file, "space.json", the document imcl prints;
 * status 2 and no file where imcl refuses (a T1 document for a grid_size kernel). */
imcl_result *imcl_dump_space(imcl_unit *u, const char *format, const char *backend);

/* 0 when the files were generated, else imcl's exit status (1 or 2; 3 after an internal
 * error, a bug in imcl). */
int imcl_result_status(const imcl_result *r);
/* Everything imcl would have printed on stderr ("" when nothing). */
const char *imcl_result_diagnostics(const imcl_result *r);
/* The files, in the order imcl writes them: name and text (NUL-terminated; length
 * in bytes), for i from 0 to imcl_result_count - 1. */
int imcl_result_count(const imcl_result *r);
const char *imcl_result_name(const imcl_result *r, int i);
const char *imcl_result_text(const imcl_result *r, int i);
size_t imcl_result_length(const imcl_result *r, int i);
/* The text of the file named `name`, or NULL. */
const char *imcl_result_file(const imcl_result *r, const char *name);
void imcl_result_free(imcl_result *r);

#ifdef __cplusplus
}
#endif

#endif
