import { test } from 'node:test';
import assert from 'node:assert/strict';
import { litresPerDay, schedule, valveMinutes } from '../src/water.mjs';

test('tomatoes in a 2 m2 bed with no rain', () => {
  assert.equal(litresPerDay({ id: 'A1', crop: 'tomato', areaM2: 2 }), 12);
});

test('rain reduces the need', () => {
  assert.equal(litresPerDay({ id: 'A2', crop: 'lettuce', areaM2: 1.5 }, 14), 3);
});

test('unknown crop is an error', () => {
  assert.throws(() => litresPerDay({ id: 'B9', crop: 'kale', areaM2: 1 }), /unknown crop 'kale'/);
});

test('valve minutes round up', () => {
  assert.equal(valveMinutes(25, 12), 3);
});

test('schedule keeps the valve of each bed', () => {
  const beds = [{ id: 'C1', crop: 'basil', areaM2: 1, valve: 3 }, { id: 'C2', crop: 'pepper', areaM2: 2, valve: 4 }];
  assert.deepEqual(schedule(beds, 0), [{ id: 'C1', litres: 3.5, valve: 3 }, { id: 'C2', litres: 10, valve: 5 }]);
});
