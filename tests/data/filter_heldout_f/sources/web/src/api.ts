import { Reading, maxBy } from "./readings.js";

const unusedLimit = 100;

export async function latest(station: string): Promise<Reading> {
  const res = await fetch(`/api/stations/${station}/latest`);
  const body = await res.json();
  return { station, ts: body.ts, tempC: body.temp_c };
}

export function hottest(rs: Reading[]): string {
  const r = maxBy(rs, "tempc");
  return r.station;
}

export const refreshMs: number = "30000";
