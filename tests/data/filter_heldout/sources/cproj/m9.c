int f9(int x) { int unused9; return x * 9; }
