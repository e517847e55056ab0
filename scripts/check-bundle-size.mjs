#!/usr/bin/env node
// Size budgets, gzipped, read from Vite's manifest (build.manifest: true):
// - the landing page: the JavaScript a first visit to / downloads before it can run (the entry
//   chunk and everything it imports statically) must stay under 120 kB;
// - each signed-in screen (inbox, contacts, connections, users, my account): the entry, the app
//   shell and the screen's chunk with their static imports must stay under 250 kB.
// Usage: node scripts/check-bundle-size.mjs [--build] [--budget-kb 120] [--app-budget-kb 250]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'web', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const args = process.argv.slice(2);
const budgetArg = args.indexOf('--budget-kb');
const budgetKb = budgetArg >= 0 ? Number(args[budgetArg + 1]) : 120;
const appBudgetArg = args.indexOf('--app-budget-kb');
const appBudgetKb = appBudgetArg >= 0 ? Number(args[appBudgetArg + 1]) : 250;

if (args.includes('--build') || !existsSync(manifestPath)) {
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

/** @type {Record<string, { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('index.html'));
if (!entryKey) {
  console.error('check-bundle-size: no index.html entry in the Vite manifest');
  process.exit(2);
}

// The entry plus its static imports, transitively: what the browser loads before the landing renders.
const initial = new Set();
const visit = (key) => {
  if (initial.has(key)) return;
  initial.add(key);
  for (const dep of manifest[key].imports ?? []) visit(dep);
};
visit(entryKey);

const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const rows = [...initial].map((key) => ({ file: manifest[key].file, raw: readFileSync(join(dist, manifest[key].file)).length, gzip: gz(manifest[key].file) }));
const total = rows.reduce((sum, r) => sum + r.gzip, 0);
const lazy = Object.values(manifest).filter((c) => c.file.endsWith('.js') && !rows.some((r) => r.file === c.file));
const lazyGzip = lazy.reduce((sum, c) => sum + gz(c.file), 0);

const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
for (const r of rows) console.log(`  ${r.file.padEnd(40)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzip`);
console.log(`landing initial JS: ${kb(total)} gzipped (budget ${budgetKb} kB), ${rows.length} file(s)`);
console.log(`lazy chunks: ${lazy.length} file(s), ${kb(lazyGzip)} gzipped in all`);
let failed = false;
if (total > budgetKb * 1000) {
  console.error(`check-bundle-size: FAIL, the landing page's initial JS is ${kb(total)} gzipped, over the ${budgetKb} kB budget`);
  failed = true;
}

// The app screens: what the browser has loaded once a signed-in screen runs.
const closure = (keys) => {
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) walk(dep);
  };
  keys.forEach(walk);
  return seen;
};
const shellKey = 'src/app/routes/app/app-shell.tsx';
const screens = ['inbox', 'contacts', 'services', 'users', 'my-account'];
for (const screen of screens) {
  const key = `src/app/routes/app/${screen}.tsx`;
  if (!manifest[key] || !manifest[shellKey]) {
    console.error(`check-bundle-size: no chunk for ${key} in the manifest`);
    failed = true;
    continue;
  }
  const files = [...closure([entryKey, shellKey, key])].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const size = files.reduce((sum, f) => sum + gz(f), 0);
  const own = gz(manifest[key].file);
  console.log(`app /${screen}: ${kb(size)} gzipped with entry and shell (screen chunk ${kb(own)}), ${files.length} file(s) (budget ${appBudgetKb} kB)`);
  if (size > appBudgetKb * 1000) {
    console.error(`check-bundle-size: FAIL, /${screen} loads ${kb(size)} gzipped, over the ${appBudgetKb} kB budget`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log('check-bundle-size: OK');
