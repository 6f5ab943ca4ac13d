// imcl_copy: a copy between host and device memory in the stream of the one-shot wrapper
// or of a plan (backend_cuda.c copies this file into K.cu when an array is in a buffer,
// with every PK_ replaced by the kernel's host name). These // lines are not copied
// (docs/architecture.md, "Host runtime").
/* A copy between host and device memory in stream imcl_s, after the work issued there
 * before it (the application's too, with PK_use_queue), finished when it returns: the
 * host memory is the caller's again at once. */
static cudaError_t imcl_copy(void *to, const void *from, size_t bytes, cudaMemcpyKind kind,
                             cudaStream_t imcl_s)
{
    const cudaError_t imcl_err = cudaMemcpyAsync(to, from, bytes, kind, imcl_s);
    return imcl_err == cudaSuccess ? cudaStreamSynchronize(imcl_s) : imcl_err;
}
