// PK_strerror: the text of each return code of K.h, in the host file of every backend
// (host_error_functions in wrappers/host.c copies this file, with every PK_ replaced by
// the kernel's host name). These // lines are not copied (docs/architecture.md, "Host
// runtime").
const char *PK_strerror(int code)
{
    switch (code) {
    case PK_OK: return "success";
    case PK_ERR_ARGUMENT: return "invalid argument (NULL array, extent below 1, or grid arrays of different extents)";
    case PK_ERR_DEVICE: return "no usable device";
    case PK_ERR_MEMORY: return "device memory allocation failed";
    case PK_ERR_TRANSFER: return "copy between host and device failed";
    case PK_ERR_BUILD: return "kernel build failed";
    case PK_ERR_LAUNCH: return "kernel launch failed";
    default: return "unknown error";
    }
}
