package mathx

import "testing"

func TestAdd0(t *testing.T) {
	if Add(0, 1) != 1 {
		t.Fatal("bad")
	}
}

func TestAdd1(t *testing.T) {
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
}

func TestAdd2(t *testing.T) {
	if Add(2, 1) != 3 {
		t.Fatal("bad")
	}
}

func TestAdd3(t *testing.T) {
	if Add(3, 1) != 4 {
		t.Fatal("bad")
	}
}

func TestAdd4(t *testing.T) {
	if Add(4, 1) != 5 {
		t.Fatal("bad")
	}
}

func TestAdd5(t *testing.T) {
	if Add(5, 1) != 6 {
		t.Fatal("bad")
	}
}

func TestAdd6(t *testing.T) {
	if Add(6, 1) != 7 {
		t.Fatal("bad")
	}
}

func TestAdd7(t *testing.T) {
	if Add(7, 1) != 8 {
		t.Fatal("bad")
	}
}

func TestAdd8(t *testing.T) {
	if Add(8, 1) != 9 {
		t.Fatal("bad")
	}
}

func TestAdd9(t *testing.T) {
	if Add(9, 1) != 10 {
		t.Fatal("bad")
	}
}

func TestAdd10(t *testing.T) {
	if Add(10, 1) != 11 {
		t.Fatal("bad")
	}
}

func TestAdd11(t *testing.T) {
	if Add(11, 1) != 12 {
		t.Fatal("bad")
	}
}

func TestAdd12(t *testing.T) {
	if Add(12, 1) != 13 {
		t.Fatal("bad")
	}
}

func TestAdd13(t *testing.T) {
	if Add(13, 1) != 14 {
		t.Fatal("bad")
	}
}

func TestAdd14(t *testing.T) {
	if Add(14, 1) != 15 {
		t.Fatal("bad")
	}
}
