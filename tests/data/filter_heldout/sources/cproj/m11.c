int f11(int x) { int unused11; return x * 11; }
