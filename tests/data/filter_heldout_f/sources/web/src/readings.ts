export interface Reading {
  station: string;
  ts: string;
  tempC: number;
  windMs?: number;
}

export function maxBy(readings: Reading[], key: keyof Reading): Reading | undefined {
  let best: Reading | undefined;
  for (const r of readings) {
    if (best === undefined || r[key] > best[key]) best = r;
  }
  return best;
}

export function gustLabel(r: Reading): string {
  if (r.windMs > 17.2) return "gale";
  if (r.windMs > 10.8) return "strong";
}
