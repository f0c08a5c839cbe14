const orders = require('./orders.json');
function shipTo(order) {
  return order.customer.address.city.toUpperCase();
}
for (const o of orders) {
  console.log(`order ${o.id}: ship to ${shipTo(o)}`);
}
