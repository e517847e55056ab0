/**
 * docs/deploy.md names context keys, secrets and Stripe events; this keeps it true to the code: the
 * context table lists exactly the keys infra/ reads, the secrets it names are the stack's, and the
 * Stripe events are the ones the webhook acts on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { billingEventTypes } from '#domain/billing/billing.ts';
import { stageTemplates } from './test-support/stage-templates.ts';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const deployDoc = read('docs/deploy.md');
const sectionOf = (heading: string) => {
  const start = deployDoc.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const next = deployDoc.slice(start + heading.length).search(/^#{2,3} /m);
  return deployDoc.slice(start, next < 0 ? undefined : start + heading.length + next);
};

/** A name as the template writes it, with `<account>` and `<region>` for the pseudo parameters; undefined when it is CloudFormation's. */
function nameOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] } | undefined)?.['Fn::Join'];
  if (!join) return undefined;
  const pseudo: Record<string, string> = { 'AWS::AccountId': '<account>', 'AWS::Region': '<region>' };
  const parts = join[1].map((part) => (typeof part === 'string' ? part : pseudo[(part as { Ref?: string }).Ref ?? '']));
  return parts.every((part) => part !== undefined) ? parts.join(join[0]) : undefined;
}

/** infra/ sources that build the app (not tests, not the local runtime). */
const infraSources = ['infra', 'infra/constructs'].flatMap((dir) =>
  readdirSync(new URL(`../${dir}`, import.meta.url))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => read(`${dir}/${name}`)),
);

describe('docs/deploy.md', () => {
  it('lists exactly the context keys the app reads', () => {
    const read = new Set(infraSources.flatMap((text) => [...text.matchAll(/(?:tryGetContext|context|wholeContext)\('(\w+)'\)/g)].map((m) => m[1]!)));
    const section = deployDoc.slice(deployDoc.indexOf('### 3. Choose the context values'), deployDoc.indexOf('What is **not** a context key'));
    const documented = new Set([...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!));
    expect(read.size).toBeGreaterThan(10);
    expect([...documented].sort()).toEqual([...read].sort());
  });

  it('names only secrets the stack creates', () => {
    const stack = read('infra/stack.ts');
    const created = new Set([...stack.matchAll(/new secretsmanager\.Secret\(this, '(\w+)'/g)].map((m) => m[1]!));
    const named = new Set([...deployDoc.matchAll(/`(\w+)…`/g)].map((m) => m[1]!));
    expect([...named].sort()).toEqual([...created].sort());
  });

  it("names the Stripe events the webhook acts on, and the worker's settings where they live", () => {
    for (const event of billingEventTypes) expect(deployDoc).toContain(`\`${event}\``);
    const worker = read('infra/constructs/channel-worker.ts');
    expect(worker).toContain('export const workerTaskSize');
    expect(worker).toContain('export function workerCapacity');
  });

  it('says how to re-create prod after a destroy, naming every resource prod keeps under a fixed name', () => {
    const { edge, main } = stageTemplates('prod');
    const kept = [edge, main].flatMap((template) =>
      Object.values(template.toJSON().Resources as Record<string, { DeletionPolicy?: string; Properties?: Record<string, unknown> }>)
        .filter((r) => r.DeletionPolicy === 'Retain')
        .map((r) => nameOf(r.Properties?.BucketName ?? r.Properties?.LogGroupName ?? r.Properties?.TableName))
        .filter((name): name is string => name !== undefined),
    );
    expect(kept).toEqual(expect.arrayContaining(['conversa-prod-media-<account>-<region>', 'aws-waf-logs-conversa-prod']));
    const section = sectionOf('### Re-create prod after a destroy');
    for (const name of kept) expect(section, name).toContain(`\`${name}\``);
    // The retained data key is what opens the retained table's sealed channel credentials.
    expect(section).toContain('DataKey');
  });

  it('lists what to ask AWS for before go-live: Lambda concurrency and SES production access', () => {
    const section = sectionOf('## Before go-live');
    expect(section).toMatch(/concurrent executions/i);
    expect(section).toMatch(/production access/);
    expect(section).toContain('aws lambda get-account-settings');
  });

  it("keeps a stage's context in cdk.json's `stages` block (a forgotten -c cannot drop the domain)", () => {
    expect(sectionOf('### 3. Choose the context values')).toContain('"stages"');
  });
});
