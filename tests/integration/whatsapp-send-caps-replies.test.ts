/**
 * The cap on first messages to new chats holds only the sends that open a chat: a reply to a chat
 * already open, queued behind a capped first message of the same number, goes out at once, while
 * the capped message keeps its 'Aguardando: limite diário…' text and the messages of its own
 * conversation keep their order (a second message to the new chat waits behind the first and both
 * go, in order, the next day). A local runtime of this file's own, with the worker on socket doubles.
 */
import { describe, expect, it } from 'vitest';
import { sendWaitTexts } from '#contracts/messages.ts';
import type { SocketDouble } from '../support/whatsapp-double.ts';
import { sendCapsWorld } from './send-caps-world.ts';
import { eventually } from './worker.ts';

const { clock, team, contact, send, messageOf } = sendCapsWorld('caps-replies', { dailySends: 100, dailyNewChats: 1 });

const texts = (socket: SocketDouble) => socket.sent.map((s) => ('text' in s.content ? s.content.text : null));

describe('the cap on new chats holds only the sends that open a chat', () => {
  it('a reply to an open chat queued behind a capped first message goes out; the new chat’s messages wait, then go in order', async () => {
    const t = await team();
    const [open, fresh] = [await contact(t, 'Cliente antiga'), await contact(t, 'Cliente nova')];
    const opened = await send(t, open, 'Olá!');
    await eventually(async () => (await messageOf(t, open, opened)).ack === 1);

    // Capped: the day's one new chat is spent. Then, behind it in the number's queue, a second
    // message to the new chat and a reply to the open one.
    const first = await send(t, fresh, 'Primeira para a nova');
    const second = await send(t, fresh, 'Segunda para a nova');
    const reply = await send(t, open, 'Resposta para a antiga');

    await eventually(async () => (await messageOf(t, open, reply)).ack === 1, 10_000);
    expect(await messageOf(t, fresh, first)).toMatchObject({ ack: 0, waiting: sendWaitTexts.dailyNewChats });
    expect((await messageOf(t, fresh, second)).ack).toBe(0);
    expect((await messageOf(t, fresh, second)).waiting).not.toBeNull();
    expect(texts(t.socket)).toEqual(['Olá!', 'Resposta para a antiga']);

    // More replies to the open chat keep going while the new chat waits.
    const another = await send(t, open, 'Outra resposta');
    await eventually(async () => (await messageOf(t, open, another)).ack === 1, 10_000);
    expect((await messageOf(t, fresh, first)).ack).toBe(0);

    // The next day the new chat's messages go, in the order they were written.
    clock.now += 24 * 3600 * 1000;
    await eventually(async () => (await messageOf(t, fresh, second)).ack === 1, 15_000);
    expect(texts(t.socket)).toEqual(['Olá!', 'Resposta para a antiga', 'Outra resposta', 'Primeira para a nova', 'Segunda para a nova']);
    expect((await messageOf(t, fresh, first)).waiting).toBeNull();
    expect((await messageOf(t, fresh, second)).waiting).toBeNull();
  }, 40_000);
});
