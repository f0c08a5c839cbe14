int f8(int x) { int unused8; return x * 8; }
