/**
 * The SSRF-safe sender against real sockets on loopback. Receivers listen on 127.0.0.1 (which
 * `allowLoopback` lets through) and on 127.0.0.2 (which nothing lets through), so a redirect hop
 * that is not checked would reach a live server, and the test would see its hit. Host names are
 * resolved by injected lookups; the sender connects to the addresses they answer.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSafeWebhookSender, type HostLookup } from './safe-webhook-sender.ts';

interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Route = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void;

interface Receiver {
  port: number;
  hits: Hit[];
  routes: Map<string, Route>;
  server: http.Server;
}

async function receiver(host: string): Promise<Receiver> {
  const hits: Hit[] = [];
  const routes = new Map<string, Route>();
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      hits.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const route = routes.get(request.url!.replace(/\?.*$/, ''));
      if (route) route(request, response, body);
      else response.end(`ok ${request.method} ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { port: (server.address() as AddressInfo).port, hits, routes, server };
}

let main: Receiver;
let other: Receiver;
beforeAll(async () => {
  main = await receiver('127.0.0.1');
  other = await receiver('127.0.0.2');
});
afterEach(() => {
  for (const r of [main, other]) {
    r.hits.length = 0;
    r.routes.clear();
    r.server.closeAllConnections();
  }
});
afterAll(async () => {
  for (const r of [main, other]) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
});

const post = { headers: { 'content-type': 'application/json', 'conversa-signature': 't=1,v1=ab' }, body: '{"id":"evt_1"}' };
const closed = createSafeWebhookSender();
const local = (options: Parameters<typeof createSafeWebhookSender>[0] = {}) => createSafeWebhookSender({ allowLoopback: true, ...options });
/** A lookup answering from a fixed table, as a resolver would. */
const table =
  (answers: Record<string, string[]>): HostLookup =>
  async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
const redirectTo =
  (location: string, status = 307): Route =>
  (_request, response) => {
    response.writeHead(status, { location });
    response.end();
  };

/** A plain GET, outside the sender: proves an address the sender refuses is live. */
function rawGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        resolve(response.statusCode!);
      })
      .on('error', reject);
  });
}

describe('a delivery that may go', () => {
  it('posts the body and the caller headers, with Host and Content-Length its own', async () => {
    const result = await local().post({
      url: `http://127.0.0.1:${main.port}/hook?x=1`,
      headers: { ...post.headers, Host: 'evil.test', 'Content-Length': '1' },
      body: post.body,
    });
    expect(result).toMatchObject({ outcome: 'answered', status: 200, bodySnippet: `ok POST ${post.body}` });
    expect(main.hits).toHaveLength(1);
    expect(main.hits[0]).toMatchObject({ method: 'POST', url: '/hook?x=1', body: post.body });
    expect(main.hits[0]!.headers).toMatchObject({
      host: `127.0.0.1:${main.port}`,
      'content-length': String(Buffer.byteLength(post.body)),
      'content-type': 'application/json',
      'conversa-signature': 't=1,v1=ab',
    });
  });

  it('answers a receiver error with its status, not as a refusal', async () => {
    main.routes.set('/fail', (_q, response) => {
      response.writeHead(503);
      response.end('indisponível');
    });
    expect(await local().post({ url: `http://127.0.0.1:${main.port}/fail`, ...post })).toMatchObject({
      outcome: 'answered',
      status: 503,
      bodySnippet: 'indisponível',
    });
  });
});

describe('refused destinations (nothing is sent)', () => {
  it.each([
    ['http://127.0.0.1:PORT/', 'loopback'],
    ['http://[::1]:PORT/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://10.0.0.1/', 'rede privada'],
    ['http://172.16.8.9/', 'rede privada'],
    ['http://172.31.0.1/', 'rede privada'],
    ['http://192.168.0.1/', 'rede privada'],
    ['http://100.64.1.1/', 'CGNAT'],
    ['http://0.0.0.0:PORT/', 'não especificado'],
    ['http://0:PORT/', 'não especificado'],
    ['http://2130706433:PORT/', 'loopback'],
    ['http://0x7f.1:PORT/', 'loopback'],
    ['http://0x7f000001:PORT/', 'loopback'],
    ['http://017700000001:PORT/', 'loopback'],
    ['http://127.1:PORT/', 'loopback'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]:PORT/', 'loopback'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://[fd00:ec2::254]/', 'metadados'],
    ['http://[fe80::1]/', 'link-local'],
    ['https://10.0.0.1/', 'rede privada'],
  ])('%s', async (template, label) => {
    const result = await closed.post({ url: template.replace('PORT', String(main.port)), ...post });
    expect(result).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(result.outcome === 'refused' && result.detail).toContain(label);
    expect(main.hits).toEqual([]);
  });

  it('the spellings of 127.0.0.1 refused above do reach the receiver where loopback is allowed', async () => {
    for (const host of ['2130706433', '0x7f.1', '017700000001', '[::ffff:127.0.0.1]']) {
      expect(await local().post({ url: `http://${host}:${main.port}/`, ...post }), host).toMatchObject({ outcome: 'answered', status: 200 });
    }
    expect(main.hits).toHaveLength(4);
  });

  it('refuses 0.0.0.0 even where loopback is allowed, though it reaches the local receiver', async () => {
    expect(await rawGet(`http://0.0.0.0:${main.port}/`)).toBe(200);
    main.hits.length = 0;
    expect(await local().post({ url: `http://0.0.0.0:${main.port}/`, ...post })).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(main.hits).toEqual([]);
  });

  it.each([
    ['ftp://example.com/hook'],
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['not a url'],
    ['http://user:senha@example.com/'],
    ['http://:senha@example.com/'],
    ['http://example.com:25/'],
    ['http://example.com:0/'],
    [`https://example.com/${'a'.repeat(2100)}`],
  ])('refuses the URL %s', async (url) => {
    expect(await closed.post({ url, ...post })).toMatchObject({ outcome: 'refused', reason: 'bad_url' });
  });

  it('refuses a host name that resolves to a private address', async () => {
    const sender = createSafeWebhookSender({ lookup: table({ 'hooks.cliente.com.br': ['10.20.30.40'] }) });
    const result = await sender.post({ url: 'https://hooks.cliente.com.br/conversa', ...post });
    expect(result).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(result.outcome === 'refused' && result.detail).toBe('hooks.cliente.com.br aponta para 10.20.30.40 (rede privada), que não recebe webhooks.');
  });

  it('refuses a host name when any one of its addresses is private, public ones notwithstanding', async () => {
    const sender = local({ lookup: table({ 'misto.example': ['127.0.0.1', '192.168.10.5'], 'misto6.example': ['2606:4700::1', 'fd12::1'] }) });
    expect(await sender.post({ url: `http://misto.example:${main.port}/`, ...post })).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(await sender.post({ url: 'http://misto6.example/', ...post })).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(main.hits).toEqual([]);
  });

  it('refuses a host name that does not resolve, or resolves to nothing', async () => {
    const sender = createSafeWebhookSender({
      lookup: async (hostname) => {
        if (hostname === 'vazio.example') return [];
        throw Object.assign(new Error('queryA ESERVFAIL'), { code: 'ESERVFAIL' });
      },
    });
    expect(await sender.post({ url: 'https://vazio.example/', ...post })).toMatchObject({ outcome: 'refused', reason: 'dns' });
    expect(await sender.post({ url: 'https://falha.example/', ...post })).toMatchObject({
      outcome: 'refused',
      reason: 'dns',
      detail: 'Não foi possível resolver falha.example (ESERVFAIL).',
    });
  });

  it('resolves names with the system resolver by default (localhost is loopback)', async () => {
    expect(await closed.post({ url: `http://localhost:${main.port}/`, ...post })).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(await closed.post({ url: 'http://nao-existe.invalid/', ...post })).toMatchObject({ outcome: 'refused', reason: 'dns' });
    expect(main.hits).toEqual([]);
  });
});

describe('DNS rebinding', () => {
  it('connects to the address it checked: a resolver that turns private after the check never wins', async () => {
    let calls = 0;
    const rebinding: HostLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '127.0.0.1' : '10.255.255.1', family: 4 }];
    };
    const result = await local({ lookup: rebinding }).post({ url: `http://rebind.example:${main.port}/pinned`, ...post });
    expect(result).toMatchObject({ outcome: 'answered', status: 200 });
    expect(calls).toBe(1);
    // Host (and TLS's server name) stay the URL's host name; only the address is pinned.
    expect(main.hits[0]!.headers.host).toBe(`rebind.example:${main.port}`);
  });

  it('resolves and checks again on a redirect to the same name', async () => {
    let calls = 0;
    const rebinding: HostLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '127.0.0.1' : '10.255.255.1', family: 4 }];
    };
    main.routes.set('/first', redirectTo(`http://rebind.example:${main.port}/second`));
    const result = await local({ lookup: rebinding }).post({ url: `http://rebind.example:${main.port}/first`, ...post });
    expect(result).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(calls).toBe(2);
    expect(main.hits.map((h) => h.url)).toEqual(['/first']);
  });
});

describe('redirects', () => {
  it('sends the same POST again on 307 and 308', async () => {
    main.routes.set('/a', redirectTo('/b', 307));
    main.routes.set('/b', redirectTo(`http://127.0.0.1:${main.port}/c`, 308));
    const result = await local().post({ url: `http://127.0.0.1:${main.port}/a`, ...post });
    expect(result).toMatchObject({ outcome: 'answered', status: 200 });
    expect(main.hits.map((h) => [h.method, h.url, h.body, h.headers['content-type']])).toEqual([
      ['POST', '/a', post.body, 'application/json'],
      ['POST', '/b', post.body, 'application/json'],
      ['POST', '/c', post.body, 'application/json'],
    ]);
  });

  it.each([301, 302, 303])('continues as a GET without body after %i', async (status) => {
    main.routes.set('/a', redirectTo('/b', status));
    expect(await local().post({ url: `http://127.0.0.1:${main.port}/a`, ...post })).toMatchObject({ outcome: 'answered', status: 200, bodySnippet: 'ok GET ' });
    const second = main.hits[1]!;
    expect([second.method, second.url, second.body]).toEqual(['GET', '/b', '']);
    expect(second.headers).not.toHaveProperty('content-type');
    expect(second.headers).not.toHaveProperty('content-length');
  });

  it('answers a 3xx without Location as it is', async () => {
    main.routes.set('/a', (_q, response) => {
      response.writeHead(302);
      response.end();
    });
    expect(await local().post({ url: `http://127.0.0.1:${main.port}/a`, ...post })).toMatchObject({ outcome: 'answered', status: 302 });
  });

  it('drops credentials headers when the redirect leaves the origin', async () => {
    const sender = local({ lookup: table({ 'outro.example': ['127.0.0.1'] }) });
    main.routes.set('/a', redirectTo(`http://outro.example:${main.port}/b`));
    await sender.post({ url: `http://127.0.0.1:${main.port}/a`, headers: { ...post.headers, authorization: 'Bearer x', cookie: 'a=b' }, body: post.body });
    expect(main.hits[0]!.headers).toMatchObject({ authorization: 'Bearer x', cookie: 'a=b' });
    expect(main.hits[1]!.headers).not.toHaveProperty('authorization');
    expect(main.hits[1]!.headers).not.toHaveProperty('cookie');
    expect(main.hits[1]!.headers['conversa-signature']).toBe('t=1,v1=ab');
  });

  it('refuses a redirect to another loopback address that is live', async () => {
    expect(await rawGet(`http://127.0.0.2:${other.port}/`)).toBe(200);
    other.hits.length = 0;
    main.routes.set('/a', redirectTo(`http://127.0.0.2:${other.port}/secret`));
    const result = await local().post({ url: `http://127.0.0.1:${main.port}/a`, ...post });
    expect(result).toMatchObject({ outcome: 'refused', reason: 'blocked_address' });
    expect(other.hits).toEqual([]);
  });

  it.each([
    ['http://0.0.0.0:PORT/secret', 'blocked_address'],
    ['http://169.254.169.254/latest/meta-data/iam/', 'blocked_address'],
    ['http://10.0.0.1/', 'blocked_address'],
    ['http://[::ffff:a00:1]/', 'blocked_address'],
    ['http://2852039166/', 'blocked_address'],
    ['http://interno.example/', 'blocked_address'],
    ['gopher://example.com/', 'bad_url'],
    ['http://user:senha@127.0.0.1:PORT/', 'bad_url'],
  ])('refuses a redirect to %s', async (location, reason) => {
    const sender = local({ lookup: table({ 'interno.example': ['192.168.1.20'] }) });
    main.routes.set('/a', redirectTo(location.replace('PORT', String(main.port))));
    expect(await sender.post({ url: `http://127.0.0.1:${main.port}/a`, ...post })).toMatchObject({ outcome: 'refused', reason });
    expect(main.hits.map((h) => h.url)).toEqual(['/a']);
  });

  it('refuses the redirect past the limit', async () => {
    main.routes.set('/loop', (request, response) => {
      const n = Number(new URL(request.url!, 'http://x').searchParams.get('n') ?? 0);
      response.writeHead(302, { location: `/loop?n=${n + 1}` });
      response.end();
    });
    expect(await local({ maxRedirects: 3 }).post({ url: `http://127.0.0.1:${main.port}/loop`, ...post })).toMatchObject({
      outcome: 'refused',
      reason: 'too_many_redirects',
    });
    expect(main.hits.map((h) => h.url)).toEqual(['/loop', '/loop?n=1', '/loop?n=2', '/loop?n=3']);
  });
});

describe('limits', () => {
  it('gives up on a receiver that never answers', async () => {
    main.routes.set('/silent', () => {});
    expect(await local({ timeoutMs: 300 }).post({ url: `http://127.0.0.1:${main.port}/silent`, ...post })).toMatchObject({
      outcome: 'refused',
      reason: 'timeout',
    });
    expect(main.hits).toHaveLength(1);
  });

  it('gives up on an answer whose body never ends', async () => {
    main.routes.set('/drip', (_q, response) => {
      response.writeHead(200);
      response.write('a');
    });
    expect(await local({ timeoutMs: 300 }).post({ url: `http://127.0.0.1:${main.port}/drip`, ...post })).toMatchObject({
      outcome: 'refused',
      reason: 'timeout',
    });
  });

  it('gives up on a resolver that never answers', async () => {
    const sender = createSafeWebhookSender({ timeoutMs: 300, lookup: () => new Promise(() => {}) });
    expect(await sender.post({ url: 'https://lento.example/', ...post })).toMatchObject({ outcome: 'refused', reason: 'timeout' });
  });

  it('reads a huge answer only up to the cap, closes the connection, and answers its status', async () => {
    let finished: boolean | undefined;
    main.routes.set('/huge', (_q, response) => {
      response.writeHead(201, { 'content-type': 'text/plain' });
      let sent = 0;
      const total = 64 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (sent < total && !response.destroyed) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        if (sent >= total) response.end();
      };
      response.on('close', () => {
        finished = response.writableFinished;
      });
      pump();
    });
    const result = await local({ maxResponseBytes: 8 * 1024 }).post({ url: `http://127.0.0.1:${main.port}/huge`, ...post });
    expect(result).toMatchObject({ outcome: 'answered', status: 201 });
    expect(result.outcome === 'answered' && result.bodySnippet).toBe('x'.repeat(1000));
    await expect.poll(() => finished).toBe(false);
  });

  it('refuses an answer whose headers pass 16 KiB', async () => {
    main.routes.set('/headers', (_q, response) => {
      response.writeHead(200, { 'x-padding': 'p'.repeat(20 * 1024) });
      response.end('ok');
    });
    expect(await local().post({ url: `http://127.0.0.1:${main.port}/headers`, ...post })).toMatchObject({ outcome: 'refused', reason: 'too_large' });
  });

  it('answers a refused connection as a network failure', async () => {
    const gone = await receiver('127.0.0.1');
    await new Promise((resolve) => gone.server.close(resolve));
    expect(await local().post({ url: `http://127.0.0.1:${gone.port}/`, ...post })).toMatchObject({ outcome: 'refused', reason: 'network' });
  });
});

// openssl makes the receiver's self-signed certificate; without it this block is skipped.
const openssl = spawnSync('openssl', ['version']).status === 0;

describe.skipIf(!openssl)('https (openssl)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'safe-sender-tls-'));
  const serverNames: string[] = [];
  let server: https.Server;
  let port: number;
  beforeAll(async () => {
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=hook.example',
      '-addext',
      'subjectAltName=DNS:hook.example',
    ]);
    expect(made.status, String(made.stderr)).toBe(0);
    const credentials = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
    server = https.createServer(
      {
        ...credentials,
        SNICallback: (name, done) => {
          serverNames.push(name);
          done(null, createSecureContext(credentials));
        },
      },
      (_request, response) => response.end('ok'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects to the pinned address with the host name as TLS server name, and checks the certificate', async () => {
    const sender = local({ lookup: table({ 'hook.example': ['127.0.0.1'] }) });
    const result = await sender.post({ url: `https://hook.example:${port}/`, ...post });
    // The receiver's certificate is self-signed: no trusted chain, so no delivery.
    expect(result).toMatchObject({ outcome: 'refused', reason: 'network' });
    expect(result.outcome === 'refused' && result.detail).toContain('SELF_SIGNED');
    expect(serverNames).toEqual(['hook.example']);
  });
});
