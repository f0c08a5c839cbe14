const add = (a, b) => a + b;

describe('suite 1', () => {
  test('adds 0', () => { expect(add(0, 1)).toBe(1); });
  test('adds 1', () => { expect(add(1, 1)).toBe(2); });
  test('adds 2', () => { expect(add(2, 1)).toBe(3); });
  test('adds 3', () => { expect(add(3, 1)).toBe(4); });
  test('adds 4', () => { expect(add(4, 1)).toBe(5); });
  test('adds 5', () => { expect(add(5, 1)).toBe(6); });
  test('adds 6', () => { expect(add(6, 1)).toBe(7); });
  test('adds 7', () => { expect(add(7, 1)).toBe(8); });
  test('adds 8', () => { expect(add(8, 1)).toBe(9); });
  test('adds 9', () => { expect(add(9, 1)).toBe(10); });
  test('adds 10', () => { expect(add(10, 1)).toBe(11); });
  test('adds 11', () => { expect(add(11, 1)).toBe(12); });
});
