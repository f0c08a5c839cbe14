// Bundle src/ into dist/sprout.mjs, and write the valve map the controller reads.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
const parts = readdirSync('src').filter((n) => n.endsWith('.mjs')).sort();
let out = '';
for (const name of parts) {
  const text = readFileSync(`src/${name}`, 'utf8');
  console.log(`bundled src/${name} (${text.length} bytes)`);
  out += `// --- ${name}\n${text}\n`;
}
writeFileSync('dist/sprout.mjs', out);
const beds = JSON.parse(readFileSync('data/beds.json', 'utf8'));
const valves = Object.fromEntries(beds.map((b) => [b.valve.toString(16), b.id]));
writeFileSync('dist/valves.json', JSON.stringify(valves, null, 2));
console.log(`wrote dist/valves.json (${beds.length} beds)`);
