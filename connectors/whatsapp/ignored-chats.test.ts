/**
 * Status updates, broadcast lists and channels (newsletters) are not conversations of the inbox:
 * Baileys is told to ignore them (`shouldIgnoreJid`), so it nacks them before decrypting, and they
 * never reach the ledger or the sink. The socket double applies the option as Baileys'
 * `processNode` does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { proto, type WAMessage } from 'baileys';
import { memoryLedger, until } from '../../tests/support/whatsapp-double.ts';
import { connectedSession } from '../../tests/support/whatsapp-session-harness.ts';
import type { WhatsAppSession } from './session.ts';

const sessions: WhatsAppSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop()));
});

const message = (remoteJid: string, id: string, text: string) =>
  proto.WebMessageInfo.fromObject({ key: { remoteJid, id, fromMe: false }, messageTimestamp: 1_767_000_000, message: { conversation: text } }) as WAMessage;

describe('chats the inbox does not show', () => {
  it('status updates, broadcast lists and newsletters are refused by Baileys: never ledgered, never handed over', async () => {
    const ledger = memoryLedger();
    const written: string[] = [];
    const put = ledger.put;
    ledger.put = async (c, m) => {
      written.push(m.key.id!);
      await put(c, m);
    };
    const { socket, calls } = await connectedSession(sessions, { ledger: () => ledger });

    socket.deliver([
      message('status@broadcast', 'STATUS1', 'minha foto de hoje'),
      message('1234567890@broadcast', 'LIST1', 'promoção para a lista'),
      message('120363000000000000@newsletter', 'NEWS1', 'novidades do canal'),
      message('5511912345678@s.whatsapp.net', 'CHAT1', 'Oi, tudo bem?'),
    ]);
    await until(() => calls.length === 1);
    await new Promise((r) => setTimeout(r, 20));

    expect(socket.nacked.map((m) => m.key.id)).toEqual(['STATUS1', 'LIST1', 'NEWS1']);
    expect(written).toEqual(['CHAT1']);
    expect(calls.map((c) => (c.kind === 'message' ? c.input.channelMessageId : c.kind))).toEqual(['CHAT1']);
  });
});
