/* The backends imcl has, in the order it runs them: one row each (tune/backend.h),
 * defined in its own folder. Adding a backend is a folder and a line here. */
#include "driver.h"

extern const Backend backend_cuda, backend_opencl, backend_c;

const Backend *const driver_backends[] = {&backend_cuda, &backend_opencl, &backend_c};
const int driver_nbackends = sizeof driver_backends / sizeof driver_backends[0];
