// imcl_plan_symbol: zero-fills the __constant__ copy of an array of the CUDA plan in
// constant memory (plan_cuda.c copies this file into K.cu, with every PK_ replaced by the
// kernel's host name). These // lines are not copied (docs/architecture.md, "Host
// runtime").
/* Zero-fills the first `bytes` of __constant__ symbol `symbol`.
 * Returns PK_OK, PK_ERR_MEMORY or PK_ERR_TRANSFER. */
static int imcl_plan_symbol(const void *symbol, size_t bytes)
{
    void *imcl_zeros = calloc(1, bytes);
    if (!imcl_zeros)
        return PK_ERR_MEMORY;
    const cudaError_t imcl_err = cudaMemcpyToSymbol(symbol, imcl_zeros, bytes);
    free(imcl_zeros);
    return imcl_err == cudaSuccess ? PK_OK : PK_ERR_TRANSFER;
}
