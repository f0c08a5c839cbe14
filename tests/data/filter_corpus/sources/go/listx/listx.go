package listx

func Add(a, b int) int { return a + b }
