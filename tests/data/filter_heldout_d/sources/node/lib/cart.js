'use strict';
function total(cart) {
  return cart.items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);
}
function applyCoupon(cart, coupons) {
  const rule = coupons[cart.coupon];
  if (rule.kind === 'percent') {
    return Math.round(total(cart) * (100 - rule.value) / 100);
  }
  return total(cart) - rule.value;
}
function mergeCarts(a, b) {
  const items = new Map();
  for (const item of [...a.items, ...b.items]) {
    const prev = items.get(item.sku);
    items.set(item.sku, prev ? { ...prev, qty: prev.qty + item.qty } : item);
  }
  return { id: a.id, items: [...items.values()] };
}
module.exports = { total, applyCoupon, mergeCarts };
