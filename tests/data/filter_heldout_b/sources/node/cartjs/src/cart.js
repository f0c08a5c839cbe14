function total(items) {
  return items.reduce((s, i) => s + i.price * i.qty, 0);
}
function applyCoupon(sum, code) {
  if (code === 'TEN') return sum * 0.9;
  return sum;
}
module.exports = { total, applyCoupon };
