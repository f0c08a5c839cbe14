// Soil moisture sensors report raw ADC counts; 0% is dry air, 100% is a glass of water.

export function percent(raw, dry = 880, wet = 410) {
  const p = ((dry - raw) / (dry - wet)) * 100;
  return Math.min(100, Math.max(0, Math.round(p)));
}

export function needsWater(raw, threshold = 35) {
  return percent(raw) < threshold;
}

export function median(values) {
  const sorted = [...values].sort();
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
