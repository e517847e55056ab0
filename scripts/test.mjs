// `npm test`: installs what is missing (npm packages, Debian's chromium for the browser tests),
// type-checks, lints and checks formatting and unused code, builds the web app, runs every test
// project, checks the bundle budget, then audits the production dependencies (scripts/audit.mjs).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
run('npx vitest run');
if (existsSync('scripts/check-bundle-size.mjs')) run('node scripts/check-bundle-size.mjs');
run('node scripts/audit.mjs');
