/**
 * The Graph API double (tests/support/fake-graph-api.ts): its wire formats, errors, the 24-hour
 * window, rate limits, media URL expiry and signed webhook deliveries. Time moves only on the
 * fake's clock; webhooks go to a receiver on 127.0.0.1 that checks signatures with node:crypto.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGraphApi, type FakeNumber, GRAPH_API_VERSION, MEDIA_URL_TTL_MS, SERVICE_WINDOW_MS, startFakeGraphApi } from '../support/fake-graph-api.ts';

const TOKEN = 'EAAG-system-user-token';
const SECRET = 'app-secret-for-tests';
const CUSTOMER = { waId: '5511987654321', name: 'Joana Souza' };

let fake: FakeGraphApi & { close(): Promise<void> };
let number: FakeNumber;
let receiver: Server;
let receiverUrl = '';
/** What the receiver saw: raw body, headers, and whether the signature verified independently. */
const received: { raw: string; signature?: string; verified: boolean; body: any }[] = [];

async function graph(method: string, path: string, body?: unknown, token: string | null = TOKEN) {
  const res = await fetch(`${fake.url}/${GRAPH_API_VERSION}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined } as { status: number; headers: Headers; body: any };
}

const send = (payload: Record<string, unknown>, token?: string) =>
  graph('POST', `/${number.phoneNumberId}/messages`, { messaging_product: 'whatsapp', recipient_type: 'individual', to: CUSTOMER.waId, ...payload }, token);

function expectGraphError(res: { status: number; body: any }, status: number, code: number) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.type).toBeTypeOf('string');
  expect(res.body.error.fbtrace_id).toMatch(/^[\w-]{6,}$/);
}

beforeAll(async () => {
  fake = await startFakeGraphApi({ appSecret: SECRET });
  receiver = createServer((req, res) => {
    if (req.method === 'GET') {
      const u = new URL(req.url ?? '/', 'http://x');
      const ok = u.searchParams.get('hub.mode') === 'subscribe' && u.searchParams.get('hub.verify_token') === 'verifica';
      res.writeHead(ok ? 200 : 403).end(ok ? u.searchParams.get('hub.challenge') : 'no');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers['x-hub-signature-256'] as string | undefined;
      const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
      const verified = !!signature && signature.length === expected.length && timingSafeEqual(Buffer.from(signature), expected);
      received.push({ raw: raw.toString('utf8'), signature, verified, body: JSON.parse(raw.toString('utf8')) });
      res.writeHead(verified ? 200 : 401).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/whatsapp-cloud`;
});

afterAll(async () => {
  await fake.close();
  receiver.closeAllConnections();
  await new Promise<void>((r) => receiver.close(() => r()));
});

beforeEach(() => {
  fake.addToken(TOKEN);
  number = fake.addNumber({ displayPhoneNumber: '+55 11 3003-4000', verifiedName: 'Loja da Joana', coexistence: true });
  fake.callbackUrl = receiverUrl;
  fake.clearThrottles();
  fake.windowErrors = 'webhook';
  received.length = 0;
});

describe('the server', () => {
  it('binds loopback only and answers under /{version}/', async () => {
    expect(new URL(fake.url).hostname).toBe('127.0.0.1');
    const res = await graph('GET', `/${number.phoneNumberId}`);
    expect(res.status).toBe(200);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', version: GRAPH_API_VERSION, token: TOKEN, status: 200 });
  });

  it('refuses unknown paths with a Graph error', async () => {
    const res = await fetch(`${fake.url}/not-a-version/x`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(100);
  });
});

describe('access tokens', () => {
  it('answers 190 with HTTP 401 for an unknown token, as Graph does', async () => {
    const res = await graph('GET', `/${number.phoneNumberId}`, undefined, 'not-a-token');
    expectGraphError(res, 401, 190);
    expect(res.body.error.type).toBe('OAuthException');
    expect(res.body.error.message).toBe('Invalid OAuth access token - Cannot parse access token');
    expect(res.headers.get('www-authenticate')).toMatch(/^OAuth "Facebook Platform" "invalid_token"/);
  });

  it('answers 190/460 once revoked and 190/463 once expired on the fake clock', async () => {
    fake.addToken('revoked-token');
    fake.revokeToken('revoked-token');
    const revoked = await graph('GET', `/${number.phoneNumberId}`, undefined, 'revoked-token');
    expectGraphError(revoked, 401, 190);
    expect(revoked.body.error.error_subcode).toBe(460);

    fake.addToken('short-token', { expiresAt: fake.now() + 60_000 });
    expect((await graph('GET', `/${number.phoneNumberId}`, undefined, 'short-token')).status).toBe(200);
    fake.advance(60_001);
    const expired = await graph('GET', `/${number.phoneNumberId}`, undefined, 'short-token');
    expectGraphError(expired, 401, 190);
    expect(expired.body.error.error_subcode).toBe(463);
    expect(expired.body.error.message).toMatch(/^Error validating access token: Session has expired on /);
  });

  it('refuses a request without a token, and accepts access_token in the query', async () => {
    const none = await graph('GET', `/${number.phoneNumberId}`, undefined, null);
    expect(none.status).toBe(400);
    expect(none.body.error.type).toBe('OAuthException');
    const query = await fetch(`${fake.url}/${GRAPH_API_VERSION}/${number.phoneNumberId}?access_token=${TOKEN}`);
    expect(query.status).toBe(200);
  });

  it("hides another account's number behind Graph's 'does not exist' error (100/33)", async () => {
    const other = fake.addNumber({ displayPhoneNumber: '+55 21 4000-1000', verifiedName: 'Outra Loja' });
    fake.addToken('scoped', { wabaIds: [number.wabaId] });
    const res = await graph('GET', `/${other.phoneNumberId}`, undefined, 'scoped');
    expectGraphError(res, 400, 100);
    expect(res.body.error.error_subcode).toBe(33);
    expect(res.body.error.message).toMatch(/^Unsupported get request\. Object with ID '\d+' does not exist/);
  });
});

describe('phone number, registration and webhook subscription', () => {
  it('answers the asked fields and refuses a field the node lacks', async () => {
    const res = await graph('GET', `/${number.phoneNumberId}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`);
    expect(res.body).toEqual({
      display_phone_number: '+55 11 3003-4000',
      verified_name: 'Loja da Joana',
      quality_rating: 'GREEN',
      messaging_limit_tier: 'TIER_250',
      id: number.phoneNumberId,
    });
    const bad = await graph('GET', `/${number.phoneNumberId}?fields=verified_name,colour`);
    expectGraphError(bad, 400, 100);
    expect(bad.body.error.message).toBe('(#100) Tried accessing nonexisting field (colour) on node type (WhatsAppBusinessPhoneNumber)');
  });

  it('registers with a six-digit pin', async () => {
    expect((await graph('POST', `/${number.phoneNumberId}/register`, { messaging_product: 'whatsapp' })).body.error.message).toBe(
      '(#100) The parameter pin is required.',
    );
    expectGraphError(await graph('POST', `/${number.phoneNumberId}/register`, { messaging_product: 'whatsapp', pin: '12' }), 400, 100);
    expect((await graph('POST', `/${number.phoneNumberId}/register`, { messaging_product: 'whatsapp', pin: '123456' })).body).toEqual({ success: true });
    expect(fake.numbers.get(number.phoneNumberId)!.registered).toBe(true);
  });

  it('answers a pending number PENDING until registered, refuses its sends (133010), another PIN (133005) and an eleventh registration in 72 hours (133016)', async () => {
    const pending = fake.addNumber({ displayPhoneNumber: '+55 11 3003-5000', verifiedName: 'Loja nova', registered: false });
    pending.pin = '654321';
    expect((await graph('GET', `/${pending.phoneNumberId}?fields=status`)).body).toEqual({ status: 'PENDING', id: pending.phoneNumberId });
    fake.inbound(pending.phoneNumberId, CUSTOMER, { type: 'text', body: 'oi' });
    const refused = await graph('POST', `/${pending.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      to: CUSTOMER.waId,
      type: 'text',
      text: { body: 'x' },
    });
    expectGraphError(refused, 400, 133010);
    const register = (pin: string) => graph('POST', `/${pending.phoneNumberId}/register`, { messaging_product: 'whatsapp', pin });
    expectGraphError(await register('111111'), 400, 133005);
    for (let i = 0; i < 9; i++) await register('111111');
    expectGraphError(await register('654321'), 400, 133016);
    fake.advance(72 * 60 * 60 * 1000);
    expect((await register('654321')).body).toEqual({ success: true });
    expect((await graph('GET', `/${pending.phoneNumberId}?fields=status`)).body.status).toBe('CONNECTED');
  });

  it('subscribes the app to the WABA and sends deliveries to the override callback', async () => {
    expect((await graph('GET', `/${number.wabaId}/subscribed_apps`)).body).toEqual({ data: [] });
    const override = `${receiverUrl}?override=1`;
    expect((await graph('POST', `/${number.wabaId}/subscribed_apps`, { override_callback_uri: override, verify_token: 'verifica' })).body).toEqual({
      success: true,
    });
    const listed = await graph('GET', `/${number.wabaId}/subscribed_apps`);
    expect(listed.body.data[0].whatsapp_business_api_data.id).toBe(fake.appId);
    expect(fake.callbackFor(number.wabaId)).toBe(override);
    const [delivery] = await fake.deliver(fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'oi' }).payload);
    expect(delivery!.url).toBe(override);
  });

  it('answers 80007 on management calls while the WABA is rate limited, until the clock passes', async () => {
    fake.throttleWaba(number.wabaId, 60_000);
    const res = await graph('GET', `/${number.wabaId}/message_templates`);
    expectGraphError(res, 400, 80007);
    expect(res.body.error.message).toBe('(#80007) Rate limit issues');
    expect(res.body.error.error_data).toEqual({ messaging_product: 'whatsapp', details: 'The WhatsApp Business Account has reached its rate limit.' });
    fake.advance(60_000);
    expect((await graph('GET', `/${number.wabaId}/message_templates`)).status).toBe(200);
  });
});

describe('sending messages', () => {
  const openWindow = () => fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Olá!' });

  it('answers Meta send response with a wamid and records the send', async () => {
    openWindow();
    const res = await send({ type: 'text', text: { body: 'Olá, Joana! Como posso ajudar?', preview_url: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: CUSTOMER.waId, wa_id: CUSTOMER.waId }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    });
    expect(fake.accepted.at(-1)).toMatchObject({ id: res.body.messages[0].id, body: { text: { body: 'Olá, Joana! Como posso ajudar?' } } });
  });

  it('validates the fields the way Graph does (100)', async () => {
    openWindow();
    const cases: [Record<string, unknown>, string][] = [
      [{ to: undefined, text: { body: 'x' } }, '(#100) The parameter to is required.'],
      [
        { type: 'carrier_pigeon', carrier_pigeon: {} },
        '(#100) Param type must be one of {AUDIO, CONTACTS, DOCUMENT, IMAGE, INTERACTIVE, LOCATION, REACTION, STICKER, TEMPLATE, TEXT, VIDEO} - got "carrier_pigeon".',
      ],
      [{ type: 'text', text: {} }, "(#100) The parameter text['body'] is required."],
      [{ type: 'image', image: { id: '1', link: 'https://x/y.jpg' } }, '(#100) Param image must contain exactly one of the following fields: id, link.'],
      [{ type: 'audio', audio: { link: 'https://x/a.ogg', caption: 'no' } }, "(#100) Param audio['caption'] is not supported."],
      [
        { type: 'interactive', interactive: { type: 'button', body: { text: 'Escolha' }, action: { buttons: [] } } },
        "(#100) Param interactive['action']['buttons'] must have between 1 and 3 elements.",
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await send(payload);
      expectGraphError(res, 400, 100);
      expect(res.body.error.message).toBe(message);
    }
    const noProduct = await graph('POST', `/${number.phoneNumberId}/messages`, { to: CUSTOMER.waId, type: 'text', text: { body: 'x' } });
    expect(noProduct.body.error.message).toBe('(#100) The parameter messaging_product is required.');
    expect(fake.sent.filter((s) => s.status === 400 && s.phoneNumberId === number.phoneNumberId)).toHaveLength(cases.length + 1);
  });

  it('accepts media by uploaded id or link with captions and filenames, replies, reactions, interactive and location', async () => {
    const { message } = openWindow();
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', 'application/pdf');
    form.set('file', new Blob([Buffer.from('%PDF-1.4 fake')], { type: 'application/pdf' }), 'pedido.pdf');
    const up = await fetch(`${fake.url}/${GRAPH_API_VERSION}/${number.phoneNumberId}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: form,
    });
    const { id } = (await up.json()) as { id: string };
    expect(id).toMatch(/^\d+$/);
    const payloads = [
      { type: 'document', document: { id, filename: 'pedido.pdf', caption: 'Seu pedido' } },
      { type: 'image', image: { link: 'https://example.com/foto.jpg', caption: 'Foto' } },
      { type: 'audio', audio: { link: 'https://example.com/voz.ogg' } },
      { type: 'video', video: { link: 'https://example.com/v.mp4' } },
      { type: 'sticker', sticker: { link: 'https://example.com/s.webp' } },
      { type: 'text', text: { body: 'Respondendo' }, context: { message_id: message.id } },
      { type: 'reaction', reaction: { message_id: message.id, emoji: '👍' } },
      { type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Loja' } },
      {
        type: 'interactive',
        interactive: { type: 'list', body: { text: 'Escolha' }, action: { button: 'Ver', sections: [{ title: 'A', rows: [{ id: 'r1', title: 'Um' }] }] } },
      },
    ];
    for (const p of payloads) expect((await send(p)).status, JSON.stringify(p)).toBe(200);
    const wrongId = await send({ type: 'image', image: { id: '999' } });
    expectGraphError(wrongId, 400, 100);
  });

  it('marks an inbound message read with status read', async () => {
    const { message } = openWindow();
    const res = await graph('POST', `/${number.phoneNumberId}/messages`, { messaging_product: 'whatsapp', status: 'read', message_id: message.id });
    expect(res.body).toEqual({ success: true });
    expect(fake.reads.at(-1)).toMatchObject({ messageId: message.id });
    expectGraphError(await graph('POST', `/${number.phoneNumberId}/messages`, { messaging_product: 'whatsapp', status: 'read' }), 400, 100);
  });

  it('answers 130429 while the number is throttled and 131056 for one customer only', async () => {
    openWindow();
    fake.throttleNumber(number.phoneNumberId, 1000);
    const hit = await send({ type: 'text', text: { body: 'a' } });
    expectGraphError(hit, 400, 130429);
    expect(hit.body.error.message).toBe('(#130429) Rate limit hit');
    expect(hit.body.error.error_data.details).toBe('Cloud API message throughput has been reached.');
    fake.advance(1000);
    expect((await send({ type: 'text', text: { body: 'a' } })).status).toBe(200);

    fake.throttlePair(number.phoneNumberId, CUSTOMER.waId, 6000);
    const pair = await send({ type: 'text', text: { body: 'b' } });
    expectGraphError(pair, 400, 131056);
    expect(pair.body.error.error_data.details).toBe(
      'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
    );
    fake.inbound(number.phoneNumberId, { waId: '5521999990000', name: 'Outro' }, { type: 'text', body: 'oi' });
    expect((await send({ type: 'text', text: { body: 'c' }, to: '5521999990000' })).status).toBe(200);
    fake.advance(6000);
    expect((await send({ type: 'text', text: { body: 'b' } })).status).toBe(200);
  });

  it('answers an injected failure once (failNext)', async () => {
    openWindow();
    fake.failNext('messages', 131026);
    const res = await send({ type: 'text', text: { body: 'x' } });
    expectGraphError(res, 400, 131026);
    expect(res.body.error.message).toBe('(#131026) Message undeliverable');
    expect((await send({ type: 'text', text: { body: 'x' } })).status).toBe(200);
  });

  it('answers Meta’s passing failures and rate limits with their HTTP status, and a 5xx carrying Meta’s body on demand', async () => {
    openWindow();
    for (const [code, status, title] of [
      [1, 500, 'API Unknown'],
      [2, 503, 'API Service'],
      [131000, 500, 'Something went wrong'],
      [131016, 503, 'Service unavailable'],
      [4, 400, 'API Too Many Calls'],
      [80007, 400, 'Rate limit issues'],
      [130429, 400, 'Rate limit hit'],
      [131056, 400, '(Business Account, Consumer Account) pair rate limit hit'],
    ] as const) {
      fake.failNext('messages', code);
      const res = await send({ type: 'text', text: { body: 'x' } });
      expectGraphError(res, status, code);
      expect(res.body.error.message).toBe(`(#${code}) ${title}`);
      expect(res.body.error.error_data.messaging_product).toBe('whatsapp');
    }
    fake.failNext('messages', 131000, undefined, { status: 502 });
    expectGraphError(await send({ type: 'text', text: { body: 'x' } }), 502, 131000);
  });

  it('leaves a call unanswered (hangNext) until the client gives up, and answers the next one', async () => {
    openWindow();
    fake.hangNext('messages');
    const hung = await fetch(`${fake.url}/${GRAPH_API_VERSION}/${number.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: CUSTOMER.waId, type: 'text', text: { body: 'x' } }),
      signal: AbortSignal.timeout(200),
    }).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(hung).toBe('TimeoutError');
    expect(fake.calls.filter((c) => c.path.endsWith('/messages')).at(-1)?.status).toBe(0);
    expect((await send({ type: 'text', text: { body: 'x' } })).status).toBe(200);
  });
});

describe('the 24-hour customer-service window', () => {
  it('opens with an inbound message and closes 24 hours later on the fake clock', () => {
    expect(fake.windowOpen(number.phoneNumberId, CUSTOMER.waId)).toBe(false);
    fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'oi' });
    fake.advance(SERVICE_WINDOW_MS - 1);
    expect(fake.windowOpen(number.phoneNumberId, CUSTOMER.waId)).toBe(true);
    fake.advance(1);
    expect(fake.windowOpen(number.phoneNumberId, CUSTOMER.waId)).toBe(false);
  });

  it('refuses free-form sends outside it with 131047 (sync mode); templates still go', async () => {
    fake.windowErrors = 'sync';
    fake.addTemplate(number.wabaId, {
      name: 'retomar_conversa',
      language: 'pt_BR',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Olá {{1}}, podemos continuar?' }],
    });
    const res = await send({ type: 'text', text: { body: 'Ainda aí?' } });
    expectGraphError(res, 400, 131047);
    expect(res.body.error.message).toBe('(#131047) Re-engagement message');
    expect(res.body.error.error_data.details).toBe('More than 24 hours have passed since the recipient last replied to the sender number.');
    const template = await send({
      type: 'template',
      template: { name: 'retomar_conversa', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Joana' }] }] },
    });
    expect(template.status).toBe(200);
    expect(template.body.messages[0].message_status).toBe('accepted');
  });

  it('in webhook mode accepts the send and queues a failed status with 131047', async () => {
    const res = await send({ type: 'text', text: { body: 'Ainda aí?' } });
    expect(res.status).toBe(200);
    const wamid = res.body.messages[0].id;
    expect(fake.outbox).toHaveLength(1);
    await fake.flush();
    const status = received.at(-1)!.body.entry[0].changes[0].value.statuses[0];
    expect(status).toMatchObject({ id: wamid, status: 'failed', recipient_id: CUSTOMER.waId });
    expect(status.errors[0]).toMatchObject({ code: 131047, title: 'Re-engagement message', message: 'Re-engagement message' });
    expect(status.errors[0].error_data.details).toMatch(/More than 24 hours/);
  });
});

describe('templates', () => {
  it('goes from creation (PENDING) to approval to send, and 132001 before approval', async () => {
    const created = await graph('POST', `/${number.wabaId}/message_templates`, {
      name: 'pedido_enviado',
      category: 'UTILITY',
      language: 'pt_BR',
      components: [
        { type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} foi enviado.', example: { body_text: [['Joana', '123']] } },
        { type: 'FOOTER', text: 'Loja da Joana' },
      ],
    });
    expect(created.body).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'PENDING', category: 'UTILITY' });
    const list = await graph('GET', `/${number.wabaId}/message_templates?name=pedido_enviado`);
    expect(list.body.data[0]).toMatchObject({ name: 'pedido_enviado', language: 'pt_BR', status: 'PENDING', category: 'UTILITY', id: created.body.id });
    expect(list.body.paging.cursors).toHaveProperty('after');

    const template = {
      name: 'pedido_enviado',
      language: { code: 'pt_BR' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Joana' },
            { type: 'text', text: '123' },
          ],
        },
      ],
    };
    const early = await send({ type: 'template', template });
    expectGraphError(early, 404, 132001);
    expect(early.body.error.message).toBe('(#132001) Template name does not exist in the translation');
    expect(early.body.error.error_data.details).toBe('template name (pedido_enviado) does not exist in pt_BR');

    const update = fake.approveTemplate(created.body.id);
    await fake.deliver(update);
    const value = received.at(-1)!.body.entry[0].changes[0];
    expect(value.field).toBe('message_template_status_update');
    expect(value.value).toMatchObject({
      event: 'APPROVED',
      message_template_id: Number(created.body.id),
      message_template_name: 'pedido_enviado',
      message_template_language: 'pt_BR',
    });

    const wrongCount = await send({
      type: 'template',
      template: { ...template, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Joana' }] }] },
    });
    expectGraphError(wrongCount, 400, 132000);
    const ok = await send({ type: 'template', template });
    expect(ok.status).toBe(200);
    const sent = fake.status(ok.body.messages[0].id, 'sent').entry[0]!.changes[0]!.value.statuses[0];
    expect(sent.pricing).toMatchObject({ billable: true, category: 'utility' });
  });

  it('checks a template send per header, body and button as Graph does (132000 counts, 132012 formats, 100 for a bad index or media id)', async () => {
    fake.addTemplate(number.wabaId, {
      name: 'cupom_volta',
      language: 'pt_BR',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Oi, {{1}}!' },
        { type: 'BODY', text: 'Use o cupom e volte.' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Parar' },
            { type: 'COPY_CODE', text: 'Copiar código' },
          ],
        },
      ],
    });
    const header = { type: 'header', parameters: [{ type: 'text', text: 'Joana' }] };
    const coupon = { type: 'button', sub_type: 'copy_code', index: '1', parameters: [{ type: 'coupon_code', coupon_code: 'VOLTE10' }] };
    const template = (components: unknown[]) => send({ type: 'template', template: { name: 'cupom_volta', language: { code: 'pt_BR' }, components } });

    expect(
      (await template([header, coupon, { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'PARAR' }] }])).status,
    ).toBe(200);
    const noHeader = await template([coupon]);
    expectGraphError(noHeader, 400, 132000);
    expect(noHeader.body.error.error_data.details).toBe('header number of localizable_params (0) does not match the expected number of params (1)');
    const noCoupon = await template([header]);
    expectGraphError(noCoupon, 400, 132000);
    const asText = await template([header, { ...coupon, parameters: [{ type: 'text', text: 'VOLTE10' }] }]);
    expectGraphError(asText, 400, 132012);
    expect(asText.body.error.message).toBe('(#132012) Parameter format does not match format in the created template');
    const imageHeader = await template([{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://x.example/a.png' } }] }, coupon]);
    expect(imageHeader.body.error.error_data.details).toBe('header: Format mismatch, expected TEXT, received IMAGE');
    const wrongKind = await template([header, { ...coupon, sub_type: 'url' }]);
    expect(wrongKind.body.error.error_data.details).toBe('button at index 1: Format mismatch, expected COPY_CODE, received URL');
    expectGraphError(await template([header, { ...coupon, index: '5' }]), 400, 100);

    fake.addTemplate(number.wabaId, {
      name: 'foto',
      language: 'pt_BR',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Veja' },
      ],
    });
    const unknownMedia = await send({
      type: 'template',
      template: { name: 'foto', language: { code: 'pt_BR' }, components: [{ type: 'header', parameters: [{ type: 'image', image: { id: '999' } }] }] },
    });
    expectGraphError(unknownMedia, 400, 100);
  });

  it('refuses a duplicate name and language and a bad name; rejection carries the reason', async () => {
    const body = { name: 'promo_natal', category: 'MARKETING', language: 'pt_BR', components: [{ type: 'BODY', text: 'Promoção!' }] };
    expect((await graph('POST', `/${number.wabaId}/message_templates`, body)).status).toBe(200);
    const dup = await graph('POST', `/${number.wabaId}/message_templates`, body);
    expectGraphError(dup, 400, 100);
    expect(dup.body.error.error_subcode).toBe(2388024);
    expectGraphError(await graph('POST', `/${number.wabaId}/message_templates`, { ...body, name: 'Promo Natal' }), 400, 100);
    const t = [...fake.templates.values()].find((x) => x.name === 'promo_natal' && x.wabaId === number.wabaId)!;
    const rejected = fake.rejectTemplate(t.id, 'PROMOTIONAL').entry[0]!.changes[0]!.value;
    expect(rejected).toMatchObject({ event: 'REJECTED', reason: 'PROMOTIONAL', message_template_category: 'MARKETING' });
    const listed = await graph('GET', `/${number.wabaId}/message_templates?status=REJECTED`);
    expect(listed.body.data.map((x: any) => x.name)).toEqual(['promo_natal']);
  });
});

describe('media', () => {
  it('serves an inbound image through GET /{media-id} and a URL that needs the token and expires', async () => {
    const bytes = Buffer.from('fake-jpeg-bytes');
    const { message } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'image', bytes, mime_type: 'image/jpeg', caption: 'Olha' });
    expect(message.image).toEqual({
      caption: 'Olha',
      mime_type: 'image/jpeg',
      sha256: createHash('sha256').update(bytes).digest('base64'),
      id: expect.any(String),
    });
    const info = await graph('GET', `/${message.image.id}`);
    expect(info.body).toEqual({
      url: expect.stringContaining('/whatsapp_business/attachments/?mid='),
      mime_type: 'image/jpeg',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      file_size: bytes.length,
      id: message.image.id,
      messaging_product: 'whatsapp',
    });
    expect((await fetch(info.body.url)).status).toBe(401);
    expect((await fetch(info.body.url, { headers: { authorization: 'Bearer other' } })).status).toBe(401);
    const ok = await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(bytes);
    const tampered = info.body.url.replace(/ext=\d+/, 'ext=9999999999');
    expect((await fetch(tampered, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);

    fake.advance(MEDIA_URL_TTL_MS + 1);
    expect((await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const fresh = await graph('GET', `/${message.image.id}`);
    expect((await fetch(fresh.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('answers an expired URL with 401 when told (expiredUrlStatus), as some expired lookaside URLs do', async () => {
    const { message } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'image', bytes: Buffer.from('jpeg'), mime_type: 'image/jpeg' });
    const info = await graph('GET', `/${message.image.id}`);
    fake.advance(MEDIA_URL_TTL_MS + 1);
    fake.expiredUrlStatus = 401;
    try {
      expect((await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(401);
    } finally {
      fake.expiredUrlStatus = 404;
    }
  });

  it('serves a huge file as told (file_size, Content-Length or neither) only as fast as the client reads', async () => {
    const size = 64 << 20;
    const huge = (declare: 'file_size' | 'content-length' | 'none') => {
      const { message } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'video', bytes: Buffer.from('mp4'), mime_type: 'video/mp4' });
      fake.serveHuge(message.video.id, size, declare);
      return message.video.id as string;
    };
    const bySize = huge('file_size');
    expect((await graph('GET', `/${bySize}`)).body.file_size).toBe(size);

    const byLength = huge('content-length');
    const lengthInfo = await graph('GET', `/${byLength}`);
    expect(lengthInfo.body.file_size).toBeUndefined();
    const told = await fetch(lengthInfo.body.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(told.headers.get('content-length')).toBe(String(size));
    await told.body?.cancel();

    const chunked = huge('none');
    const chunkedInfo = await graph('GET', `/${chunked}`);
    const res = await fetch(chunkedInfo.body.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    let read = 0;
    while (read < 1 << 20) read += (await reader.read()).value!.length;
    await reader.cancel();
    // The client stopped after a mebibyte: far from all of it was written.
    expect(fake.media.get(chunked)!.bytesServed).toBeLessThan(size / 2);
  });

  it('answers 131053 for an unsupported or oversized upload and forgets deleted media', async () => {
    const upload = (type: string, size: number) => {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('file', new Blob([Buffer.alloc(size, 1)], { type }), 'f');
      return fetch(`${fake.url}/${GRAPH_API_VERSION}/${number.phoneNumberId}/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: form,
      });
    };
    const exe = await upload('application/x-msdownload', 10);
    expect(exe.status).toBe(400);
    const exeBody = (await exe.json()) as any;
    expect(exeBody.error).toMatchObject({ code: 131053, message: '(#131053) Media upload error', error_data: { messaging_product: 'whatsapp' } });
    expect(((await (await upload('image/png', (5 << 20) + 1)).json()) as any).error.code).toBe(131053);
    const voice = await upload('audio/ogg; codecs=opus', 100);
    const { id } = (await voice.json()) as { id: string };
    expect((await graph('DELETE', `/${id}`)).body).toEqual({ success: true });
    expectGraphError(await graph('GET', `/${id}`), 400, 100);
  });
});

describe('webhook deliveries', () => {
  it('signs the raw body with the app secret (verified independently) and escapes non-ASCII like Meta', async () => {
    const { payload } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Olá, tudo bem? 😀' });
    const [d] = await fake.deliver(payload);
    expect(d!.status).toBe(200);
    const got = received.at(-1)!;
    expect(got.verified).toBe(true);
    expect(got.signature).toBe(`sha256=${createHmac('sha256', SECRET).update(got.raw).digest('hex')}`);
    expect(got.raw).toContain('Ol\\u00e1');
    expect(got.raw).not.toContain('Olá');
    // Re-serialising the parsed body does not give the signed bytes: a receiver must keep the raw body.
    expect(JSON.stringify(got.body)).not.toBe(got.raw);
    expect(got.body.entry[0].changes[0].value.messages[0].text.body).toBe('Olá, tudo bem? 😀');
  });

  it('can send unsigned, wrongly signed and duplicated deliveries', async () => {
    const { payload } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'oi' });
    expect((await fake.deliver(payload, { signature: 'missing' }))[0]!.status).toBe(401);
    expect(received.at(-1)!.signature).toBeUndefined();
    expect((await fake.deliver(payload, { signature: 'wrong' }))[0]!.status).toBe(401);
    expect(received.at(-1)!.verified).toBe(false);
    const twice = await fake.deliver(payload, { times: 2 });
    expect(twice.map((d) => d.status)).toEqual([200, 200]);
    expect(received.at(-1)!.raw).toBe(received.at(-2)!.raw);
  });

  it('answers the GET verification handshake', async () => {
    expect(await fake.verifyCallback(receiverUrl, 'verifica')).toMatchObject({ status: 200, ok: true });
    expect(await fake.verifyCallback(receiverUrl, 'errado')).toMatchObject({ status: 403, ok: false });
  });

  it('builds statuses in any order: read before delivered, and failed with errors', async () => {
    fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'oi' });
    const sent = await send({ type: 'text', text: { body: 'resposta' } });
    const wamid = sent.body.messages[0].id;
    for (const s of ['sent', 'read', 'delivered'] as const) await fake.deliver(fake.status(wamid, s));
    const statuses = received.slice(-3).map((r) => r.body.entry[0].changes[0].value);
    expect(statuses.map((v) => v.statuses[0].status)).toEqual(['sent', 'read', 'delivered']);
    expect(statuses[0].metadata).toEqual({ display_phone_number: '551130034000', phone_number_id: number.phoneNumberId });
    expect(statuses[0].statuses[0]).toMatchObject({
      id: wamid,
      recipient_id: CUSTOMER.waId,
      timestamp: expect.stringMatching(/^\d+$/),
      pricing: { category: 'service' },
    });
    expect(statuses[0].statuses[0].conversation.expiration_timestamp).toMatch(/^\d+$/);
    expect(statuses[1].statuses[0]).not.toHaveProperty('pricing');

    fake.markUndeliverable('5511900000000');
    fake.inbound(number.phoneNumberId, { waId: '5511900000000', name: 'Sumido' }, { type: 'text', body: 'oi' });
    const lost = await send({ type: 'text', text: { body: 'x' }, to: '5511900000000' });
    expect(lost.status).toBe(200);
    await fake.flush();
    const failed = received.at(-1)!.body.entry[0].changes[0].value.statuses[0];
    expect(failed).toMatchObject({ id: lost.body.messages[0].id, status: 'failed' });
    expect(failed.errors[0]).toMatchObject({
      code: 131026,
      title: 'Message undeliverable',
      error_data: { details: expect.stringMatching(/^Unable to deliver message/) },
    });
  });

  it('builds every inbound type in Meta shape', () => {
    const bytes = Buffer.from('x');
    const m = (content: Parameters<FakeGraphApi['inbound']>[2]) => fake.inbound(number.phoneNumberId, CUSTOMER, content).message as any;
    const { payload, message: first } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'oi' });
    expect(payload).toMatchObject({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.wabaId,
          changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', contacts: [{ profile: { name: 'Joana Souza' }, wa_id: CUSTOMER.waId }] } }],
        },
      ],
    });
    expect(first).toMatchObject({
      from: CUSTOMER.waId,
      id: expect.stringMatching(/^wamid\./),
      timestamp: expect.stringMatching(/^\d+$/),
      type: 'text',
      text: { body: 'oi' },
    });
    expect(m({ type: 'audio', bytes, mime_type: 'audio/ogg; codecs=opus', voice: true }).audio).toMatchObject({
      mime_type: 'audio/ogg; codecs=opus',
      voice: true,
    });
    expect(m({ type: 'video', bytes, mime_type: 'video/mp4' }).video.id).toMatch(/^\d+$/);
    expect(m({ type: 'document', bytes, mime_type: 'application/pdf', filename: 'nota.pdf' }).document).toMatchObject({ filename: 'nota.pdf' });
    expect(m({ type: 'sticker', bytes, mime_type: 'image/webp', animated: true }).sticker).toMatchObject({ animated: true });
    expect(m({ type: 'location', latitude: -23.5, longitude: -46.6, name: 'Sé' }).location).toEqual({ latitude: -23.5, longitude: -46.6, name: 'Sé' });
    expect(
      m({ type: 'contacts', contacts: [{ name: { formatted_name: 'Ana' }, phones: [{ phone: '+55 11 9', wa_id: '55119' }] }] }).contacts[0].name.formatted_name,
    ).toBe('Ana');
    expect(m({ type: 'button_reply', id: 'sim', title: 'Sim' })).toMatchObject({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'sim', title: 'Sim' } },
    });
    expect(m({ type: 'list_reply', id: 'r1', title: 'Um', description: 'd' }).interactive).toEqual({
      type: 'list_reply',
      list_reply: { id: 'r1', title: 'Um', description: 'd' },
    });
    expect(m({ type: 'button', text: 'Parar', payload: 'STOP' })).toMatchObject({ type: 'button', button: { payload: 'STOP', text: 'Parar' } });
    expect(m({ type: 'reaction', message_id: first.id, emoji: '❤️' }).reaction).toEqual({ message_id: first.id, emoji: '❤️' });
    expect(m({ type: 'edit', original_message_id: first.id, body: 'oi!' }).edit).toEqual({
      original_message_id: first.id,
      message: { type: 'text', text: { body: 'oi!' } },
    });
    expect(m({ type: 'revoke', original_message_id: first.id }).revoke).toEqual({ original_message_id: first.id });
    const unsupported = m({ type: 'unsupported', unsupported_type: 'poll_creation' });
    expect(unsupported.unsupported).toEqual({ type: 'poll_creation' });
    expect(unsupported.errors[0]).toMatchObject({ code: 131051, error_data: { details: 'Message type is currently not supported.' } });
    const reply = fake.inbound(
      number.phoneNumberId,
      CUSTOMER,
      { type: 'text', body: 'sobre isso' },
      { context: { from: '551130034000', id: first.id } },
    ).message;
    expect(reply.context).toEqual({ from: '551130034000', id: first.id });
  });

  it('builds quality, account and coexistence echo payloads', () => {
    const quality = fake.qualityUpdate(number.phoneNumberId, { event: 'DOWNGRADE', currentLimit: 'TIER_250', oldLimit: 'TIER_2K', quality: 'RED' });
    expect(quality.entry[0]!.changes[0]).toEqual({
      value: {
        display_phone_number: '551130034000',
        event: 'DOWNGRADE',
        old_limit: 'TIER_2K',
        current_limit: 'TIER_250',
        max_daily_conversations_per_business: 'TIER_250',
      },
      field: 'phone_number_quality_update',
    });
    expect(fake.numbers.get(number.phoneNumberId)!.qualityRating).toBe('RED');
    expect(fake.accountUpdate(number.wabaId, 'ACCOUNT_VIOLATION', { violation_info: { violation_type: 'SPAM' } }).entry[0]!.changes[0]!.field).toBe(
      'account_update',
    );
    const { payload, message } = fake.echo(number.phoneNumberId, CUSTOMER.waId, { type: 'text', body: 'Enviado pelo app' });
    expect(payload.entry[0]!.changes[0]!.field).toBe('smb_message_echoes');
    expect(message).toMatchObject({ from: '551130034000', to: CUSTOMER.waId, type: 'text', text: { body: 'Enviado pelo app' } });
    expect(fake.valueErrors(number.phoneNumberId, 130429).entry[0]!.changes[0]!.value.errors[0]).toMatchObject({ code: 130429, title: 'Rate limit hit' });
  });
});
