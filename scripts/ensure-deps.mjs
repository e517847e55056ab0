// Installs the npm dependencies when they are missing or older than package-lock.json.
// `npm install` rather than `npm ci`: the registry this project is built from does not serve the
// other platforms' optional binaries (Tailwind's oxide for macOS and Windows, for example), so the
// lock file cannot list them and `npm ci`'s strict check refuses it. With a lock file present,
// `npm install` installs exactly the locked versions and leaves the lock file as it is.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';

export function ensureDependencies() {
  const marker = 'node_modules/.package-lock.json';
  const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000;
  if (stale) {
    console.log('> npm install');
    execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
  }
}

/** Newest modification time under the given paths (files or folders), skipping build output. */
export function newest(paths) {
  let latest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      if (/(node_modules|dist)$/.test(p)) return;
      // readdirSync, not a shell's `ls` per folder: each browser test file checks the build (about 0.5 s saved per check).
      for (const entry of readdirSync(p)) walk(`${p}/${entry}`);
    } else latest = Math.max(latest, s.mtimeMs);
  };
  paths.forEach(walk);
  return latest;
}

/** Builds the web app when its output is missing or older than its sources. */
export function ensureWebBuild() {
  const out = 'web/dist/index.html';
  const sources = newest(['web/src', 'web/build', 'web/index.html', 'web/public', 'web/vite.config.ts', 'shared/contracts', 'package-lock.json']);
  if (!existsSync(out) || statSync(out).mtimeMs < sources) {
    console.log('> npm run build:web');
    // Always the production build, also when called from inside a test run (Vitest sets NODE_ENV=test,
    // which would make Vite bundle React's development runtime).
    execSync('npm run build:web', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
}
