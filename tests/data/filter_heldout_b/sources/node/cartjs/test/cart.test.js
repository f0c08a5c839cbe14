const test = require('node:test');
const assert = require('node:assert');
const { total, applyCoupon } = require('../src/cart.js');

test('total of empty cart', () => {
  assert.strictEqual(total([]), 0);
});
test('total multiplies qty', () => {
  assert.strictEqual(total([{ price: 2, qty: 3 }]), 6);
});
test('coupon TEN gives 10 percent', () => {
  assert.strictEqual(applyCoupon(100, 'TEN'), 90);
});
test('total with float prices', () => {
  assert.strictEqual(total([{ price: 0.1, qty: 1 }, { price: 0.2, qty: 1 }]), 0.3);
});
test('coupon is case insensitive', () => {
  assert.strictEqual(applyCoupon(50, 'ten'), 45);
});
