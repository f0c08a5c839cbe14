#include <stdio.h>
int unit8(int x) {
    int unused;
    return x * 8;
}
