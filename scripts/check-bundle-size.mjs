#!/usr/bin/env node
// Size budgets, gzipped, read from Vite's manifest (build.manifest: true):
// - the landing page: the JavaScript a first visit to / downloads before it can run (the entry
//   chunk and everything it imports statically) must stay under 100 kB, and hold no signed-in code:
//   no app shell or screen, no realtime client, no API client, no TanStack Query (they come with
//   the pages that need them, app/lazy-page.tsx);
// - the sign-in page: the entry plus the login chunk, its form and the query scope, under 170 kB;
// - each signed-in screen (inbox, contacts, connections, users, departments, tags, quick replies, my account): the entry, the query
//   scope, the app shell and the screen's chunk with their static imports must stay under 230 kB.
// Usage: node scripts/check-bundle-size.mjs [--build] [--dist web/dist] [--budget-kb 100] [--login-budget-kb 170] [--app-budget-kb 230]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dist = option('--dist', join(root, 'web', 'dist'));
const manifestPath = join(dist, '.vite', 'manifest.json');
const budgetKb = Number(option('--budget-kb', 100));
const loginBudgetKb = Number(option('--login-budget-kb', 170));
const appBudgetKb = Number(option('--app-budget-kb', 230));

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

// The entry plus its static imports, transitively, and the app's start (src/boot.tsx, which the
// entry imports once the prerendered page has painted) with its own: what every page loads.
const initial = new Set();
const visit = (key) => {
  if (initial.has(key)) return;
  initial.add(key);
  for (const dep of manifest[key].imports ?? []) visit(dep);
};
visit(entryKey);
if (!manifest[entryKey].dynamicImports?.includes('src/boot.tsx')) {
  console.error('check-bundle-size: the entry does not import src/boot.tsx');
  process.exit(2);
}
visit('src/boot.tsx');

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

// Signed-in code the landing must not load: by source module (the manifest's keys) and by what
// only that code contains (the realtime URL, the bearer header, TanStack Query's cache classes).
const appModules = [/^src\/app\/routes\/app\//, /^src\/app\/query-scope\.tsx$/, /^src\/lib\/(realtime|api-client|query-client)\.ts$/, /^src\/features\//];
const appMarkers = [
  ['the realtime client', '/ws?ticket='],
  ['the API client', 'Bearer '],
  ['TanStack Query', 'QueryObserver'],
  ['zod', 'invalid_type'],
];
for (const key of initial) {
  if (appModules.some((pattern) => pattern.test(key))) {
    console.error(`check-bundle-size: FAIL, the landing page loads ${key} (${manifest[key].file})`);
    failed = true;
  }
}
for (const r of rows) {
  const text = readFileSync(join(dist, r.file), 'utf8');
  for (const [what, marker] of appMarkers) {
    if (text.includes(marker)) {
      console.error(`check-bundle-size: FAIL, the landing page's ${r.file} holds ${what} ("${marker}")`);
      failed = true;
    }
  }
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
const scopeKey = 'src/app/query-scope.tsx';
const loginKey = 'src/app/routes/auth/login.tsx';
if (!manifest[scopeKey] || !manifest[loginKey]) {
  console.error(`check-bundle-size: no chunk for ${scopeKey} or ${loginKey} in the manifest`);
  failed = true;
} else {
  // The page's chunk paints the heading; its form (and zod) is a chunk the page asks for at once.
  const formKey = 'src/features/auth/components/login-form.tsx';
  const files = [...closure([entryKey, scopeKey, loginKey, formKey])].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const size = files.reduce((sum, f) => sum + gz(f), 0);
  console.log(`/login: ${kb(size)} gzipped with entry, query scope and form, ${files.length} file(s) (budget ${loginBudgetKb} kB)`);
  if (size > loginBudgetKb * 1000) {
    console.error(`check-bundle-size: FAIL, /login loads ${kb(size)} gzipped, over the ${loginBudgetKb} kB budget`);
    failed = true;
  }
}
const shellKey = 'src/app/routes/app/app-shell.tsx';
const screens = [
  'inbox',
  'contacts',
  'services',
  'users',
  'departments',
  'tags',
  'quick-replies',
  'business-hours',
  'automations',
  'reports',
  'webhooks',
  'my-account',
];
for (const screen of screens) {
  const key = `src/app/routes/app/${screen}.tsx`;
  if (!manifest[key] || !manifest[shellKey]) {
    console.error(`check-bundle-size: no chunk for ${key} in the manifest`);
    failed = true;
    continue;
  }
  const files = [...closure([entryKey, scopeKey, shellKey, key])].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const size = files.reduce((sum, f) => sum + gz(f), 0);
  const own = gz(manifest[key].file);
  console.log(
    `app /${screen}: ${kb(size)} gzipped with entry, query scope and shell (screen chunk ${kb(own)}), ${files.length} file(s) (budget ${appBudgetKb} kB)`,
  );
  if (size > appBudgetKb * 1000) {
    console.error(`check-bundle-size: FAIL, /${screen} loads ${kb(size)} gzipped, over the ${appBudgetKb} kB budget`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log('check-bundle-size: OK');
