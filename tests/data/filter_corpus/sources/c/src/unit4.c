#include <stdio.h>
int unit4(int x) {
    int unused;
    return x * 4;
}
