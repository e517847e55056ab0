/**
 * AWS's CloudFormation linter (cfn-lint, a Python tool) over the templates of the whole app, both
 * stages: the edge stack, the main stack and its nested routes stack, synthesised as `cdk synth`
 * writes them (bundling skipped: assets do not change the templates' checks). Any error or warning
 * fails the test, but W3005 (a `DependsOn` that a `GetAtt` or `Ref` already implies), which CDK
 * writes on purpose for every function's role policy.
 *
 * cfn-lint is not an npm or Debian package; where it is not on PATH (`pip install cfn-lint`,
 * README), this test is skipped and says so. ADR-0049.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stages } from './stage.ts';
import { stageTemplates } from './test-support/stage-templates.ts';

/** The checks left out, each with its reason. */
export const ignoredChecks = { W3005: "CDK writes DependsOn on every function's role policy, which a GetAtt also implies" } as const;

/** `cfn-lint` on PATH, or where `pip install --user` puts it (scripts/test.mjs). */
const cfnLint = ['cfn-lint', join(homedir(), '.local', 'bin', 'cfn-lint')].find(
  (command) => spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0,
);
const version = cfnLint ? spawnSync(cfnLint, ['--version'], { encoding: 'utf8' }).stdout.trim() : null;
if (!version) console.warn('[cfn-lint] not on PATH: the templates are not linted on this machine (pip install cfn-lint)');

const outdir = mkdtempSync(join(tmpdir(), 'conversa-cfn-lint-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** cfn-lint's findings, one `path:line:col: [rule] message` a line; none is an empty list. */
function lint(templates: string[]): string[] {
  try {
    execFileSync(cfnLint!, ['--format', 'parseable', '--ignore-checks', ...Object.keys(ignoredChecks), '--', ...templates], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return [];
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}`.split('\n').filter(Boolean);
  }
}

describe.skipIf(!version)(`cfn-lint (${version ?? 'not installed'})`, () => {
  for (const stage of stages) {
    it(`finds nothing in the ${stage} stage's templates (edge, main, nested routes)`, () => {
      // The stage's cloud assembly, synthesised once for the infra project (infra/test-support/synth-stages.ts).
      const { templateFiles: templates } = stageTemplates(stage);
      const names = templates.map((t) => t.split('/').pop()!).sort();
      // The routes fill as many nested stacks as they need (`Routes`, `Routes2`, ...: infra/constructs/http-api.ts).
      const nested = names.filter((name) => name.startsWith(`Conversa${stage}HttpRoutes`) && name.endsWith('.nested.template.json'));
      expect(nested.length).toBeGreaterThan(0);
      expect(names.filter((name) => !nested.includes(name))).toEqual([`Conversa-${stage}.template.json`, `ConversaEdge-${stage}.template.json`]);
      expect(lint(templates).join('\n')).toBe('');
    }, 300_000);
  }

  it('does report a broken template (the check is not a no-op)', () => {
    const broken = join(outdir, 'broken.template.json');
    writeFileSync(broken, JSON.stringify({ Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 'soon' } } } }));
    expect(lint([broken]).join('\n')).toMatch(/E3012:'soon' is not of type 'integer'/);
  });
});
