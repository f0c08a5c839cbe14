int f5(int x) { int unused5; return x * 5; }
