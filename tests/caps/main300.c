/* kernels.test: k300, the last of 300 kernels in one file, computes a + 300. */
#include <stdio.h>

#include "k300.h"

int main(void)
{
    int a[6] = {1, 2, 3, 4, 5, 6}, o[6] = {0};
    int rc = k300(a, 3, 2, o, 3, 2);
    for (int i = 0; i < 6; i++)
        if (o[i] != a[i] + 300) {
            printf("o[%d] = %d\n", i, o[i]);
            return 1;
        }
    return rc;
}
