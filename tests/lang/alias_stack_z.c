/* Oracle driver of tests/lang/alias_stack_z.imcl: astack3 of alias_stack.c alone,
 * under the z-window configurations (stream_z) that a 2D kernel would refuse. */
#define ASTACK_3D_ONLY
#include "alias_stack.c"
