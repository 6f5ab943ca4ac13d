/* The C side of scale.cu (tests/cuda_cpu): prints "scale ok" when every element
 * is v * SCALE + 7. */
#include <stdio.h>

int scale(int *v, int n);

int main(void)
{
    int v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i;
    if (scale(v, 100) != 0) {
        puts("scale: CUDA failed");
        return 1;
    }
    for (int i = 0; i < 100; i++)
        if (v[i] != i * SCALE + 7) {
            printf("scale: v[%d] = %d\n", i, v[i]);
            return 1;
        }
    puts("scale ok");
    return 0;
}
