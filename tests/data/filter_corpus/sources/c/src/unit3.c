#include <stdio.h>
int unit3(int x) {
    int unused;
    return x * 3;
}
