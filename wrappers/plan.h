/* Persistent plans (SPEC section 7, docs/wrappers.md): the plan API's
 * declarations in K.h and the pieces every backend's plan generator shares
 * (wrappers/plan.c). */
#ifndef IMCL_PLAN_H
#define IMCL_PLAN_H

#include "emit.h"

/* PK_plan_create / _upload_<a> / _download_<a> / _launch / _swap / _kernel_ms /
 * _destroy. Each backend appends its part to its host file with one call
 * (backend_c/plan_c.c, backend_cuda/plan_cuda.c, backend_opencl/plan_opencl.c). */

/* The declarations of the plan API in K.h. */
void plan_header_emit(StrBuf *h, const EmitCtx *e);

/* Shared pieces of the generators. */
typedef enum PlanFn {
    PLAN_CREATE, PLAN_UPLOAD, PLAN_DOWNLOAD, PLAN_LAUNCH, PLAN_SWAP, PLAN_KERNEL_MS, PLAN_DESTROY
} PlanFn;
/* The array parameters in declaration order (their plan ids); returns the count. */
int plan_arrays(const Function *k, const Symbol **out);
/* A struct member `    decl;` with its comment aligned. */
void plan_member(StrBuf *sb, const char *decl, const char *comment);
/* Name of the plan parameter of launch: `plan`, or `imcl_plan` if a scalar is `plan`. */
const char *plan_handle(const Function *k);
/* The head of a plan function, without `;` or body (s: the array of upload/download). */
void plan_signature(StrBuf *sb, const EmitCtx *e, PlanFn fn, const Symbol *s);
/* In plan_create: returns PK_ERR_ARGUMENT on extents below 1, arrays of more than
 * 2^31-1 elements, or grid arrays of different extents. */
void plan_create_checks(StrBuf *sb, const EmitCtx *e, int indent);
/* In plan_create: fills p->extent[][] and p->bytes[] from the parameters. */
void plan_record_sizes(StrBuf *sb, const EmitCtx *e, const char *p, int indent);
/* In launch: `const int a_width = plan->extent[i][0];` for every grid array. */
void plan_extent_locals(StrBuf *sb, const EmitCtx *e, int indent);
/* The kernel's arguments in public order, each array as buffer_fmt printed with
 * (element C type, plan handle name, array id), followed by its extents. */
void plan_array_args(StrBuf *sb, const EmitCtx *e, const char *buffer_fmt);
/* A member `type member[n]` of the plan struct that PK_plan_swap exchanges. */
typedef struct PlanSwapped {
    const char *type;
    const char *member;
} PlanSwapped;
/* PK_plan_swap (exchanging each of the members; refusing arrays of different
 * element type, dimensions, halo, extents or placement, and arrays in constant
 * memory) and PK_plan_kernel_ms. */
void plan_swap_and_time(StrBuf *sb, const EmitCtx *e, const PlanSwapped *members, int nmembers);

#endif
