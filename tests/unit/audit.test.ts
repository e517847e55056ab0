/**
 * scripts/audit.mjs against a registry stand-in speaking npm's audit wire format (the bulk
 * advisory endpoint, and packuments for the packages npm looks up): a high advisory in a
 * production dependency fails, a refusing endpoint is never "clean" (a banner; a failure with NPM_AUDIT=require), and no advisory passes.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

type Mode = 'high advisory' | 'refused' | 'clean';
let server: Server | undefined;

afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A registry that answers the audit as `mode` says, and packuments with the installed versions. */
async function registry(mode: Mode): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (mode === 'refused') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
      if (req.method === 'GET') {
        const name = decodeURIComponent((req.url ?? '/').slice(1));
        const version = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version as string;
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ name, 'dist-tags': { latest: version }, versions: { [version]: { name, version } } }));
      }
      const advisory = {
        id: 1,
        url: 'https://example.com/advisories/1',
        title: 'Prototype pollution',
        severity: 'high',
        vulnerable_versions: '>=0.0.0',
        cwe: [],
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mode === 'high advisory' ? { zod: [advisory] } : {}));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

function audit(registryUrl: string, mode = ''): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/audit.mjs'], { env: { ...process.env, npm_config_registry: registryUrl, NPM_AUDIT: mode } });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm audit step', () => {
  it('fails on a high advisory in a production dependency, naming it', async () => {
    const { code, output } = await audit(await registry('high advisory'));
    expect(code).toBe(1);
    expect(output).toContain('zod');
    expect(output).toContain('Prototype pollution');
  }, 60_000);

  it('never reports a refusing endpoint as clean: a banner says nothing was audited (and NPM_AUDIT=require fails)', async () => {
    const url = await registry('refused');
    const lenient = await audit(url);
    expect(lenient.output).toContain('were NOT audited');
    expect(lenient.output).not.toContain('no high or critical advisories');
    expect(lenient.code).toBe(0);
    const strict = await audit(url, 'require');
    expect(strict.output).toContain('were NOT audited');
    expect(strict.code).toBe(1);
  }, 60_000);

  it('passes with no advisories', async () => {
    const { code, output } = await audit(await registry('clean'));
    expect(output).toContain('no high or critical advisories');
    expect(code).toBe(0);
  }, 60_000);
});
