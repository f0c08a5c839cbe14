#include <stdio.h>
int unit7(int x) {
    int unused;
    return x * 7;
}
