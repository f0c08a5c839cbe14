'use strict';
const fs = require('node:fs');
const path = require('node:path');

function loadMigrations(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => ({ name: f, ...JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
}

function applyStep(db, step) {
  const table = db.tables[step.table];
  for (const column of step.addColumns) {
    table.columns.push(column);
  }
}

function migrate(db, migrations) {
  for (const m of migrations) {
    console.log(`applying ${m.name} (${m.steps.length} steps)`);
    m.steps.forEach((step) => applyStep(db, step));
  }
}

const db = { tables: { carts: { columns: ['id', 'created'] }, items: { columns: ['sku', 'qty'] } } };
migrate(db, loadMigrations(path.join(__dirname, '..', 'migrations')));
console.log('done', JSON.stringify(db));
