'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify } = require('../src/slug');

test('lowercases and joins words', () => {
  assert.equal(slugify('Invoice November 2026'), 'invoice-november-2026');
});

test('strips accents', () => {
  assert.equal(slugify('Café Müller GmbH'), 'cafe-muller-gmbh');
});

test('custom separator', () => {
  assert.equal(slugify('a b c', { sep: '_' }), 'a_b_c');
});

test('truncates long titles', () => {
  assert.equal(slugify('x'.repeat(80)).length, 60);
});
