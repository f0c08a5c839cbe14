int f10(int x) { int unused10; return x * 10; }
