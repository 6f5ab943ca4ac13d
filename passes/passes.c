/* The pass table: every pass in pipeline order, with why that order. */
#include "passes.h"

#include <string.h>

/* Ordering constraints (where each pass puts its code is the point loop's business:
 * AST_POINTS in ast/ast.h, lowered by thread_mapping):
 * - accumulate first, before every pass that places or lowers arrays: they then
 *   see one store of the element it keeps in a local.
 * - texture_memory, shared_memory, register_cache and stream_z before global_memory,
 *   which lowers what they leave as grid accesses (their loads) and linearizes the
 *   rest; texture_memory first of them, so that no other sees a texture read.
 * - stream_z after shared_memory (a tiled array is never also streamed) and before
 *   interior, whose copy proves its window loads in range.
 * - interior after shared_memory (tile reads need no guard) and before
 *   global_memory, which lowers the interior copy without the guards it proved away.
 * - unroll after global_memory: the footprint that decides the guards is found
 *   over the loops as written, and the guards are copied with the body.
 * - thread_mapping last: the guards read the idx/idy/idz built-ins, which it turns
 *   into locals, and it turns imcl_interior into a test of the block.
 * - no pass here removes dead code: the driver does, once, before every analysis
 *   (dead_code_program in driver_load), so that the access analysis, the
 *   footprints, the space and -t see the kernel as the passes get it.
 * The driver runs analyze_access first: the lowering drops grid accesses. */
const Pass pass_table[] = {
    {"accumulate", pass_accumulate, false, false, "an element updated again and again kept in a local"},
    {"texture_memory", pass_texture_memory, true, false, "reads of texture arrays become texture reads"},
    {"shared_memory", pass_shared_memory, true, false, "shared-memory tiles, their loads and reads"},
    {"register_cache", pass_register_cache, true, false, "arrays in registers of a warp, read through shuffles"},
    {"stream_z", pass_stream_z, true, false, "reads along z kept in windows of planes (stream_z)"},
    {"interior", pass_interior, false, false, "a copy of the body without edge guards, for inner points"},
    {"global_memory", pass_global_memory, false, true, "grid accesses become guarded buffer accesses"},
    {"unroll", pass_unroll, true, false, "for loops unrolled by their unroll_L<line> factor"},
    {"thread_mapping", pass_thread_mapping, true, false, "idx/idy/idz from thread indices, coarsening"},
};
const int pass_count = sizeof pass_table / sizeof pass_table[0];

const Pass *pass_find(const char *name)
{
    for (int i = 0; i < pass_count; i++)
        if (strcmp(pass_table[i].name, name) == 0)
            return &pass_table[i];
    return NULL;
}
