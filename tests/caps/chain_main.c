/* functions.test: chain calls f1999, which calls down to f1: each adds 1 to idx. */
#include <stdio.h>

#include "chain.h"

int main(void)
{
    int o[4] = {0};
    int rc = chain(o, 2, 2);
    for (int i = 0; i < 4; i++)
        if (o[i] != i % 2 + 1999) {
            printf("o[%d] = %d\n", i, o[i]);
            return 1;
        }
    return rc;
}
