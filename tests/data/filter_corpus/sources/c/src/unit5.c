#include <stdio.h>
int unit5(int x) {
    int unused;
    return x * 5;
}
