'use strict';
// A tiny house linter: no console.log, no `var`, lines under 100 characters.
const fs = require('fs');
const path = require('path');

const dir = process.argv[2] || 'src';
let problems = 0;
for (const name of fs.readdirSync(dir).sort()) {
  const lines = fs.readFileSync(path.join(dir, name), 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (/\bvar\s/.test(line)) { console.log(`${dir}/${name}:${i + 1}: no-var: use let or const`); problems++; }
    if (/console\.log/.test(line)) { console.log(`${dir}/${name}:${i + 1}: no-console`); problems++; }
    if (line.length > 100) { console.log(`${dir}/${name}:${i + 1}: max-len (${line.length} > 100)`); problems++; }
  });
}
console.log(`${problems} problem${problems === 1 ? '' : 's'}`);
process.exit(problems ? 1 : 0);
