// imcl_build: the program and kernel of K_host.c, for its one-shot wrapper and its plan
// (backend_opencl.c copies this file into it). Copied with every PK_ (the kernel's host
// name) replaced; imcl_source and imcl_log are K_host.c's. These // lines are not copied
// (docs/architecture.md, "Host runtime").
/* Builds the kernel's program for imcl_dev (a failed build leaves its log in imcl_log,
 * for PK_build_log) and creates its kernel named imcl_name. What it made is in
 * *imcl_prog and *imcl_kern (else NULL), on failure too: the caller releases them.
 * Returns PK_OK or PK_ERR_BUILD. */
static int imcl_build(cl_context imcl_ctx, cl_device_id imcl_dev, const char *imcl_name,
                      cl_program *imcl_prog, cl_kernel *imcl_kern)
{
    const char *imcl_src = imcl_source;
    cl_int imcl_err = CL_SUCCESS;
    *imcl_kern = NULL;
    *imcl_prog = clCreateProgramWithSource(imcl_ctx, 1, &imcl_src, NULL, &imcl_err);
    if (!*imcl_prog)
        return PK_ERR_BUILD;
    if (clBuildProgram(*imcl_prog, 1, &imcl_dev, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
        clGetProgramBuildInfo(*imcl_prog, imcl_dev, CL_PROGRAM_BUILD_LOG, sizeof imcl_log - 1,
                              imcl_log, NULL);
        return PK_ERR_BUILD;
    }
    *imcl_kern = clCreateKernel(*imcl_prog, imcl_name, &imcl_err);
    return *imcl_kern ? PK_OK : PK_ERR_BUILD;
}
