'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { total, applyCoupon, mergeCarts } = require('../lib/cart');

const cart = { id: 'c1', items: [{ sku: 'A', qty: 2, priceCents: 1250 }, { sku: 'B', qty: 1, priceCents: 499 }] };

describe('total', () => {
  it('sums quantity times price', () => assert.equal(total(cart), 2999));
  it('is zero for an empty cart', () => assert.equal(total({ items: [] }), 0));
});

describe('applyCoupon', () => {
  const coupons = { TEN: { kind: 'percent', value: 10 }, FIVE: { kind: 'fixed', value: 500 } };
  it('applies a percent coupon', () => assert.equal(applyCoupon({ ...cart, coupon: 'TEN' }, coupons), 2699));
  it('applies a fixed coupon', () => assert.equal(applyCoupon({ ...cart, coupon: 'FIVE' }, coupons), 2499));
  it('ignores an unknown coupon', () => assert.equal(applyCoupon({ ...cart, coupon: 'NOPE' }, coupons), 2999));
  it('never goes below zero', () => {
    const small = { items: [{ sku: 'C', qty: 1, priceCents: 300 }], coupon: 'FIVE' };
    assert.equal(applyCoupon(small, coupons), 0);
  });
});

describe('mergeCarts', () => {
  it('adds quantities of the same sku', () => {
    const merged = mergeCarts(cart, { items: [{ sku: 'A', qty: 1, priceCents: 1250 }] });
    assert.deepEqual(merged.items.map((i) => i.qty), [3, 1]);
  });
  it('keeps the first cart id', () => assert.equal(mergeCarts(cart, { id: 'c2', items: [] }).id, 'c1'));
  it('does not mutate its inputs', () => {
    const a = { id: 'x', items: [{ sku: 'A', qty: 1, priceCents: 1 }] };
    mergeCarts(a, { items: [{ sku: 'A', qty: 1, priceCents: 1 }] });
    assert.deepEqual(a.items, [{ sku: 'A', qty: 1, priceCents: 1 }]);
  });
});
