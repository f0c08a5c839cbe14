int f3(int x) { int unused3; return x * 3; }
