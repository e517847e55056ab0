/**
 * A WhatsApp contact made by hand is checked on WhatsApp when it is made, not only at its first
 * send: the socket double's directory (`onWhatsApp`) answers as WhatsApp does. A mobile typed with
 * the ninth digit that WhatsApp keeps without it takes the JID WhatsApp answered before anything is
 * sent, so the person's first message lands in that conversation; a number not on WhatsApp gets a
 * system line saying so in its conversation, before anyone writes to it. Nothing is sent either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { noWhatsAppLine } from '#domain/contacts/contact-check.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { WhatsAppControl } from '../support/whatsapp-control.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';
import { eventually } from './worker.ts';

let runtime: RunningRuntime;
let control: WhatsAppControl;
const call = callAt(() => runtime.url);

/** Registered before the ninth digit: WhatsApp keeps it without. */
const keptJid = '551187654321@s.whatsapp.net';

beforeAll(async () => {
  runtime = await spawnLocalRuntime({ WHATSAPP_DOUBLE: '1', WHATSAPP_DOUBLE_PACE_MS: '50' });
  control = new WhatsAppControl(runtime.whatsappControlUrl!);
  await control.register([keptJid]);
}, 90_000);

afterAll(async () => {
  await runtime?.stop();
});

describe('a contact made by hand is checked on WhatsApp at once', () => {
  it('takes the JID WhatsApp answered, or says in its conversation that the number has no WhatsApp; nothing is sent', { timeout: 90_000 }, async () => {
    const registered = await call('POST', '/auth/register', { body: { name: 'Dona Zap', email: uniqueEmail('contact-check'), password: strongPassword } });
    const account = await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: 'Loja Zap' } });
    const token = account.body.accessToken as string;
    const serviceId = (await call('POST', '/services', { token, body: { name: 'WhatsApp da loja', type: 'whatsapp' } })).body.id as string;
    expect((await call('POST', `/services/${serviceId}/start`, { token })).status).toBe(200);
    await control.waitFor(serviceId, (socket) => socket.sockets === 1);
    await control.pair(serviceId);
    await eventually(async () => (await call('GET', `/services/${serviceId}`, { token })).body.status === 'connected', 20_000);

    const made = async (name: string, phoneNumber: string) => {
      const answer = await call('POST', '/contacts', { token, body: { name, serviceId, data: { phoneNumber, phoneCountry: 'br' } } });
      expect(answer.status).toBe(201);
      return answer.body as { id: string; idFromService: string };
    };
    const messagesOf = async (contactId: string) =>
      (await call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token })).body.data as { text: string; kind: string; isFromMe: boolean }[];

    const joana = await made('Joana', '+55 (11) 98765-4321');
    expect(joana.idFromService).toBe('5511987654321@s.whatsapp.net');
    const pedro = await made('Pedro', '+55 (21) 99999-0000');

    await eventually(async () => (await call('GET', `/contacts/${joana.id}`, { token })).body.idFromService === keptJid, 15_000);
    await eventually(async () => (await messagesOf(pedro.id)).some((m) => m.kind === 'system' && m.text === noWhatsAppLine), 15_000);
    expect(await messagesOf(pedro.id)).toHaveLength(1);
    expect(await messagesOf(joana.id)).toEqual([]);
    expect((await control.socket(serviceId))!.sent).toEqual([]);

    // Joana writes first: her message finds the contact typed by hand (no second contact).
    await control.emit(serviceId, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: keptJid, fromMe: false, id: '3A00000000000CHECKED1' },
          message: { conversation: 'Oi!' },
          messageTimestamp: Math.floor(Date.now() / 1000),
        },
      ],
    });
    await eventually(async () => (await messagesOf(joana.id)).some((m) => m.text === 'Oi!'), 15_000);
    expect(((await call('GET', '/contacts', { token })).body.data as { id: string }[]).map((c) => c.id).sort()).toEqual([joana.id, pedro.id].sort());
  });
});
