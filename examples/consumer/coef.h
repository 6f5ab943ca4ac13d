/* The heat kernel's diffusion coefficient, in a file of its own: editing it must
 * regenerate the kernel (imcl --depfile). */
#define ALPHA 0.125f
