import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { median, needsWater, percent } from '../src/moisture.mjs';

describe('moisture percent', () => {
  it('dry sensor reads 0', () => assert.equal(percent(880), 0));
  it('wet sensor reads 100', () => assert.equal(percent(410), 100));
  it('half way', () => assert.equal(percent(645), 50));
  it('below the threshold needs water', () => assert.equal(needsWater(800), true));
});

describe('median of readings', () => {
  it('odd count', () => assert.equal(median([512, 498, 530]), 512));
  it('mixed magnitudes', () => assert.equal(median([95, 410, 1020]), 410));
  it.todo('drops readings outside 0..1023');
});
