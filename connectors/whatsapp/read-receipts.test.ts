/** Read receipts through the live socket (a socket double answering as Baileys' `readMessages`). */
import { describe, expect, it } from 'vitest';
import { ChannelSendError, type ChannelConnection } from '#domain/channels/port.ts';
import { SocketDouble } from '../../tests/support/whatsapp-double.ts';
import { liveConnections } from './live.ts';
import { readThrough } from './read-receipts.ts';

const connection: ChannelConnection = { accountId: 'ACC1', serviceId: 'SVC-READ', type: 'whatsapp', token: null };
const customer = '5531988887777@s.whatsapp.net';

function live(socket = new SocketDouble()) {
  const sockets = liveConnections();
  sockets.hold(connection.serviceId, { socket, recent: () => undefined, remember: () => undefined });
  return { socket, markRead: readThrough(sockets, 50) };
}

describe('read receipts on WhatsApp', () => {
  it('sends the keys of the customer’s messages to the chat, as `read`', async () => {
    const { socket, markRead } = live();
    await markRead(connection, {
      chat: customer,
      messages: [
        { channelMessageId: 'B', author: null },
        { channelMessageId: 'A', author: null },
      ],
    });
    expect(socket.reads).toEqual([
      {
        type: 'read',
        keys: [
          { remoteJid: customer, id: 'B', fromMe: false },
          { remoteJid: customer, id: 'A', fromMe: false },
        ],
      },
    ]);
  });

  it('names the member who wrote in a group, and becomes `read-self` when the phone hides read receipts', async () => {
    const { socket, markRead } = live();
    socket.readReceiptsPrivacy = 'none';
    await markRead(connection, { chat: '120363000000000000@g.us', messages: [{ channelMessageId: 'G1', author: customer }] });
    expect(socket.reads).toEqual([{ type: 'read-self', keys: [{ remoteJid: '120363000000000000@g.us', id: 'G1', fromMe: false, participant: customer }] }]);
  });

  it('asks to come back when this worker has no live socket, and gives up on a socket that does not answer', async () => {
    const error = await readThrough(liveConnections())(connection, { chat: customer, messages: [{ channelMessageId: 'A', author: null }] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChannelSendError);
    expect(error).toMatchObject({ options: { retryAfterSeconds: 5 } });
    const { socket, markRead } = live();
    socket.answering = false;
    await expect(markRead(connection, { chat: customer, messages: [{ channelMessageId: 'A', author: null }] })).rejects.toThrow(/not sent within/);
  });
});
