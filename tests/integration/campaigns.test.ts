/**
 * Campaigns through a runtime of their own (ADR-0227), Telegram on its Bot API double,
 * the campaigns' poller running every second: the plan before starting, each customer reached once
 * through the real send path (the outbox, dispatch, the channel), an opted-out customer skipped
 * with the reason, pause holding every send until resume, and a runtime killed in the middle
 * resuming on the same data with nobody reached twice and nobody left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { startFakeTelegram, type FakeBot, type FakeTelegram, type Person } from '../support/fake-telegram.ts';
import { callAt } from './api.ts';

const password = 'Senha#Forte123';
let counter = 0;
const newToken = () => `${7_100_000 + ++counter}:AAH-camp-${process.pid}-${counter}-tokenXYZ`;

async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

let fake: FakeTelegram;
let runtime: RunningRuntime;
const dataDir = mkdtempSync(join(tmpdir(), 'conversa-campaigns-'));
const env = () => ({ TELEGRAM_API_ROOT: fake.url, TELEGRAM_MODE: 'polling', TELEGRAM_POLL_TIMEOUT: '2', CAMPAIGN_POLL_MS: '1000' });
const call = callAt(() => runtime.url);

beforeAll(async () => {
  fake = await startFakeTelegram();
  runtime = await spawnLocalRuntime(env(), dataDir);
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An owner with a connected Telegram bot and `n` customers who wrote to it. */
async function shop(tag: string, n: number) {
  const email = `camp.${tag}.${Date.now().toString(36)}.${process.pid}.${++counter}@example.com`;
  const person = await call('POST', '/auth/register', { body: { name: `Dona ${tag}`, email, password } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: `Loja ${tag}` } });
  expect(account.status).toBe(201);
  const token = account.body.accessToken as string;
  const botToken = newToken();
  const bot = fake.addBot(botToken, `Loja ${tag}`);
  const service = await call('POST', '/services', { token, body: { name: 'Bot', type: 'telegram', token: botToken } });
  expect((await call('POST', `/services/${service.body.id}/start`, { token })).status).toBe(200);
  await eventually(async () => (await call('GET', `/services/${service.body.id}`, { token })).body.status === 'connected');
  const people: Person[] = Array.from({ length: n }, (_, i) => ({ id: 710_000 + counter * 100 + i, first_name: `Cliente${i}`, last_name: tag }));
  for (const p of people) bot.receive(p, { text: 'Oi' });
  const contacts = await eventually(async () => {
    const list = (await call('GET', '/contacts', { token })).body.data as { id: string; idFromService: string }[];
    return list.length === n ? list : null;
  });
  // In the people's order.
  const contactIds = people.map((p) => contacts.find((c) => c.idFromService === String(p.id))!.id);
  return { token, bot, serviceId: service.body.id as string, people, contactIds };
}

const body = (s: { serviceId: string }, contactIds: string[], gap = 1) => ({
  name: 'Ofertas da semana',
  audience: { kind: 'contacts', contactIds },
  serviceIds: [s.serviceId],
  message: { text: 'Oi {{primeiro_nome}}, temos novidades!' },
  window: { kind: 'hours', start: '00:00', end: '24:00', weekdays: [0, 1, 2, 3, 4, 5, 6] },
  pace: { minGapSeconds: gap, maxGapSeconds: gap, dailyLimit: 1000, dailyNewChats: 0 },
});

/** The campaign texts the bot sent, by chat. */
const campaignTexts = (bot: FakeBot) =>
  bot.sent.filter((s) => s.method === 'sendMessage' && String(s.params.text).includes('temos novidades')).map((s) => String(s.params.chat_id));

describe('a campaign', () => {
  it('plans, then reaches each customer once through the channel, skipping whoever opted out', { timeout: 60_000 }, async () => {
    const s = await shop('a', 3);
    // The third customer opts out of campaigns (ADR-0225).
    s.bot.receive(s.people[2]!, { text: 'SAIR' });
    await eventually(async () => (await call('GET', `/contacts/${s.contactIds[2]}`, { token: s.token })).body.optedOutAt || null);

    const plan = await call('POST', '/campaigns/plan', { token: s.token, body: body(s, s.contactIds) });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ recipients: 3, leftOut: 0, firstMessages: 0 });

    const created = await call('POST', '/campaigns', { token: s.token, body: body(s, s.contactIds) });
    expect(created.status).toBe(201);
    const done = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${created.body.id}`, { token: s.token })).body;
      return c.status === 'finished' ? c : null;
    });
    expect(done.counts).toMatchObject({ recipients: 3, sent: 2, skipped: 1, queued: 0 });
    const chats = campaignTexts(s.bot);
    expect(chats.sort()).toEqual([String(s.people[0]!.id), String(s.people[1]!.id)].sort());
    const text = s.bot.sent.find((m) => String(m.params.chat_id) === String(s.people[0]!.id) && String(m.params.text).includes('novidades'))!.params.text;
    expect(text).toBe(`Oi ${s.people[0]!.first_name}, temos novidades!\n\nPara não receber mais mensagens como esta, responda SAIR.`);

    // Who did not get it, and why: the opted-out customer, by name; nobody failed.
    const skipped = await call('GET', `/campaigns/${created.body.id}/recipients?outcome=skipped`, { token: s.token });
    expect(skipped.status).toBe(200);
    expect(skipped.body.nextCursor).toBeNull();
    expect(skipped.body.data).toEqual([
      expect.objectContaining({
        contactId: s.contactIds[2],
        name: expect.stringContaining(s.people[2]!.first_name),
        serviceId: s.serviceId,
        outcome: 'skipped',
        reason: 'O contato pediu para não receber campanhas',
        at: expect.any(String),
      }),
    ]);
    expect((await call('GET', `/campaigns/${created.body.id}/recipients?outcome=failed`, { token: s.token })).body).toEqual({ data: [], nextCursor: null });

    // The first customer answers, the second opts out: both count on the campaign (the stream's campaign-progress consumer).
    s.bot.receive(s.people[0]!, { text: 'Quero saber mais' });
    s.bot.receive(s.people[1]!, { text: 'parar' });
    const counted = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${created.body.id}`, { token: s.token })).body;
      return c.counts.replied === 2 && c.counts.optedOut === 1 ? c : null;
    });
    expect(counted.counts).toMatchObject({ sent: 2, skipped: 1, replied: 2, optedOut: 1 });
  });

  it('counts a customer who blocked the bot as failed (Telegram answers 403) and goes on with the others', async () => {
    const s = await shop('d', 3);
    s.bot.block(s.people[0]!.id);
    const created = await call('POST', '/campaigns', { token: s.token, body: body(s, s.contactIds) });
    expect(created.status).toBe(201);
    const done = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${created.body.id}`, { token: s.token })).body;
      return c.status === 'finished' && c.counts.failed === 1 ? c : null;
    });
    expect(done.counts).toMatchObject({ recipients: 3, sent: 3, failed: 1, queued: 0 });
    const reached = s.bot.sent.filter((m) => m.answer.ok && String(m.params.text).includes('temos novidades')).map((m) => String(m.params.chat_id));
    expect(reached.sort()).toEqual([String(s.people[1]!.id), String(s.people[2]!.id)].sort());
    // The bubble says why, as for any send the channel refused.
    const [message] = (
      await call('GET', `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: s.contactIds[0] } }))}`, { token: s.token })
    ).body.data as { ack: number; error: string | null; text: string }[];
    expect(message).toMatchObject({ ack: -2 });
    expect(message!.error).toBeTruthy();
    // The progress screen lists them with the same reason.
    const failed = await call('GET', `/campaigns/${created.body.id}/recipients?outcome=failed`, { token: s.token });
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({
      data: [expect.objectContaining({ contactId: s.contactIds[0], outcome: 'failed', reason: message!.error, serviceId: s.serviceId })],
      nextCursor: null,
    });
    // A cursor of another list, and an outcome the list does not have: 400 naming the parameter.
    const forged = await call('GET', `/campaigns/${created.body.id}/recipients?outcome=failed&after=${Buffer.from('MSG#1').toString('base64url')}`, {
      token: s.token,
    });
    expect(forged.status).toBe(400);
    expect(forged.body.details).toEqual([expect.objectContaining({ path: 'after' })]);
    const odd = await call('GET', `/campaigns/${created.body.id}/recipients?outcome=sent`, { token: s.token });
    expect(odd.status).toBe(400);
    expect(odd.body.details).toEqual([expect.objectContaining({ path: 'outcome' })]);
  });

  it("waits while its connection is down (the bot's token revoked: Telegram answers 401), says why, and goes on once the new token is in, nobody reached twice", {
    timeout: 60_000,
  }, async () => {
    const s = await shop('r', 4);
    const oldToken = s.bot.token;
    const created = await call('POST', '/campaigns', { token: s.token, body: body(s, s.contactIds, 2) });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await eventually(async () => campaignTexts(s.bot).length >= 1);
    // BotFather's /revoke: the old token answers 401 to the poller and to any send.
    const newBotToken = `${oldToken.split(':')[0]}:AAH-revoked-${process.pid}-${++counter}-tokenXYZ`;
    fake.revoke(oldToken, newBotToken);
    await eventually(async () => (await call('GET', `/services/${s.serviceId}`, { token: s.token })).body.status !== 'connected');
    const waiting = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${id}`, { token: s.token })).body;
      return c.waiting.length ? c : null;
    });
    expect(waiting.status).toBe('running');
    expect(waiting.waiting).toEqual([{ serviceId: s.serviceId, reason: 'A conexão está desconectada' }]);
    const reachedWhileDown = campaignTexts(s.bot).length;
    const handledWhileDown = waiting.counts.sent + waiting.counts.skipped;

    // The owner puts the new token in and starts the connection; resuming after a pause makes the lane look at once.
    expect((await call('PUT', `/services/${s.serviceId}`, { token: s.token, body: { name: 'Bot', token: newBotToken } })).status).toBe(200);
    expect((await call('POST', `/services/${s.serviceId}/start`, { token: s.token })).status).toBe(200);
    await eventually(async () => (await call('GET', `/services/${s.serviceId}`, { token: s.token })).body.status === 'connected');
    // Nothing went out while the connection was down.
    expect(campaignTexts(s.bot).length).toBe(reachedWhileDown);
    expect((await call('POST', `/campaigns/${id}/status`, { token: s.token, body: { action: 'pause' } })).status).toBe(200);
    expect((await call('POST', `/campaigns/${id}/status`, { token: s.token, body: { action: 'resume' } })).status).toBe(200);
    const done = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${id}`, { token: s.token })).body;
      return c.status === 'finished' ? c : null;
    }, 40_000);
    expect(done.waiting).toEqual([]);
    expect(done.counts).toMatchObject({ recipients: 4, queued: 0 });
    expect(done.counts.sent + done.counts.skipped).toBeGreaterThanOrEqual(handledWhileDown);
    // Each customer got the campaign at most once; whoever the revoked token could not reach counts as failed, with the reason.
    const reached = s.bot.sent.filter((m) => m.answer.ok && String(m.params.text).includes('temos novidades')).map((m) => String(m.params.chat_id));
    expect(new Set(reached).size).toBe(reached.length);
    expect(reached.length + done.counts.failed).toBe(4);
  });

  it('takes a segment as its audience: prepared in the background from who the filter matches, then sent', async () => {
    const s = await shop('c', 4);
    // One of them archived: the segment leaves archived contacts out.
    expect((await call('POST', `/contacts/${s.contactIds[3]}/archive`, { token: s.token, body: { archive: true } })).status).toBe(200);
    const segment = await call('POST', '/segments', { token: s.token, body: { name: 'Ativos', where: { archivedAt: null } } });
    expect(segment.status).toBe(201);
    await eventually(async () => (await call('GET', `/segments/${segment.body.id}`, { token: s.token })).body.count === 3);
    const input = { ...body(s, []), audience: { kind: 'segment', segmentId: segment.body.id } };
    const plan = await call('POST', '/campaigns/plan', { token: s.token, body: input });
    expect(plan.body).toMatchObject({ recipients: 3, leftOut: 0 });
    const created = await call('POST', '/campaigns', { token: s.token, body: input });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'preparing', counts: { recipients: 3 } });
    const done = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${created.body.id}`, { token: s.token })).body;
      return c.status === 'finished' ? c : null;
    });
    expect(done.counts).toMatchObject({ recipients: 3, sent: 3, queued: 0 });
    expect(campaignTexts(s.bot).sort()).toEqual(
      s.people
        .slice(0, 3)
        .map((p) => String(p.id))
        .sort(),
    );
    // A segment that is not the account's: refused on its field.
    const missing = await call('POST', '/campaigns/plan', { token: s.token, body: { ...input, audience: { kind: 'segment', segmentId: 'nao-existe' } } });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'audience.segmentId', message: 'Segmento não encontrado' }]);
  });

  it('holds every send while paused, and a runtime killed mid-way resumes it with nobody reached twice', async () => {
    const s = await shop('b', 6);
    // A send a second (the pace's least gap), so the paused wait below spans two of them.
    const created = await call('POST', '/campaigns', { token: s.token, body: body(s, s.contactIds, 1) });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await eventually(async () => campaignTexts(s.bot).length >= 1);
    const paused = await call('POST', `/campaigns/${id}/status`, { token: s.token, body: { action: 'pause' } });
    expect(paused.body.status).toBe('paused');
    const atPause = campaignTexts(s.bot).length;
    // Two gaps and two of the poller's runs (CAMPAIGN_POLL_MS) while paused.
    await new Promise((r) => setTimeout(r, 2000));
    // At most the send already committed when the pause landed.
    expect(campaignTexts(s.bot).length).toBeLessThanOrEqual(atPause + 1);
    expect((await call('POST', `/campaigns/${id}/status`, { token: s.token, body: { action: 'resume' } })).body.status).toBe('running');

    // Killed while sending, started again on the same data.
    await eventually(async () => campaignTexts(s.bot).length >= atPause + 2);
    await runtime.kill();
    runtime = await spawnLocalRuntime(env(), dataDir);
    const done = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${id}`, { token: s.token })).body;
      return c.status === 'finished' ? c : null;
    }, 40_000);
    expect(done.counts).toMatchObject({ recipients: 6, sent: 6, queued: 0 });
    const chats = campaignTexts(s.bot);
    expect(chats.sort()).toEqual(s.people.map((p) => String(p.id)).sort());
  }, 90_000);
});
