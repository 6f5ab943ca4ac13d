// imcl_plan_buffer: the zero-filled buffer of an array of the OpenCL plan, when some array
// is not in texture memory (plan_opencl.c copies this file into K_host.c, with every PK_
// replaced by the kernel's host name). These // lines are not copied
// (docs/architecture.md, "Host runtime").
/* A zero-filled buffer of `bytes` into *buf (NULL when none could be had), read-write
 * whatever the kernel does with its array: a swap may hand a read-only array the
 * buffer of a written one. Returns PK_OK, PK_ERR_MEMORY or PK_ERR_TRANSFER. */
static int imcl_plan_buffer(cl_mem *buf, cl_context imcl_ctx, cl_command_queue imcl_queue,
                            size_t bytes)
{
    const cl_uchar imcl_zero = 0;
    cl_int imcl_err = CL_SUCCESS;
    *buf = clCreateBuffer(imcl_ctx, CL_MEM_READ_WRITE, bytes, NULL, &imcl_err);
    if (!*buf)
        return PK_ERR_MEMORY;
    imcl_err = clEnqueueFillBuffer(imcl_queue, *buf, &imcl_zero, 1, 0, bytes, 0, NULL, NULL);
    if (imcl_err == CL_SUCCESS)
        imcl_err = clFinish(imcl_queue);
    return imcl_err == CL_SUCCESS ? PK_OK : PK_ERR_TRANSFER;
}
