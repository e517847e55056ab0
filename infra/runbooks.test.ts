/**
 * docs/runbooks/ is where an alarm sends an operator; this keeps it true to the stack: every alarm
 * of the synthesised app ends its description with a runbook that exists, every runbook is linked
 * from the index, and the names the runbooks use (CloudFormation logical ids, repository paths,
 * other runbooks) are the stack's and the repository's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runbookDir } from './constructs/operations.ts';
import { stageTemplates } from './test-support/stage-templates.ts';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const exists = (path: string) => existsSync(new URL(path, root));

const runbooks = readdirSync(new URL(runbookDir, root)).filter((name) => name.endsWith('.md') && name !== 'README.md');
const index = read(`${runbookDir}README.md`);

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;
let resources: Resources;
beforeAll(() => {
  const { edge, main } = stageTemplates('prod');
  resources = Object.assign({}, ...[edge, main].map((t) => t.toJSON().Resources as Resources));
});

describe('every alarm', () => {
  it('ends its description with a runbook under docs/runbooks/ that exists', () => {
    const alarms = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(20);
    for (const [id, alarm] of alarms) {
      const description = String(alarm.Properties?.AlarmDescription ?? '');
      const named = /Runbook: (docs\/runbooks\/[\w.-]+\.md)$/.exec(description)?.[1];
      expect(named, `${id}: ${description}`).toBeDefined();
      expect(exists(named!), `${id} names ${named}`).toBe(true);
      expect(description, id).not.toContain('docs/decisions.md');
    }
  });
});

describe('docs/runbooks/', () => {
  it('links every runbook from its README.md, and links only runbooks that exist', () => {
    expect(runbooks.length).toBeGreaterThanOrEqual(4);
    const linked = new Set([...index.matchAll(/\]\(([\w.-]+\.md)\)/g)].map((m) => m[1]!));
    expect([...linked].sort()).toEqual([...runbooks].sort());
  });

  it('has the four procedures: dead-letter replay, PITR restore, data key rotation, taking a worker out', () => {
    expect(runbooks).toEqual(expect.arrayContaining(['dead-letter-replay.md', 'restore-table-from-pitr.md', 'rotate-data-key.md', 'taking-a-worker-out.md']));
  });

  it('names only logical ids the stack has, and only repository paths and runbooks that exist', () => {
    for (const name of ['README.md', ...runbooks]) {
      const text = read(`${runbookDir}${name}`);
      for (const [, id] of text.matchAll(/`([A-Z][A-Za-z0-9]+[0-9A-F]{8})`/g)) expect(Object.keys(resources), `${name}: ${id}`).toContain(id);
      for (const [, path] of text.matchAll(/`((?:connectors|functions|shared|infra|docs|bench)\/[\w./-]+\.\w+)`/g))
        expect(exists(path!), `${name}: ${path}`).toBe(true);
      for (const [, other] of text.matchAll(/(?<![\w/-])([a-z]+(?:-[a-z]+)+\.md)\b/g)) expect(exists(`${runbookDir}${other}`), `${name}: ${other}`).toBe(true);
    }
  });
});
