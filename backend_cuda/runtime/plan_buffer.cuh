// imcl_plan_buffer: the zero-filled device buffer of an array of the CUDA plan in global
// or shared memory (plan_cuda.c copies this file into K.cu, with every PK_ replaced by the
// kernel's host name). These // lines are not copied (docs/architecture.md, "Host
// runtime").
/* A zero-filled device buffer of `bytes` into *buf (NULL when none could be had), the
 * zeros written before it returns: cudaMemset may still run when it returns, and a launch
 * into a stream of the application's (PK_use_queue) need not wait for it.
 * Returns PK_OK, PK_ERR_MEMORY or PK_ERR_TRANSFER. */
static int imcl_plan_buffer(void **buf, size_t bytes)
{
    if (cudaMalloc(buf, bytes) != cudaSuccess) {
        *buf = NULL;
        return PK_ERR_MEMORY;
    }
    return cudaMemset(*buf, 0, bytes) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess
        ? PK_OK : PK_ERR_TRANSFER;
}
