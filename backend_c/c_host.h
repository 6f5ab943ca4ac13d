/* What the C reference's wrapper (backend_c.c) takes from its persistent plan
 * (plan_c.c). Private to backend_c/. */
#ifndef IMCL_C_HOST_H
#define IMCL_C_HOST_H

#include "host.h"

/* The plan API of the C reference (docs/wrappers.md): plans over host buffers,
 * appended to K_ref.c. */
void plan_c_emit(StrBuf *sb, const EmitCtx *e);

#endif
