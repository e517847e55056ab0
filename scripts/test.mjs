// `npm test`: installs what is missing (npm packages, Debian's chromium for the browser tests),
// type-checks, lints and checks formatting and unused code, builds the web app, runs every test
// project, checks the bundle budget, then audits the production dependencies (scripts/audit.mjs).
import { execSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { ensureDependencies, ensureWebBuild } from './ensure-deps.mjs';

const run = (cmd) => {
  console.log(`> ${cmd}`);
  execSync(cmd, { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1' } });
};

ensureDependencies();
if (!existsSync('/usr/bin/chromium')) {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  run(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`);
}
// AWS's CloudFormation linter is a Python tool (no npm or Debian package): installed with pip when
// missing and PyPI is reachable; otherwise infra/cfn-lint.test.ts is skipped and says so.
if (execSync('command -v cfn-lint || command -v ~/.local/bin/cfn-lint || true', { encoding: 'utf8' }).trim() === '') {
  try {
    run('python3 -m pip install --quiet --user cfn-lint');
  } catch {
    console.warn('cfn-lint could not be installed (no PyPI here?): the CloudFormation templates will not be linted');
  }
}
run('npx tsc --noEmit -p tsconfig.json');
// Lint and format check (Biome), then unused files, exports and dependencies (knip).
run('npx biome ci --error-on-warnings .');
run('npx knip');
ensureWebBuild();
// Unit, web and infra first (one vitest, their groups in turn); then integration and the browser
// tests as two vitest processes at once: each mostly waits on its own local runtime (and Chromium),
// so together they take about the longer one's time instead of the sum (ADR-0201). Integration
// streams here; the browser tests' output is kept in .tmp/e2e.log and printed when both are done.
run('npx vitest run --project unit --project web --project infra');
// The browser tests' process also runs the integration files with runtimes of their own
// ('integration-own', after the browser tests), so the two end closer together (ADR-0201).
await Promise.all([vitestProcess(['integration']), vitestProcess(['e2e', 'integration-own'], '.tmp/e2e.log')]).then((codes) => {
  if (existsSync('.tmp/e2e.log')) process.stdout.write(readFileSync('.tmp/e2e.log'));
  const failed = ['integration', 'e2e and integration-own'].filter((_, i) => codes[i] !== 0);
  if (failed.length) {
    console.error(`vitest failed: ${failed.join(', ')}`);
    process.exit(1);
  }
});
if (existsSync('scripts/check-bundle-size.mjs')) run('node scripts/check-bundle-size.mjs');
run('node scripts/audit.mjs');

/** `vitest run --project <name>...`, its output to the terminal or to `logFile`; resolves with its exit code. */
function vitestProcess(projects, logFile) {
  const args = projects.flatMap((project) => ['--project', project]);
  console.log(`> npx vitest run ${args.join(' ')}${logFile ? ` (output in ${logFile})` : ''}`);
  const child = spawn('npx', ['vitest', 'run', ...args], {
    stdio: ['ignore', logFile ? 'pipe' : 'inherit', logFile ? 'pipe' : 'inherit'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  if (logFile) mkdirSync('.tmp', { recursive: true });
  const log = logFile ? createWriteStream(logFile) : null;
  if (log) {
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
  }
  // 'close' comes once both streams have ended; the log is complete once its own 'finish' has.
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const status = signal ? 1 : (code ?? 1);
      if (log) log.end(() => resolve(status));
      else resolve(status);
    }),
  );
}
