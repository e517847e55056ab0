/**
 * The local runtime sends, on every kind of answer, the security headers CloudFront adds in the
 * cloud (infra/site-headers.ts): the app shell, an SPA route, an asset, a missing file, a refused
 * method, API JSON, an API error and the gateway's 404. HSTS is left out: the runtime speaks plain
 * HTTP, where browsers ignore it. A runtime of its own serves a small built app from a temporary
 * folder, so the shell's inline script hash can be checked in the CSP.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptHash, siteHeaders } from '../../infra/site-headers.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { strongPassword, uniqueEmail } from './api.ts';

const inline = 'document.documentElement.dataset.theme = "light";';
let runtime: RunningRuntime;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'conversa-web-'));
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(
    join(webDir, 'index.html'),
    `<!doctype html><html><head><script>${inline}</script><script type="module" src="/assets/app-1.js"></script></head></html>`,
  );
  writeFileSync(join(webDir, 'assets', 'app-1.js'), 'console.log(1)');
  runtime = await spawnLocalRuntime({ WEB_DIR: webDir });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  rmSync(webDir, { recursive: true, force: true });
});

describe('security headers of the local runtime', () => {
  it('are on every kind of answer, as the cloud sends them (without HSTS over HTTP)', async () => {
    const expected = siteHeaders({ mediaOrigin: new URL(runtime.s3Url).origin, shellHtml: '', https: false });
    const requests: [string, string, RequestInit?][] = [
      ['app shell', '/'],
      ['SPA route', '/contatos/123'],
      ['asset', '/assets/app-1.js'],
      ['missing file', '/assets/nada.js'],
      ['refused method on a page', '/', { method: 'POST' }],
      ['API JSON', '/api/auth/register', { method: 'POST', body: JSON.stringify({ name: 'Ana', email: uniqueEmail('headers'), password: strongPassword }) }],
      ['API error', '/api/auth/me'],
      ['API bad JSON', '/api/auth/login', { method: 'POST', body: '{' }],
      ['API 404', '/api/nada'],
    ];
    const statuses: Record<string, number> = {};
    for (const [what, path, init] of requests) {
      const res = await fetch(`${runtime.url}${path}`, { ...init, headers: init?.body ? { 'content-type': 'application/json' } : {} });
      await res.arrayBuffer();
      statuses[what] = res.status;
      for (const [name, value] of Object.entries(expected)) {
        if (name === 'content-security-policy') continue;
        expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
      }
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, `${what}: CSP`).toContain("frame-ancestors 'none'");
      expect(csp, `${what}: CSP`).toContain(`script-src 'self' ${scriptHash(inline)}`);
      expect(csp, `${what}: CSP`).toContain(`connect-src 'self' ${new URL(runtime.s3Url).origin}`);
      expect(res.headers.get('strict-transport-security'), `${what}: no HSTS over HTTP`).toBeNull();
    }
    expect(statuses).toEqual({
      'app shell': 200,
      'SPA route': 200,
      asset: 200,
      'missing file': 404,
      'refused method on a page': 405,
      'API JSON': 201,
      'API error': 401,
      'API bad JSON': 400,
      'API 404': 404,
    });
  });

  it('are the cloud list exactly, with HSTS only over HTTPS', () => {
    const local = siteHeaders({ mediaOrigin: 'http://127.0.0.1:1', shellHtml: '', https: false });
    const cloud = siteHeaders({ mediaOrigin: 'http://127.0.0.1:1', shellHtml: '' });
    expect(Object.keys(cloud).filter((name) => !(name in local))).toEqual(['strict-transport-security']);
    expect(cloud['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
  });
});
