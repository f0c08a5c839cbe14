#include <stdio.h>
int unit2(int x) {
    int unused;
    return x * 2;
}
