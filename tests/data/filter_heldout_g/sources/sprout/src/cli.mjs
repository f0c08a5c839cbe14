import { readFileSync } from 'node:fs';
import { schedule, valveMinutes } from './water.mjs';

const [cmd, file] = process.argv.slice(2);
if (cmd !== 'plan') {
  console.error('usage: cli.mjs plan BEDS.json');
  process.exit(2);
}
const beds = JSON.parse(readFileSync(file, 'utf8'));
for (const row of schedule(beds, 9)) {
  console.log(`${row.id.padEnd(6)} ${String(row.litres).padStart(6)} L  valve ${row.valve}  ${valveMinutes(row.litres, 12)} min`);
}
