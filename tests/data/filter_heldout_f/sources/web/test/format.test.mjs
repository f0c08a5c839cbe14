import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { formatTemp, formatWind, trend } from "../lib/format.mjs";

describe("formatTemp", () => {
  test("one decimal", () => assert.equal(formatTemp(3.14159), "3.1 °C"));
  test("negative", () => assert.equal(formatTemp(-0.04), "-0.0 °C"));
});

describe("formatWind", () => {
  test("knots rounded", () => assert.equal(formatWind(5.14444), "5.1 m/s (10 kn)"));
  test("calm", () => assert.equal(formatWind(0), "0.0 m/s (0 kn)"));
});

describe("trend", () => {
  test("rising", () => assert.equal(trend([1, 2, 3]), "rising"));
  test("flat for one value", () => assert.equal(trend([4]), "flat"));
  test("flat for small change", () => assert.equal(trend([4, 4.2]), "flat"));
  test("falling", () => assert.equal(trend([9, 3]), "falling"));
});
