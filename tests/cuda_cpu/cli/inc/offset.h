/* found through -I (tests/run_cuda_cpu.sh) */
#define OFFSET 7
