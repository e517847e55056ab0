/**
 * Calls as Baileys reports them (the socket double's `ring`, after `handleCall` in
 * Socket/messages-recv.js): a person's offer is handed to the sink once, even when WhatsApp sends
 * it twice, and rejected with the offer's own ids; the call's terminate after the rejection and a
 * group call's offer are not handed over; a caller WhatsApp names by a `@lid` id is kept under the
 * number the offer's `callerPn` gives, the `@lid` id as an alias (ADR-0220).
 */
import { proto, type WAMessage } from 'baileys';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../tests/support/whatsapp-double.ts';
import { connectedSession } from '../../tests/support/whatsapp-session-harness.ts';
import type { WhatsAppSession } from './session.ts';

const sessions: WhatsAppSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop()));
});

const customer = '5511987654321@s.whatsapp.net';
const message = (id: string) =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: customer, id, fromMe: false },
    messageTimestamp: 1_767_000_000,
    message: { conversation: 'Oi' },
  }) as WAMessage;

describe('calls', () => {
  it('a person’s offer is handed over and rejected once; repeats, its terminate and group calls are not', async () => {
    const { socket, calls, rang } = await connectedSession(sessions);

    const offer = socket.ring({ id: 'CALL0001', from: customer, repeated: true });
    socket.ring({ id: 'CALL0002', from: '5511988887777@s.whatsapp.net', groupJid: '120363025246125888@g.us' });
    socket.ring({ id: 'CALL0003', from: '248915362091234@lid', callerPn: '5521999990000@s.whatsapp.net', isVideo: true });
    // Handed over after the calls: once it is there, the calls' handling (and the terminates it caused) is over.
    await until(() => socket.rejectedCalls.length === 2);
    socket.deliver([message('MSG0001')]);
    await until(() => calls.some((c) => c.kind === 'message'));

    expect(socket.rejectedCalls).toEqual([
      { callId: 'CALL0001', callFrom: customer },
      { callId: 'CALL0003', callFrom: '248915362091234@lid' },
    ]);
    expect(calls.map((c) => c.kind)).toEqual(['message']);
    expect(rang.map((c) => ({ ...c, chat: { ...c.chat, avatar: undefined } }))).toEqual([
      {
        callId: 'CALL0001',
        chat: { idFromService: customer, aliases: ['551187654321@s.whatsapp.net'], name: '', isGroup: false, phoneNumber: '5511987654321', avatar: undefined },
        isVideo: false,
        timestamp: offer.date.toISOString(),
      },
      {
        callId: 'CALL0003',
        chat: {
          idFromService: '5521999990000@s.whatsapp.net',
          aliases: ['248915362091234@lid', '552199990000@s.whatsapp.net'],
          name: '',
          isGroup: false,
          phoneNumber: '5521999990000',
          avatar: undefined,
        },
        isVideo: true,
        timestamp: expect.any(String),
      },
    ]);
  });
});
