/**
 * An operator's smoke test of a deployed stack (or of `npm start`), end to end, in well under two
 * minutes: `npm run smoke -- --url https://<site> --email <user> --password <password>` (or
 * SMOKE_URL, SMOKE_EMAIL, SMOKE_PASSWORD). Use a user of an account kept for this (its account
 * gets an export and a small upload each run; it needs at least one connection, or room in its plan
 * for one, which the run then removes). Prints one line per check and exits 1 when any failed.
 *
 * Checks: the site's security headers; sign-in; a realtime socket through the site (ticket, ping
 * answered without a Lambda, an event caused by an API call); a presigned upload and a presigned
 * download (the account export); each webhook route reached from outside with no User-Agent
 * answered by its handler (not a WAF 403); the Stripe webhook refusing a bad signature; the
 * channel worker's health (`GET /api/health`: at least one worker beat within its lease period).
 * docs/deploy.md, "Smoke test", says what each failure usually means.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

export interface SmokeOptions {
  url: string;
  email: string;
  password: string;
  /** The account to sign in to when the user belongs to several. */
  accountId?: string;
  log?: (line: string) => void;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

const checkTimeoutMs = 25_000;

/** One HTTP request with exactly the headers given (no User-Agent unless given: Node's fetch always adds one). */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(target, { method: options.method ?? 'GET', headers: options.headers ?? {}, timeout: checkTimeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${target.pathname} in ${checkTimeoutMs} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = (token?: string) => ({ 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) });

function expectStatus(answer: Answer, wanted: number[], what: string): void {
  if (!wanted.includes(answer.status)) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
}

export async function runSmoke(options: SmokeOptions): Promise<CheckResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const base = options.url.replace(/\/$/, '');
  const api = (path: string) => `${base}/api${path}`;
  const results: CheckResult[] = [];
  const state: { token?: string; user?: any; serviceId?: string; createdServiceId?: string } = {};

  async function check(name: string, run: () => Promise<string>): Promise<void> {
    const started = Date.now();
    try {
      const detail = await Promise.race([
        run(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${checkTimeoutMs} ms`)), checkTimeoutMs).unref()),
      ]);
      results.push({ name, ok: true, detail, ms: Date.now() - started });
      log(`ok    ${name}${detail ? `: ${detail}` : ''} (${Date.now() - started} ms)`);
    } catch (error) {
      results.push({ name, ok: false, detail: (error as Error).message, ms: Date.now() - started });
      log(`FAIL  ${name}: ${(error as Error).message} (${Date.now() - started} ms)`);
    }
  }

  await check('security headers', async () => {
    const page = await send(`${base}/`);
    expectStatus(page, [200], 'GET /');
    const apiAnswer = await send(api('/auth/me'));
    expectStatus(apiAnswer, [401], 'GET /api/auth/me without a token');
    const missing: string[] = [];
    for (const [where, answer] of [
      ['site', page],
      ['api', apiAnswer],
    ] as const) {
      const h = answer.headers;
      if (!String(h['content-security-policy'] ?? '').includes("frame-ancestors 'none'")) missing.push(`${where}: content-security-policy frame-ancestors`);
      if (String(h['x-frame-options'] ?? '').toUpperCase() !== 'DENY') missing.push(`${where}: x-frame-options`);
      if (h['x-content-type-options'] !== 'nosniff') missing.push(`${where}: x-content-type-options`);
      if (!h['referrer-policy']) missing.push(`${where}: referrer-policy`);
      if (base.startsWith('https:') && !h['strict-transport-security']) missing.push(`${where}: strict-transport-security`);
    }
    if (missing.length) throw new Error(`missing ${missing.join(', ')}`);
    return base.startsWith('https:') ? 'with HSTS' : 'HSTS not expected over http';
  });

  await check('sign-in', async () => {
    const answer = await send(api('/auth/login'), {
      method: 'POST',
      headers: json(),
      body: JSON.stringify({ email: options.email, password: options.password, accountId: options.accountId }),
    });
    expectStatus(answer, [200], 'POST /api/auth/login');
    if (answer.body?.users) {
      const choices = answer.body.users.map((u: any) => `${u.accountId} (${u.account?.name})`).join(', ');
      throw new Error(`the user belongs to several accounts: pass --account one of ${choices}`);
    }
    if (!answer.body?.user?.accountId) throw new Error('the user has no account yet: create one in the app first');
    state.token = answer.body.accessToken;
    state.user = answer.body.user;
    return `account ${answer.body.user.account?.name ?? answer.body.user.accountId}`;
  });

  await check('realtime through the site', async () => {
    if (!state.token) throw new Error('not signed in');
    const ticket = await send(api('/ws-ticket'), { method: 'POST', headers: json(state.token) });
    expectStatus(ticket, [200, 201], 'POST /api/ws-ticket');
    const wsUrl = `${base.replace(/^http/, 'ws')}/ws?ticket=${encodeURIComponent(ticket.body.ticket)}`;
    const socket = new WebSocket(wsUrl);
    try {
      const received: any[] = [];
      const waitFor = (test: (m: any) => boolean, what: string) =>
        new Promise<any>((resolve, reject) => {
          const found = received.find(test);
          if (found) return resolve(found);
          const timer = setTimeout(() => reject(new Error(`no ${what} within 10 s`)), 10_000);
          socket.on('message', () => {
            const hit = received.find(test);
            if (hit) {
              clearTimeout(timer);
              resolve(hit);
            }
          });
        });
      socket.on('message', (data) => {
        try {
          received.push(JSON.parse(String(data)));
        } catch {
          received.push(String(data));
        }
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('unexpected-response', (_req, res) => reject(new Error(`the socket was refused: ${res.statusCode}`)));
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ action: 'ping' }));
      await waitFor((m) => m?.event === 'pong', 'pong to a ping');
      // An API call that changes nothing but the user's updatedAt: a user.UPDATED event comes back.
      const me = state.user;
      const put = await send(api(`/users/${me.id}`), {
        method: 'PUT',
        headers: json(state.token),
        body: JSON.stringify({ name: me.name, email: me.pendingEmail ?? me.email }),
      });
      expectStatus(put, [200], `PUT /api/users/${me.id}`);
      await waitFor((m) => m?.event === 'user.UPDATED' && m?.data?.id === me.id, 'user.UPDATED event');
      return 'ticket accepted, ping answered, event received';
    } finally {
      socket.terminate();
    }
  });

  await check('presigned upload', async () => {
    if (!state.token) throw new Error('not signed in');
    const services = await send(api(`/services?query=${encodeURIComponent(JSON.stringify({ perPage: 1 }))}`), { headers: json(state.token) });
    expectStatus(services, [200], 'GET /api/services');
    state.serviceId = services.body.data?.[0]?.id;
    if (!state.serviceId) {
      const created = await send(api('/services'), {
        method: 'POST',
        headers: json(state.token),
        body: JSON.stringify({ name: 'Teste de fumaça', type: 'whatsapp' }),
      });
      expectStatus(created, [201], 'POST /api/services (the account has no connection; one is made for the check)');
      state.serviceId = state.createdServiceId = created.body.id;
    }
    const bytes = Buffer.from(`%PDF-1.4\n% smoke test ${new Date().toISOString()}\n%%EOF\n`);
    const asked = await send(api('/files/generate-url-to-upload'), {
      method: 'POST',
      headers: json(state.token),
      body: JSON.stringify({ serviceId: state.serviceId, name: 'teste-de-fumaca.pdf', mimetype: 'application/pdf', length: bytes.length, isPtt: false }),
    });
    expectStatus(asked, [200, 201], 'POST /api/files/generate-url-to-upload');
    const put = await send(asked.body.urlToUpload, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-length': String(bytes.length) },
      body: bytes,
    });
    expectStatus(put, [200], 'PUT to the presigned URL');
    return `${bytes.length} bytes`;
  });

  await check('presigned download (account export)', async () => {
    if (!state.token) throw new Error('not signed in');
    const accountId = state.user.accountId;
    const started = await send(api(`/accounts/${accountId}/exports`), { method: 'POST', headers: json(state.token) });
    if (started.status === 403) throw new Error('the smoke user must be an admin of its account (exports are for admins)');
    expectStatus(started, [200, 201, 202], `POST /api/accounts/${accountId}/exports`);
    const exportId = started.body.id;
    for (let i = 0; i < 40; i++) {
      const state2 = await send(api(`/accounts/${accountId}/exports/${exportId}`), { headers: json(state.token) });
      expectStatus(state2, [200], 'GET the export');
      if (state2.body.url) {
        const file = await send(state2.body.url);
        expectStatus(file, [200], 'GET the presigned export link');
        return `${file.text.length} bytes`;
      }
      if (state2.body.status === 'failed') throw new Error('the export failed');
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('the export was not ready within 20 s');
  });

  await check('Telegram webhook reachable with no User-Agent', async () => {
    const answer = await send(api('/webhooks/telegram/smoke-test-unknown'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    // The handler refuses a delivery without its connection's secret; a WAF block would be a 403 of its own.
    if (![401, 404].includes(answer.status) || typeof answer.body?.statusCode !== 'number') {
      throw new Error(`expected the handler's own 401 or 404, got ${answer.status} ${answer.text.slice(0, 120)}`);
    }
    return `handler answered ${answer.status}`;
  });

  await check('Stripe webhook refuses a bad signature', async () => {
    const answer = await send(api('/webhooks/stripe'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=0000' },
      body: JSON.stringify({ id: 'evt_smoke', type: 'customer.subscription.updated' }),
    });
    if (answer.status === 400 && typeof answer.body?.statusCode === 'number') return 'refused with 400';
    if (answer.status === 503 && typeof answer.body?.statusCode === 'number') return 'payments are not configured on this stack: refused with 503';
    throw new Error(`expected the handler's 400, got ${answer.status} ${answer.text.slice(0, 120)}`);
  });

  await check('channel worker alive', async () => {
    const answer = await send(api('/health'));
    expectStatus(answer, [200], 'GET /api/health');
    const workers = answer.body?.workers;
    if (typeof workers?.live !== 'number') throw new Error(`GET /api/health answered no worker count: ${answer.text.slice(0, 120)}`);
    const freshest = workers.freshestBeatSeconds == null ? 'no worker heartbeat at all' : `the freshest heartbeat is ${workers.freshestBeatSeconds} s old`;
    if (workers.live < 1) throw new Error(`no channel worker beat within its lease period (${freshest}): WhatsApp sessions and sends are not being served`);
    return `${workers.live} live, ${freshest}`;
  });

  if (state.createdServiceId && state.token) {
    await check('clean-up', async () => {
      const removed = await send(api(`/services/${state.createdServiceId}`), { method: 'DELETE', headers: json(state.token) });
      expectStatus(removed, [200, 204], 'DELETE the connection made for the check');
      return 'connection made for the check removed';
    });
  }
  return results;
}

async function main() {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, account: { type: 'string' } },
  });
  const url = values.url ?? process.env.SMOKE_URL;
  const email = values.email ?? process.env.SMOKE_EMAIL;
  const password = values.password ?? process.env.SMOKE_PASSWORD;
  if (!url || !email || !password) {
    console.error('usage: npm run smoke -- --url https://<site> --email <user> --password <password> [--account <accountId>]');
    process.exit(2);
  }
  const started = Date.now();
  const results = await runSmoke({ url, email, password, accountId: values.account ?? process.env.SMOKE_ACCOUNT });
  const failed = results.filter((r) => !r.ok);
  console.log(`${results.length - failed.length}/${results.length} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(failed.length ? 1 : 0);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
