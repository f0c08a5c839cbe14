// A small house linter: no console.log in src/ (except the CLI), no 'var', lines <= 100 chars, trailing spaces.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? 'src';
let problems = 0;
for (const name of readdirSync(root).sort()) {
  if (!name.endsWith('.mjs')) continue;
  const path = join(root, name);
  readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    if (/\bvar\s/.test(line)) { console.log(`${at}  error  no-var  'var' declaration`); problems++; }
    if (line.length > 100) { console.log(`${at}  warn   max-len  line is ${line.length} chars (max 100)`); problems++; }
    if (/\s+$/.test(line)) { console.log(`${at}  warn   no-trailing-spaces`); problems++; }
    if (name !== 'cli.mjs' && /console\.log/.test(line)) { console.log(`${at}  error  no-console`); problems++; }
  });
}
console.log(`\n${problems} problems`);
process.exitCode = problems ? 1 : 0;
