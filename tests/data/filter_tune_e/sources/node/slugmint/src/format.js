'use strict';

function money(cents, currency = 'EUR') {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

function padNumber(n, width = 5) {
  return String(n).padStart(width, '0');
}

module.exports = { money, padNumber };
