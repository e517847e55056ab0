// `npm audit` of the production dependencies: fails on any high or critical advisory, and fails
// just as loudly when the advisory database cannot be asked (an unreachable or refusing audit
// endpoint must never pass as "no advisories"). `NPM_AUDIT=skip` skips it on a machine without
// the endpoint, and says so in a banner.
import { spawnSync } from 'node:child_process';

if (process.env.NPM_AUDIT === 'skip') {
  console.warn('\n!!! npm audit SKIPPED (NPM_AUDIT=skip): production dependencies were NOT checked for advisories !!!\n');
  process.exit(0);
}

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = undefined;
}
const counts = report?.metadata?.vulnerabilities;
if (!counts || report.error) {
  const why = report?.message ?? report?.error?.summary ?? (run.stderr || run.stdout || `exit ${run.status}`).trim();
  console.error(`npm audit could not read the advisory database, so the dependencies are unchecked: ${why}`);
  console.error('Run it where the registry answers POST /-/npm/v1/security/advisories/bulk, or set NPM_AUDIT=skip knowingly.');
  process.exit(1);
}
const serious = Object.values(report.vulnerabilities ?? {}).filter((v) => v.severity === 'high' || v.severity === 'critical');
if (serious.length) {
  console.error(`npm audit: ${serious.length} production dependencies with high or critical advisories:`);
  for (const v of serious) {
    const via = v.via.map((x) => (typeof x === 'string' ? x : `${x.title} (${x.url})`)).join('; ');
    console.error(`  ${v.name} ${v.range} [${v.severity}]${v.fixAvailable ? ' (fix available)' : ''}: ${via}`);
  }
  process.exit(1);
}
console.log(`npm audit: no high or critical advisories in production dependencies (${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low).`);
