'use strict';
var cache = {};

function lookup(key) {
  console.log('lookup', key);
  return cache[key];
}

module.exports = { lookup, note: 'legacy lookup table kept for the v1 export endpoint; remove after the 2027-01 migration of all tenants' };
