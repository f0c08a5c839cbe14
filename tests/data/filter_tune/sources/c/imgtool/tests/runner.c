#include <stdio.h>

static int clamp(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

int main(void)
{
    int failed = 0;
    printf("TAP version 13\n1..150\n");
    for (int i = 1; i <= 150; i++) {
        int v = i * 2 - 40;
        int want = v < 0 ? 0 : v > 255 ? 255 : v;
        if (i == 64 || i == 131) want += 1;  /* two expectations written wrong */
        if (clamp(v) == want) printf("ok %d - clamp(%d) == %d\n", i, v, want);
        else { failed++; printf("not ok %d - clamp(%d) == %d\n#   got %d\n", i, v, want, clamp(v)); }
    }
    printf("# %d of 150 tests failed\n", failed);
    return failed != 0;
}
