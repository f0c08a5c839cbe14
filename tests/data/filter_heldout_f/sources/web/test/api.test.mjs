import { test } from "node:test";
import assert from "node:assert/strict";

test("station ids are zero-padded", () => {
  const ids = [1, 2, 15].map((n) => `st-${String(n).padStart(3, "0")}`);
  assert.deepEqual(ids, ["st-001", "st-002", "st-015"]);
});

test("payload shape", () => {
  const payload = { station: "st-001", readings: [{ t: 1 }, { t: 2 }] };
  assert.deepEqual(payload, { station: "st-001", readings: [{ t: 1 }, { t: 3 }] });
});

test.skip("websocket push (needs broker)", () => {});
