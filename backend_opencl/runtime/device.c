// imcl_device: the OpenCL device of K_host.c (backend_opencl.c copies this file into it).
// These // lines are not copied (docs/architecture.md, "Host runtime").
/* The device: IMCL_PLATFORM / IMCL_DEVICE (0-based indices) when set, else the
 * first GPU of any platform, else the first device of the first platform. */
static int imcl_device(cl_device_id *imcl_dev)
{
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0)
        return -1;
    if (np > 16)
        np = 16;
    const char *ep = getenv("IMCL_PLATFORM"), *ed = getenv("IMCL_DEVICE");
    if ((ep && *ep) || (ed && *ed)) {
        char *end;
        long p = ep && *ep ? strtol(ep, &end, 10) : 0;
        if ((ep && *ep && *end) || p < 0 || p >= (long)np)
            return -1;
        long d = ed && *ed ? strtol(ed, &end, 10) : 0;
        if ((ed && *ed && *end) || d < 0)
            return -1;
        cl_device_id devs[64];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
            return -1;
        if (d >= (long)(nd < 64 ? nd : 64))
            return -1;
        *imcl_dev = devs[d];
        return 0;
    }
    for (cl_uint p = 0; p < np; p++)
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, imcl_dev, NULL) == CL_SUCCESS)
            return 0;
    for (cl_uint p = 0; p < np; p++)
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, imcl_dev, NULL) == CL_SUCCESS)
            return 0;
    return -1;
}
