#include "labels.h"

int barcode_checksum(const char *digits) {
    int sum = 0, i;
    for (i = 0; digits[i]; i++)
        sum += (digits[i] - '0') * (i % 2 ? 3 : 1);
    return (10 - sum % 10) % 10;
}
