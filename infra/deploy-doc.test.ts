/**
 * docs/deploy.md names context keys, secrets and Stripe events; this keeps it true to the code: the
 * context table lists exactly the keys infra/ reads, the secrets it names are the stack's, and the
 * Stripe events are the ones the webhook acts on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { billingEventTypes } from '#domain/billing/billing.ts';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const deployDoc = read('docs/deploy.md');

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
});
