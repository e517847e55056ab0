/**
 * WhatsApp calls on a QR connection, end to end on the local runtime with the socket double
 * (ADR-0220). The double reports calls as Baileys' `handleCall` does: an
 * offer WhatsApp sends twice (`offer_notice` and `offer`), a group call's offer, and the terminate
 * that follows a rejection. With 'Rejeitar ligações do WhatsApp' on, a person's call is rejected
 * once with the offer's ids, the configured text goes out once as an automated message, and the
 * conversation shows 'Ligação de voz rejeitada automaticamente'; a group call is left alone. Off,
 * nothing is rejected nor sent, and the conversation shows only 'Ligação de voz recebida'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAutomationSettings } from '#contracts/automations.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { putAccountSetting } from '#db/account-settings.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { WhatsAppControl } from '../support/whatsapp-control.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';
import { runtimePorts } from '../support/runtime-ports.ts';
import { eventually } from './worker.ts';

let runtime: RunningRuntime;
let control: WhatsAppControl;
const call = callAt(() => runtime.url);

beforeAll(async () => {
  runtime = await spawnLocalRuntime({ WHATSAPP_DOUBLE: '1', WHATSAPP_DOUBLE_PACE_MS: '50' });
  control = new WhatsAppControl(runtime.whatsappControlUrl!);
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
});

const customer = '5511977775555@s.whatsapp.net';
const groupMember = '5511966664444@s.whatsapp.net';
const answerText = 'Não atendemos ligações por aqui, {{primeiro_nome}}. Escreva sua dúvida que respondemos já.';

/** An account with a paired WhatsApp connection; its admin's token. */
async function connectedAccount(name: string): Promise<{ token: string; serviceId: string }> {
  const registered = await call('POST', '/auth/register', { body: { name: 'Dona Zap', email: uniqueEmail(name), password: strongPassword } });
  const account = await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: 'Loja Zap' } });
  const token = account.body.accessToken as string;
  const serviceId = (await call('POST', '/services', { token, body: { name: 'WhatsApp da loja', type: 'whatsapp' } })).body.id as string;
  expect((await call('POST', `/services/${serviceId}/start`, { token })).status).toBe(200);
  await control.waitFor(serviceId, () => true);
  await control.pair(serviceId);
  await eventually(async () => (await call('GET', `/services/${serviceId}`, { token })).body.status === 'connected', 20_000);
  return { token, serviceId };
}

type Line = { text: string; kind: string; isFromMe: boolean; automated?: true };

async function contactsOf(token: string) {
  return (await call('GET', '/contacts', { token })).body.data as { id: string; name: string; idFromService: string }[];
}

async function linesOf(token: string, contactId: string): Promise<Line[]> {
  const data = (await call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token })).body.data as (Line & { timestamp: string })[];
  return [...data].sort((a, b) => a.timestamp.localeCompare(b.timestamp)).map(({ text, kind, isFromMe, automated }) => ({ text, kind, isFromMe, automated }));
}

describe('WhatsApp calls', () => {
  it('with the setting on, a person’s call is rejected once and answered once; a group call is left alone', { timeout: 90_000 }, async () => {
    const { token, serviceId } = await connectedAccount('calls-on');
    const saved = await call('PUT', '/automations', { token, body: { ...defaultAutomationSettings, rejectCalls: { enabled: true, text: answerText } } });
    expect(saved.status).toBe(200);
    expect(saved.body.rejectCalls).toEqual({ enabled: true, text: answerText });

    await control.ring(serviceId, { id: '6F1A0C3B9E2D4F5A8B7C6D5E4F3A2B1C', from: customer, repeated: true });
    await control.ring(serviceId, { id: '7A2B0C3B9E2D4F5A8B7C6D5E4F3A2B1D', from: groupMember, groupJid: '120363025246125888@g.us' });
    // A later video call of the same person: once it is answered, anything the first call still had coming would have come before.
    await control.ring(serviceId, { id: '8B3C0C3B9E2D4F5A8B7C6D5E4F3A2B1E', from: customer, isVideo: true });

    const state = await control.waitFor(serviceId, (s) => s.sent.length >= 2);
    const contact = (await contactsOf(token)).find((c) => c.idFromService === customer);
    expect(contact).toBeDefined();
    const answer = answerText.replace('{{primeiro_nome}}', contact!.name.split(' ')[0]!);
    expect(state.sent.map(({ jid, text }) => ({ jid, text }))).toEqual([
      { jid: customer, text: answer },
      { jid: customer, text: answer },
    ]);
    expect(state.rejectedCalls).toEqual([
      { callId: '6F1A0C3B9E2D4F5A8B7C6D5E4F3A2B1C', callFrom: customer },
      { callId: '8B3C0C3B9E2D4F5A8B7C6D5E4F3A2B1E', callFrom: customer },
    ]);
    // The group's caller got no conversation.
    expect((await contactsOf(token)).map((c) => c.idFromService)).toEqual([customer]);
    // Each call's line at the time it rang, each answer when it was written: the two calls' lines and answers may interleave.
    const lines = await linesOf(token, contact!.id);
    expect(lines.filter((l) => l.kind === 'system')).toEqual([
      { text: 'Ligação de voz rejeitada automaticamente', kind: 'system', isFromMe: true, automated: undefined },
      { text: 'Chamada de vídeo rejeitada automaticamente', kind: 'system', isFromMe: true, automated: undefined },
    ]);
    expect(lines.filter((l) => l.kind !== 'system')).toEqual([
      { text: answer, kind: 'message', isFromMe: true, automated: true },
      { text: answer, kind: 'message', isFromMe: true, automated: true },
    ]);
  });

  it('with the setting off, a call is only recorded: no reject, nothing sent', { timeout: 90_000 }, async () => {
    const { token, serviceId } = await connectedAccount('calls-off');
    await control.ring(serviceId, { id: '9C4D0C3B9E2D4F5A8B7C6D5E4F3A2B1F', from: customer, repeated: true });
    // A message after the call: handed over after it, so once it is stored the call's handling is over.
    await control.deliver(serviceId, [
      {
        key: { remoteJid: customer, fromMe: false, id: '3A0000000000CALLTEST' },
        message: { conversation: 'Oi, liguei agora' },
        messageTimestamp: Math.floor(Date.now() / 1000) + 1,
        pushName: 'Marta',
      },
    ]);
    const contact = await eventually(async () => (await contactsOf(token)).find((c) => c.idFromService === customer));
    const lines = await eventually(async () => {
      const all = await linesOf(token, contact.id);
      return all.some((l) => l.text === 'Oi, liguei agora') ? all : undefined;
    });
    expect(lines).toEqual([
      { text: 'Ligação de voz recebida', kind: 'system', isFromMe: true, automated: undefined },
      { text: 'Oi, liguei agora', kind: 'message', isFromMe: false, automated: undefined },
    ]);
    const state = await control.socket(serviceId);
    expect(state!.rejectedCalls).toEqual([]);
    expect(state!.sent).toEqual([]);
  });

  it('automations saved before the rule existed read it off, with the suggested text: a call is only recorded', { timeout: 90_000 }, async () => {
    const { token, serviceId } = await connectedAccount('calls-old');
    const me = (await call('GET', '/auth/me', { token })).body.user as { id: string; accountId: string };
    const { rejectCalls: _new, ...before } = { ...defaultAutomationSettings, greeting: { enabled: false, text: 'Olá!' } };
    await putAccountSetting(runtimePorts(runtime).table, me.accountId, 'automations', before, { userId: me.id, now: new Date().toISOString() });
    const read = await call('GET', '/automations', { token });
    expect(read.body.saved).toBe(true);
    expect(read.body.greeting).toEqual({ enabled: false, text: 'Olá!' });
    expect(read.body.rejectCalls).toEqual(defaultAutomationSettings.rejectCalls);

    await control.ring(serviceId, { id: 'AD5E0C3B9E2D4F5A8B7C6D5E4F3A2B20', from: customer });
    const contact = await eventually(async () => (await contactsOf(token)).find((c) => c.idFromService === customer));
    expect(await eventually(async () => ((await linesOf(token, contact.id)).length ? linesOf(token, contact.id) : undefined))).toEqual([
      { text: 'Ligação de voz recebida', kind: 'system', isFromMe: true, automated: undefined },
    ]);
    expect((await control.socket(serviceId))!.rejectedCalls).toEqual([]);
  });
});
