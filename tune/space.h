/* The tuning space of a kernel (docs/tuning.md, "The imcl format") and the footprint table. */
#ifndef IMCL_SPACE_H
#define IMCL_SPACE_H

#include <stdio.h>

#include "placement.h"

/* The imcl JSON space of kernel k (cJSON_Delete it). */
struct cJSON *space_json_doc(Arena *a, Function *k, const SpaceOptions *o);
/* Prints the imcl JSON space of each kernel (an object for one kernel, an array
 * of objects for several). */
void space_dump_imcl(FILE *out, Arena *a, Function **kernels, int n, const SpaceOptions *o);
/* Prints the T1 tuning-space JSON (Kernel Tuner's tune_kernel_T1, KTT, BAT). A
 * grid_size kernel has none: false after an error in diag, nothing printed. */
bool space_dump_t1(FILE *out, Arena *a, Diag *diag, Function **kernels, int n, const SpaceOptions *o);
/* Prints the footprint table of every array of kernel k. */
void space_print_footprint(FILE *out, Arena *a, Function *k);

#endif
