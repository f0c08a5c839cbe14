#include <stdio.h>
int unit6(int x) {
    int unused;
    return x * 6;
}
int broken(void) {
    return undefined_symbol + 1;
}
