/**
 * After a crash WhatsApp delivers again what it never got a receipt for. Baileys sends a message's
 * receipt before it upserts it (Socket/messages-recv.js, `handleMessage`), so a process killed
 * right after a message reached the product may have stored it while its receipt never reached
 * WhatsApp; at the next login the server redelivers it in the offline batch. The socket double does
 * the same (tests/support/runtime-with-whatsapp-double.ts, `deliver` with a late receipt): here the
 * runtime is killed after storing a customer's message, restarted on the same data folder, and
 * WhatsApp redelivers it; the product keeps it once (deduplicated by WhatsApp's message id), makes
 * no second contact, and sends no realtime event for it again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { listQueryString } from '#contracts/list-query.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { WhatsAppControl } from '../support/whatsapp-control.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';
import { eventually } from './worker.ts';

const running: RunningRuntime[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'conversa-wa-redelivery-'));
const env = { WHATSAPP_DOUBLE: '1', WHATSAPP_DOUBLE_PACE_MS: '50' };

afterAll(async () => {
  await Promise.all(running.map((runtime) => runtime.stop()));
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** The realtime events a session's socket receives. */
async function listen(baseUrl: string, token: string) {
  const socket = new WebSocket(await realtimeUrl(baseUrl, token));
  const events: { event: string; data: any }[] = [];
  socket.on('message', (data) => events.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { events, close: () => socket.terminate() };
}

const customer = '5511988887777@s.whatsapp.net';
const written = (id: string, text: string) => ({
  key: { remoteJid: customer, fromMe: false, id },
  message: { conversation: text },
  messageTimestamp: Math.floor(Date.now() / 1000),
  pushName: 'Joana',
});

describe('WhatsApp redelivers after a crash', () => {
  it('a message stored before the crash and delivered again after it is kept once and fanned out once', { timeout: 120_000 }, async () => {
    let runtime = await spawnLocalRuntime(env, dataDir);
    running.push(runtime);
    let call = callAt(() => runtime.url);
    let control = new WhatsAppControl(runtime.whatsappControlUrl!);
    const registered = await call('POST', '/auth/register', { body: { name: 'Dona Zap', email: uniqueEmail('redelivery'), password: strongPassword } });
    const account = await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: 'Loja Zap' } });
    const token = account.body.accessToken as string;
    const serviceId = (await call('POST', '/services', { token, body: { name: 'WhatsApp da loja', type: 'whatsapp' } })).body.id as string;
    expect((await call('POST', `/services/${serviceId}/start`, { token })).status).toBe(200);
    await control.waitFor(serviceId, () => true);
    await control.pair(serviceId);
    await eventually(async () => (await call('GET', `/services/${serviceId}`, { token })).body.status === 'connected', 20_000);

    const contactsOf = async () => (await call('GET', '/contacts', { token })).body.data as { id: string; idFromService: string }[];
    const messagesOf = async (contactId: string) =>
      (await call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token })).body.data as { id: string; text: string }[];

    const before = await listen(runtime.url, token);
    // WhatsApp delivers; the receipt would reach it a minute later, and the process dies before that.
    await control.deliver(serviceId, [written('3A0000000000000REDELIVER1', 'Oi, vocês abrem sábado?')], 60_000);
    const [contact] = await eventually(async () => {
      const contacts = await contactsOf();
      return contacts.length === 1 && (await messagesOf(contacts[0]!.id)).length === 1 ? contacts : undefined;
    }, 20_000);
    const [stored] = await messagesOf(contact!.id);
    await eventually(async () => before.events.some((e) => e.data?.id === stored!.id), 10_000);
    before.close();

    await runtime.kill();
    runtime = await spawnLocalRuntime(env, dataDir);
    running.push(runtime);
    call = callAt(() => runtime.url);
    control = new WhatsAppControl(runtime.whatsappControlUrl!);
    const after = await listen(runtime.url, token);
    // The worker takes its lease back and opens a socket; WhatsApp lets it in and sends its offline batch.
    await control.waitFor(serviceId, () => true, 30_000);
    await control.emit(serviceId, 'connection.update', { connection: 'open' });
    const state = await control.waitFor(serviceId, (s) => s.redelivered.length > 0, 10_000);
    expect(state.redelivered).toEqual(['3A0000000000000REDELIVER1']);
    // A new message after the batch: once it is stored, the redelivered one has been handled too.
    await control.deliver(serviceId, [written('3A0000000000000AFTERCRASH', 'Ah, e domingo?')]);
    await eventually(async () => (await messagesOf(contact!.id)).length >= 2, 20_000);
    await eventually(async () => after.events.some((e) => e.event === 'message.CREATED' && e.data?.text === 'Ah, e domingo?'), 10_000);

    expect((await messagesOf(contact!.id)).map((m) => m.text).sort()).toEqual(['Ah, e domingo?', 'Oi, vocês abrem sábado?']);
    expect((await contactsOf()).map((c) => c.id)).toEqual([contact!.id]);
    expect(after.events.filter((e) => e.data?.id === stored!.id)).toEqual([]);
    after.close();
  });
});
