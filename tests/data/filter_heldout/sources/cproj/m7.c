int f7(int x) { int unused7; return x * 7; }
