exports.discount = (cents, pct) => Math.round(cents * (100 - pct) / 100);
exports.vat = (cents) => Math.round(cents * 1.2);
