#include <stdio.h>
int unit1(int x) {
    int unused;
    return x * 1;
}
