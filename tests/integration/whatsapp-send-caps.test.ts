/**
 * The channel worker's daily caps against bans, on a local runtime of this file's own whose worker
 * sends through socket doubles: a send over the number's daily cap, or opening one chat too many
 * in a day, waits in the queue (ack 0, the pt-BR reason on the message) instead of failing, and goes
 * on the next day; the counts are table records, read by whichever worker holds the connection.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { sendWaitTexts } from '#contracts/messages.ts';
import { keys } from '#db/keys.ts';
import { brazilDay } from '#connectors/send-caps.ts';
import type { SocketDouble } from '../support/whatsapp-double.ts';
import { sendCapsWorld } from './send-caps-world.ts';
import { eventually } from './worker.ts';

const { own, clock, team, contact, send, messageOf } = sendCapsWorld('caps', { dailySends: 2, dailyNewChats: 1 });

const texts = (socket: SocketDouble) => socket.sent.map((s) => ('text' in s.content ? s.content.text : null));

describe('daily send caps', () => {
  it('a send over the number’s daily cap waits, queued, with the reason on the message, and goes the next day', async () => {
    const t = await team();
    const customer = await contact(t, 'Cliente');
    const ids = [await send(t, customer, 'um'), await send(t, customer, 'dois'), await send(t, customer, 'três')];
    await eventually(async () => (await messageOf(t, customer, ids[2]!)).waiting === sendWaitTexts.dailySends);
    expect(texts(t.socket)).toEqual(['um', 'dois']);
    expect(await messageOf(t, customer, ids[2]!)).toMatchObject({ ack: 0, error: null });
    // The count is the table's, for whichever worker holds the connection next.
    const { Item } = await own
      .ports()
      .table.doc.send(new GetCommand({ TableName: own.ports().table.name, Key: keys.sendDay(t.accountId, t.serviceId, brazilDay(clock.now)) }));
    expect(Item).toMatchObject({ sends: 2 });
    // Still waiting a while later: it is not failed.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await messageOf(t, customer, ids[2]!)).toMatchObject({ ack: 0, waiting: sendWaitTexts.dailySends });

    clock.now += 24 * 3600 * 1000;
    await eventually(async () => (await messageOf(t, customer, ids[2]!)).ack === 1, 10_000);
    expect(texts(t.socket)).toEqual(['um', 'dois', 'três']);
    expect((await messageOf(t, customer, ids[2]!)).waiting).toBeNull();
  }, 30_000);

  it('a first message to a new chat past the daily cap of new chats waits; more messages to an opened chat do not count', async () => {
    const t = await team();
    const [first, second] = [await contact(t, 'Primeira'), await contact(t, 'Segunda')];
    const opened = await send(t, first, 'Olá, primeira!');
    await eventually(async () => (await messageOf(t, first, opened)).ack === 1);
    const waiting = await send(t, second, 'Olá, segunda!');
    await eventually(async () => (await messageOf(t, second, waiting)).waiting === sendWaitTexts.dailyNewChats);
    expect(texts(t.socket)).toEqual(['Olá, primeira!']);

    clock.now += 24 * 3600 * 1000;
    await eventually(async () => (await messageOf(t, second, waiting)).ack === 1, 10_000);
    const again = await send(t, first, 'De novo, primeira');
    await eventually(async () => (await messageOf(t, first, again)).ack === 1, 10_000);
    expect(texts(t.socket)).toEqual(['Olá, primeira!', 'Olá, segunda!', 'De novo, primeira']);
  }, 30_000);
});
