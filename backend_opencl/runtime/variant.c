// imcl_cpu_device: which kernel of K.cl suits the device, for a configuration that left
// the geometry to imcl (params_cpu_variant, docs/tuning.md "Defaults"). backend_opencl.c
// copies this file into K_host.c then. These // lines are not copied
// (docs/architecture.md, "Host runtime").
/* 1 when the CPU variant of the kernel (KERNEL_cpu: rows of work-items, one guarded
 * body) suits device imcl_dev, that is on a device of type CPU; 0 for the default
 * variant (every other device). IMCL_VARIANT=cpu or gpu in the environment overrides
 * the choice, to compare the two or to test both on one device. */
static int imcl_cpu_device(cl_device_id imcl_dev)
{
    const char *forced = getenv("IMCL_VARIANT");
    if (forced && strcmp(forced, "cpu") == 0)
        return 1;
    if (forced && strcmp(forced, "gpu") == 0)
        return 0;
    cl_device_type imcl_type = 0;
    if (clGetDeviceInfo(imcl_dev, CL_DEVICE_TYPE, sizeof imcl_type, &imcl_type, NULL) != CL_SUCCESS)
        return 0;
    return (imcl_type & CL_DEVICE_TYPE_CPU) != 0;
}
