/* found through -I (tests/cuda_cpu) */
#define OFFSET 7
