/**
 * The operator's smoke test (scripts/smoke.ts, `npm run smoke`) against `npm start`'s own entry,
 * as CI runs it: every check passes on a fresh local stack, as a child process with the same
 * arguments an operator types. A check that fails prints FAIL and the script exits 1.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';

let runtime: RunningRuntime;

beforeAll(async () => {
  runtime = await spawnLocalRuntime();
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
});

function smoke(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/smoke.ts', ...args], { env: { ...process.env, NODE_NO_WARNINGS: '1' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run smoke against the local stack', () => {
  it('passes every check for an account owner, and says which failed for a wrong password', async () => {
    const call = callAt(() => runtime.url);
    const email = uniqueEmail('smoke');
    const registered = await call('POST', '/auth/register', { body: { name: 'Operadora', email, password: strongPassword } });
    expect(registered.status).toBe(201);
    expect((await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: 'Conta de fumaça' } })).status).toBe(201);

    const passed = await smoke(['--url', runtime.url, '--email', email, '--password', strongPassword]);
    expect(passed.output).not.toContain('FAIL');
    for (const name of [
      'security headers',
      'sign-in',
      'realtime through the site',
      'presigned upload',
      'presigned download (account export)',
      'Telegram webhook reachable with no User-Agent',
      'Stripe webhook refuses a bad signature',
      'channel worker alive',
      'clean-up',
    ]) {
      expect(passed.output).toContain(`ok    ${name}`);
    }
    expect(passed.output).toMatch(/9\/9 checks passed/);
    expect(passed.code).toBe(0);

    const refused = await smoke(['--url', runtime.url, '--email', email, '--password', 'Errada#123']);
    expect(refused.output).toContain('FAIL  sign-in');
    expect(refused.code).toBe(1);
  }, 120_000);
});

describe('npm run smoke when no channel worker runs', () => {
  it('fails the worker check with a line saying so, and the health route names no worker or account', async () => {
    const apiOnly = await spawnLocalRuntime({ RUNTIME_WORKER: 'off' });
    try {
      const call = callAt(() => apiOnly.url);
      const health = await call('GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ workers: { live: 0, freshestBeatSeconds: null } });

      const email = uniqueEmail('smoke-no-worker');
      const registered = await call('POST', '/auth/register', { body: { name: 'Operadora', email, password: strongPassword } });
      expect((await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: 'Conta sem worker' } })).status).toBe(201);
      const failed = await smoke(['--url', apiOnly.url, '--email', email, '--password', strongPassword]);
      expect(failed.output).toMatch(
        /FAIL {2}channel worker alive: no channel worker beat within its lease period \(no worker heartbeat at all\): WhatsApp sessions and sends are not being served/,
      );
      expect(failed.output).toMatch(/8\/9 checks passed/);
      expect(failed.code).toBe(1);
    } finally {
      await apiOnly.stop();
    }
  }, 120_000);
});
