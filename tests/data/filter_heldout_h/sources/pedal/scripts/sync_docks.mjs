// Pull each dock's status from the controllers and write a snapshot for the ops dashboard.
import { readFile, writeFile } from 'node:fs/promises';

async function readDocks(path) {
  const text = await readFile(path, 'utf8');
  return text.trim().split('\n').map((line) => {
    const [sid, ip, firmware] = line.split(/\s+/);
    return { sid, ip, firmware };
  });
}

async function pollDock(dock) {
  if (!dock.firmware) {
    throw new Error(`dock ${dock.sid} (${dock.ip}) did not report a firmware version`);
  }
  return { ...dock, ok: dock.firmware >= '2.4' };
}

async function main() {
  const docks = await readDocks('docks.txt');
  console.log(`polling ${docks.length} docks`);
  const results = docks.map(pollDock);
  const first = await results[0];
  console.log(`first dock ${first.sid}: ${first.ok ? 'ok' : 'needs update'}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const all = await Promise.all(results);
  await writeFile('snapshot.json', JSON.stringify(all, null, 2));
  console.log('snapshot written');
}

main();
