/**
 * Crash tests: the local runtime, a child process on a data folder of its own, is killed with
 * SIGKILL in the middle of work (at a moment drawn from a seeded generator: CRASH_SEED replays a
 * run), restarted on the same folder, and the table is then read whole to check that nothing was
 * lost, nothing duplicated and no account is half-made:
 *
 * - outgoing sends to Telegram (the fake Bot API) and to WhatsApp through the channel worker (the
 *   socket double, which logs every send to the data folder): every stored message ends sent or
 *   failed with a reason, none stuck; the channel saw each at most once, each sent one exactly once
 *   under the id it answered; a message whose hand-over was cut short fails with the "interrupted"
 *   reason;
 * - an inbound burst of 40 updates from 5 customers (the channel worker polling the fake Bot API): every update stored exactly
 *   once, one contact per customer, the contacts counter equal to what is stored;
 * - account creation (register, create account, create a connection, concurrently): no half-made
 *   account, the counters equal what is stored, every accepted sign-up can log in.
 *
 * What makes them pass is ADR-0111.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { interruptedReason } from '#domain/messages/dispatch.ts';
import { accountProblems, crashSeed, eventually, type Item, scanTable, seededRandom } from '../support/crash-harness.ts';
import { startFakeTelegram, type FakeBot, type FakeTelegram } from '../support/fake-telegram.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { WhatsAppControl } from '../support/whatsapp-control.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';

const seed = crashSeed();
const random = seededRandom(seed);
/** A whole number in [min, max]. */
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fake: FakeTelegram;
let tokens = 0;
const newBotToken = () => `${8_100_000 + ++tokens}:AAH-crash-${process.pid}-${tokens}-tokenXYZ`;

/** Runtimes and data folders of the running test, stopped and removed even when it fails. */
const running: RunningRuntime[] = [];
const folders: string[] = [];

beforeAll(async () => {
  fake = await startFakeTelegram();
  console.log(`crash tests: CRASH_SEED=${seed}`);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((runtime) => runtime.stop()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
afterAll(async () => {
  await fake?.close();
});

/** A runtime on a fresh folder, and a way to kill it and start another on the same folder. */
async function crashable(extra: Record<string, string> = {}) {
  const env = () => ({ TELEGRAM_API_ROOT: fake.url, TELEGRAM_MODE: 'polling', TELEGRAM_POLL_TIMEOUT: '2', ...extra });
  const dataDir = mkdtempSync(join(tmpdir(), 'conversa-crash-'));
  folders.push(dataDir);
  let runtime = await spawnLocalRuntime(env(), dataDir);
  running.push(runtime);
  const call = callAt(() => runtime.url);
  return {
    call,
    get runtime() {
      return runtime;
    },
    async killAndRestart() {
      await runtime.kill();
      runtime = await spawnLocalRuntime(env(), dataDir);
      running.push(runtime);
    },
  };
}

type Call = ReturnType<typeof callAt>;

async function newOwner(call: Call) {
  const person = await call('POST', '/auth/register', { body: { name: 'Dona Crash', email: uniqueEmail('crash'), password: strongPassword } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Loja Crash' } });
  if (account.status !== 201) throw new Error(JSON.stringify(account.body));
  return { token: account.body.accessToken as string, accountId: account.body.id as string };
}

/** An owner with a Telegram connection that the channel worker polls. */
async function telegramOwner(call: Call): Promise<{ token: string; accountId: string; bot: FakeBot; serviceId: string }> {
  const owner = await newOwner(call);
  const botToken = newBotToken();
  const bot = fake.addBot(botToken, 'Loja');
  const created = await call('POST', '/services', { token: owner.token, body: { name: 'Bot', type: 'telegram', token: botToken } });
  expect(created.status).toBe(201);
  expect((await call('POST', `/services/${created.body.id}/start`, { token: owner.token })).status).toBe(200);
  await eventually(async () => (await call('GET', `/services/${created.body.id}`, { token: owner.token })).body.status === 'connected', 15_000, 'connected');
  await eventually(async () => bot.polling, 15_000, 'polling');
  return { ...owner, bot, serviceId: created.body.id };
}

const messagesOf = (items: readonly Item[], accountId: string) => items.filter((i) => i.type === 'Message' && i.accountId === accountId);

/**
 * After a kill and restart, the sends of an account: every stored one ends sent or failed with a
 * reason; `reached` (the channel's ids by text) holds each text at most once, each sent message
 * exactly once under its channel id, and one that reached the channel without being recorded
 * carries the interrupted reason. Answers the stored sends.
 */
async function checkSends(app: { runtime: RunningRuntime }, accountId: string, accepted: Set<string>, reached: () => Map<string, string[]>) {
  const settled = await eventually(
    async () => {
      const stored = messagesOf(await scanTable(app.runtime), accountId).filter((m) => m.isFromMe);
      return stored.every((m) => m.ack !== 0) && stored;
    },
    40_000,
    'every stored send answered',
  );
  const byId = new Map(settled.map((m) => [m.id as string, m]));
  for (const id of accepted) expect(byId.has(id), `accepted send ${id} is stored`).toBe(true);
  const delivered = reached();
  for (const [text, ids] of delivered) expect(ids.length, `"${text}" reached the channel ${ids.length} times`).toBe(1);
  for (const message of settled) {
    const seen = delivered.get(message.text) ?? [];
    if (message.ack >= 1) {
      expect(seen, `sent message "${message.text}" reached the channel once, under its id`).toEqual([message.channelMessageId]);
    } else {
      expect(message.ack, `"${message.text}" ends sent or failed`).toBe(-2);
      expect(message.error, `"${message.text}" failed with a reason`).toBeTruthy();
      // Only a hand-over cut short by the crash may have reached the channel without being recorded.
      if (seen.length) expect(message.error).toBe(interruptedReason);
    }
  }
  return settled;
}

/**
 * Waits for the drawn moment to kill: until `reached` holds, or 15 s at most (a busy machine may
 * not get that far; a kill then is still a kill in the middle of the work).
 */
async function killMoment(reached: () => Promise<boolean>, everyMs: number): Promise<void> {
  const until = Date.now() + 15_000;
  while (!(await reached()) && Date.now() < until) await sleep(everyMs);
}

/** Fires `total` sends at once; answers the ids the API accepted (once `all` resolves). */
function fireSends(call: Call, token: string, body: (i: number) => object, total: number) {
  const accepted = new Set<string>();
  const sends = Array.from({ length: total }, (_, i) =>
    call('POST', '/messages/send', { token, body: body(i) })
      .then((answer) => {
        if (answer.status === 201) accepted.add(answer.body.id);
      })
      .catch(() => undefined),
  );
  return { accepted, all: Promise.all(sends) };
}

describe(`crash tests (CRASH_SEED=${seed})`, () => {
  it('killed in the middle of 20 queued sends: after a restart each reaches Telegram at most once, sent ones exactly once, none stuck', {
    timeout: 90_000,
  }, async () => {
    const app = await crashable();
    const owner = await telegramOwner(app.call);
    const customer = { id: 880_000 + tokens, first_name: 'Cliente' };
    owner.bot.receive(customer, { text: 'Oi' });
    const contact = await eventually(
      async () => (await app.call('GET', '/contacts', { token: owner.token })).body.data?.find((c: Item) => c.idFromService === String(customer.id)),
      15_000,
      'the contact',
    );
    const total = 20;
    // Telegram asks the lane to wait 2 s at the first send (a flood wait), so all the sends are
    // stored and queued behind it; the kill then comes once a drawn number reached the fake.
    owner.bot.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 2', parameters: { retry_after: 2 } });
    const sends = fireSends(app.call, owner.token, (i) => ({ contactId: contact.id, serviceId: owner.serviceId, text: `envio ${i}` }), total);
    await sends.all;
    const reachedBeforeKill = between(2, 10);
    const sendsSeen = () => owner.bot.sent.filter((c) => c.method === 'sendMessage').length;
    await killMoment(async () => sendsSeen() >= reachedBeforeKill, 2);
    await sleep(between(0, 10));
    await app.killAndRestart();

    await checkSends(app, owner.accountId, sends.accepted, () => {
      const delivered = new Map<string, string[]>();
      for (const call of owner.bot.sent) {
        if (call.method !== 'sendMessage' || !call.answer.ok) continue;
        const id = `${call.params.chat_id}:${call.answer.result.message_id}`;
        delivered.set(call.params.text, [...(delivered.get(call.params.text) ?? []), id]);
      }
      return delivered;
    });
    expect(accountProblems(await scanTable(app.runtime))).toEqual([]);
  });

  it('the channel worker killed in the middle of 20 WhatsApp sends: each reaches the socket at most once, sent ones exactly once', {
    timeout: 90_000,
  }, async () => {
    const app = await crashable({ WHATSAPP_DOUBLE: '1', WHATSAPP_DOUBLE_PACE_MS: '40' });
    const control = () => new WhatsAppControl(app.runtime.whatsappControlUrl!);
    const owner = await newOwner(app.call);
    const service = await app.call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    expect(service.status).toBe(201);
    const serviceId = service.body.id as string;
    expect((await app.call('POST', `/services/${serviceId}/start`, { token: owner.token })).status).toBe(200);
    await control().waitFor(serviceId, (socket) => socket.sockets === 1);
    await control().pair(serviceId);
    await eventually(async () => (await app.call('GET', `/services/${serviceId}`, { token: owner.token })).body.status === 'connected', 15_000, 'connected');
    const contact = await app.call('POST', '/contacts', {
      token: owner.token,
      body: { name: 'Joana', serviceId, data: { phoneNumber: '+55 (11) 98765-4321', phoneCountry: 'br' } },
    });
    expect(contact.status).toBe(201);

    const sentLog = join(app.runtime.dataDir, 'whatsapp-double-sent.jsonl');
    const reached = () =>
      existsSync(sentLog)
        ? readFileSync(sentLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { text: string; id: string })
        : [];
    const total = 20;
    const sends = fireSends(app.call, owner.token, (i) => ({ contactId: contact.body.id, serviceId, text: `zap ${i}` }), total);
    const reachedBeforeKill = between(1, 12);
    await killMoment(async () => reached().length >= reachedBeforeKill, 5);
    await sleep(between(0, 20));
    await app.killAndRestart();
    await sends.all;
    // The restarted worker takes its lease back and opens a new socket on the stored credentials.
    await control().waitFor(serviceId, (socket) => socket.sockets >= 1);
    await control().emit(serviceId, 'connection.update', { connection: 'open' });

    await checkSends(app, owner.accountId, sends.accepted, () => {
      const delivered = new Map<string, string[]>();
      for (const { text, id } of reached()) delivered.set(text, [...(delivered.get(text) ?? []), id]);
      return delivered;
    });
    expect(accountProblems(await scanTable(app.runtime))).toEqual([]);
  });

  it('killed in the middle of an inbound burst of 40 updates: each stored exactly once, one contact per customer', { timeout: 90_000 }, async () => {
    const app = await crashable();
    const owner = await telegramOwner(app.call);
    const customers = Array.from({ length: 5 }, (_, i) => ({ id: 870_000 + tokens * 100 + i, first_name: 'Cliente', last_name: `${i}` }));
    const total = 40;
    for (let i = 0; i < total; i++) owner.bot.receive(customers[i % customers.length]!, { text: `entrada ${i}` });

    const inbound = (items: readonly Item[]) => messagesOf(items, owner.accountId).filter((m) => !m.isFromMe && m.text.startsWith('entrada '));
    // Part of the burst stored, then a kill at a drawn moment.
    const storedBeforeKill = between(1, 30);
    await killMoment(async () => inbound(await scanTable(app.runtime)).length >= storedBeforeKill, 150);
    await sleep(between(0, 100));
    await app.killAndRestart();

    const items = await eventually(
      async () => {
        const all = await scanTable(app.runtime);
        return new Set(inbound(all).map((m) => m.text)).size === total && all;
      },
      40_000,
      'every update stored',
    );
    const texts = inbound(items).map((m) => m.text as string);
    expect(texts.length, 'no update stored twice').toBe(total);
    const contacts = items.filter((i) => i.type === 'Contact' && i.accountId === owner.accountId);
    expect(contacts.map((c) => c.idFromService).sort()).toEqual(customers.map((c) => String(c.id)).sort());
    expect(accountProblems(items)).toEqual([]);
  });

  it('killed in the middle of concurrent sign-ups and account creations: no half-made account, counters equal what is stored', {
    timeout: 90_000,
  }, async () => {
    const app = await crashable();
    const people = 12;
    const done: { email: string }[] = [];
    const flows = Array.from({ length: people }, async (_, i) => {
      const email = uniqueEmail(`crash${i}`);
      const person = await app.call('POST', '/auth/register', { body: { name: `Pessoa ${i}`, email, password: strongPassword } });
      if (person.status !== 201) return;
      const account = await app.call('POST', '/accounts', { token: person.body.accessToken, body: { name: `Loja ${i}` } });
      if (account.status !== 201) return;
      const botToken = newBotToken();
      fake.addBot(botToken, `Loja${i}`);
      await app.call('POST', '/services', { token: account.body.accessToken, body: { name: 'Bot', type: 'telegram', token: botToken } });
      // A second account of the same person (a new user of theirs in it).
      await app.call('POST', '/accounts', { token: account.body.accessToken, body: { name: `Filial ${i}` } });
      done.push({ email });
    });
    const settledFlows = Promise.allSettled(flows);
    await sleep(between(30, 900));
    await app.killAndRestart();
    await settledFlows;

    const items = await scanTable(app.runtime);
    expect(accountProblems(items)).toEqual([]);
    // Every sign-up the API accepted can log in after the restart.
    const registered = items.filter((i) => i.type === 'User').map((u) => u.email as string);
    for (const { email } of done) expect(registered).toContain(email);
    for (const email of new Set(registered)) {
      const login = await app.call('POST', '/auth/login', { body: { email, password: strongPassword } });
      expect(login.status, `login of ${email}`).toBe(200);
    }
    // The restarted runtime goes on: a new account now is whole.
    await newOwner(app.call);
    expect(accountProblems(await scanTable(app.runtime))).toEqual([]);
  });
});
