int f1(int x) { int unused1; return x * 1; }
