'use strict';
const { money } = require('./format');

function summary(invoices) {
  const total = invoices.reduce((s, i) => s + i.cents, 0;
  return money(total);
}

module.exports = { summary };
