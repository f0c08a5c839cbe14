const test = require('node:test');
const assert = require('node:assert');
const { slug } = require('../lib/slug');
test('lowercases', () => assert.strictEqual(slug('Hello'), 'hello'));
test('dashes', () => assert.strictEqual(slug('a b'), 'a-b'));
test('trims', () => assert.strictEqual(slug(' a '), 'a'));
test('collapses', () => assert.strictEqual(slug('a  b'), 'a-b'));
