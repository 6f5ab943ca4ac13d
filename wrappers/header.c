/* K.h: the public interface of a generated kernel, the same for every backend. */
#include "emit.h"
#include "host.h"
#include "plan.h"


void header_emit(EmitCtx *e, Outputs *out)
{
    const char *pk = e->host_name;
    StrBuf *h = outputs_add(out, arena_printf(e->a, "%s.h", e->k->name));
    host_banner(h, e, NULL);
    StrBuf guard = {0};
    sb_puts(&guard, "IMCL_");
    /* The name as it is: kernels `blur` and `Blur` need guards of their own. */
    sb_puts(&guard, pk);
    sb_puts(&guard, "_H");
    sb_printf(h, "#ifndef %s\n#define %s\n\n", sb_str(&guard), sb_str(&guard));
    sb_puts(h, "#include <stddef.h> /* ptrdiff_t: the pitches of strided transfers */\n\n");
    sb_puts(h, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sb_printf(h, "/* Return codes of %s (see %s_strerror). */\n", pk, pk);
    sb_printf(h,
              "enum {\n"
              "    %s_OK = 0,\n"
              "    %s_ERR_ARGUMENT = -1, /* NULL array, extent below 1, grid arrays of different extents */\n"
              "    %s_ERR_DEVICE = -2,   /* no usable device */\n"
              "    %s_ERR_MEMORY = -3,   /* device allocation failed */\n"
              "    %s_ERR_TRANSFER = -4, /* copy between host and device failed */\n"
              "    %s_ERR_BUILD = -5,    /* kernel build failed (see %s_build_log) */\n"
              "    %s_ERR_LAUNCH = -6    /* kernel launch failed */\n"
              "};\n\n",
              pk, pk, pk, pk, pk, pk, pk, pk);
    sb_printf(h, "/* Runs kernel '%s' once over its whole grid: copies in what it reads, launches,\n"
                 " * copies out what it writes. Returns %s_OK or a negative code. */\n", e->k->name, pk);
    sb_printf(h, "int %s(", pk);
    host_param_list(h, e->k);
    sb_puts(h, ");\n\n");
    if (e->tables) {
        sb_printf(h, "/* C reference only (docs/wrappers.md): the kernel over imcl_count blocks of equal\n"
                     " * extents, each Image and Block of each block given as C codes allocate it, a table\n"
                     " * of rows (an Image: a[y], a Block: a[z][y], each row of its width, ghost layer\n"
                     " * included), read and written where it lies. Returns %s_OK or a negative code. */\n",
                  pk);
        sb_printf(h, "int %s_rows(", pk);
        host_param_list_as(h, e->k, true);
        sb_puts(h, ");\n\n");
    }
    sb_printf(h, "/* A static English description of a return code. */\nconst char *%s_strerror(int code);\n\n", pk);
    sb_printf(h, "/* The log of the last failed kernel build (OpenCL); \"\" otherwise. */\nconst char *%s_build_log(void);\n\n", pk);
    sb_printf(h, "/* The one-shot wrapper keeps what it needs of the device between calls (OpenCL:\n"
                 " * the context, queue and built program), so that a loop of calls builds once;\n"
                 " * this frees it (the next call builds again). Not thread-safe, as the wrapper. */\n"
                 "void %s_release(void);\n\n", pk);
    sb_printf(h, "/* Runs the one-shot wrapper and the plans created from now on in the application's\n"
                 " * own device queue, in its order with the application's own work (docs/wrappers.md,\n"
                 " * \"The application's device\"). OpenCL: `context`, `device` and `queue` are a\n"
                 " * cl_context, a cl_device_id and an in-order cl_command_queue of that context (retained\n"
                 " * until %s_release; without CL_QUEUE_PROFILING_ENABLE the plans' kernel time is 0);\n"
                 " * CUDA: `queue` is a cudaStream_t, `context` and `device` NULL (the current device).\n"
                 " * All NULL: imcl's own device and queue again. Frees what %s_release frees first.\n"
                 " * Returns %s_OK, %s_ERR_ARGUMENT (some but not all NULL, an object that is none),\n"
                 " * %s_ERR_BUILD, or %s_ERR_DEVICE (the C reference, which has no queue). */\n"
                 "int %s_use_queue(void *context, void *device, void *queue);\n\n", pk, pk, pk, pk, pk, pk, pk);
    plan_header_emit(h, e);
    dist_header_emit(h, e);
    sb_puts(h, "#ifdef __cplusplus\n}\n#endif\n\n");
    sb_printf(h, "#endif /* %s */\n", sb_str(&guard));
    sb_free(&guard);
    dist_emit(e, out);
}
