#!/usr/bin/env node
// Size budget of the landing page: the JavaScript a first visit to / downloads before it can run
// (the entry chunk and everything it imports statically), gzipped, must stay under 120 kB.
// App screens are lazy chunks and do not count. Reads Vite's manifest (build.manifest: true).
// Usage: node scripts/check-bundle-size.mjs [--build] [--budget-kb 120]
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
if (total > budgetKb * 1000) {
  console.error(`check-bundle-size: FAIL, the landing page's initial JS is ${kb(total)} gzipped, over the ${budgetKb} kB budget`);
  process.exit(1);
}
console.log('check-bundle-size: OK');
