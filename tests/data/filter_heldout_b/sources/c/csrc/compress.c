int compress_block(const char *in, char *out, int n) {
    (void)in; (void)out;
    return n / 2;
}
