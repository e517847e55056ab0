/**
 * WhatsApp calls on a QR connection, end to end on the local runtime with the socket double
 * (ADR-0220). The double reports calls as Baileys' `handleCall` does: an
 * offer WhatsApp sends twice (`offer_notice` and `offer`), a group call's offer, and the terminate
 * that follows a rejection. With 'Rejeitar ligações do WhatsApp' on, a person's call is rejected
 * once with the offer's ids, the configured text goes out once as an automated message, and the
 * conversation shows 'Ligação de voz rejeitada automaticamente'; a group call is left alone. Off,
 * nothing is rejected nor sent, and the conversation shows only 'Ligação de voz recebida'. A
 * rejection Baileys fails (connection closed, timed out) leaves the line saying so, and the answer
 * goes; a replayed offer is handled once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAutomationSettings } from '#contracts/automations.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { putAccountSetting } from '#db/account-settings.ts';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
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

  it('a rejection Baileys fails is told as such, and the answer still goes', { timeout: 90_000 }, async () => {
    const { token, serviceId } = await connectedAccount('calls-failing');
    await call('PUT', '/automations', { token, body: { ...defaultAutomationSettings, rejectCalls: { enabled: true, text: answerText } } });

    // The socket closes before the reject goes; then a video call's reject gets no answer in time.
    await control.ring(serviceId, { id: 'BE6F0C3B9E2D4F5A8B7C6D5E4F3A2B21', from: customer, rejectFails: 'closed' });
    await control.ring(serviceId, { id: 'CF7A0C3B9E2D4F5A8B7C6D5E4F3A2B22', from: customer, isVideo: true, rejectFails: 'timeout' });
    const state = await control.waitFor(serviceId, (s) => s.sent.length >= 2);
    expect(state.rejectedCalls).toEqual([]);
    const contact = (await contactsOf(token)).find((c) => c.idFromService === customer)!;
    const answer = answerText.replace('{{primeiro_nome}}', contact.name.split(' ')[0]!);
    const lines = await linesOf(token, contact.id);
    expect(lines.filter((l) => l.kind === 'system').map((l) => l.text)).toEqual([
      'Ligação de voz recebida (rejeição automática não confirmada)',
      'Chamada de vídeo recebida (rejeição automática não confirmada)',
    ]);
    expect(lines.filter((l) => l.automated).map((l) => l.text)).toEqual([answer, answer]);
  });

  it('a replayed offer (the offline batch on the same session, or a restarted worker) is neither rejected, answered nor recorded again', {
    timeout: 90_000,
  }, async () => {
    const { token, serviceId } = await connectedAccount('calls-replayed');
    const me = (await call('GET', '/auth/me', { token })).body.user as { accountId: string };
    await call('PUT', '/automations', { token, body: { ...defaultAutomationSettings, rejectCalls: { enabled: true, text: answerText } } });
    const first = { id: 'E19C0C3B9E2D4F5A8B7C6D5E4F3A2B24', from: customer };
    await control.ring(serviceId, first);
    await control.waitFor(serviceId, (s) => s.sent.length >= 1);

    // The offer again, as Baileys replays it from the offline batch after a reconnection…
    const replayed = {
      chatId: customer,
      from: customer,
      id: first.id,
      date: new Date(),
      offline: true,
      status: 'offer' as const,
      isVideo: false,
      isGroup: false,
    };
    await control.emit(serviceId, 'call', [replayed]);
    // …and as a restarted or another worker hands it to the domain (the session's memory of it gone).
    let rejects = 0;
    const again = await inboundSink(runtimePorts(runtime), { accountId: me.accountId, serviceId }).call!(
      {
        callId: first.id,
        chat: { idFromService: customer, name: '', isGroup: false, phoneNumber: '5511977775555' },
        isVideo: false,
        timestamp: replayed.date.toISOString(),
      },
      async () => void rejects++,
    );
    expect(again).toBeNull();
    expect(rejects).toBe(0);
    // A later call is handled after the replay (in order on the session): once its answer is out, the replay's turn is over.
    await control.ring(serviceId, { id: 'F2AD0C3B9E2D4F5A8B7C6D5E4F3A2B25', from: customer });
    const state = await control.waitFor(serviceId, (s) => s.sent.length >= 2);
    expect(state.sent).toHaveLength(2);
    expect(state.rejectedCalls.map((c) => c.callId)).toEqual([first.id, 'F2AD0C3B9E2D4F5A8B7C6D5E4F3A2B25']);
    const contact = (await contactsOf(token)).find((c) => c.idFromService === customer)!;
    const lines = await linesOf(token, contact.id);
    expect(lines.filter((l) => l.kind === 'system').map((l) => l.text)).toEqual([
      'Ligação de voz rejeitada automaticamente',
      'Ligação de voz rejeitada automaticamente',
    ]);
    expect(lines.filter((l) => l.automated)).toHaveLength(2);
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
