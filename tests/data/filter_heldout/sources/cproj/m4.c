int f4(int x) { int unused4; return x * 4; }
