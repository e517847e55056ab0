/**
 * Read receipts (WhatsApp's blue ticks) for a conversation an agent opened: Baileys' `readMessages`
 * with the keys of the customer's messages, through the live socket this worker holds for the
 * connection. Baileys reads the phone's privacy setting first and sends `read` when read receipts
 * are on, `read-self` (seen only by the business's own devices, so the phone also shows the chat as
 * read) when they are off. The keys are rebuilt from what the inbox stores: the chat (the contact's
 * `idFromService`, the phone-number JID when known: receipts addressed to a `@lid` chat are
 * reported not to reach the sender, fazer-ai/baileys-api#346), the WhatsApp id of each message and,
 * in groups, its author. No Baileys code is imported (sends and receipts run before any session
 * loaded it).
 */
import type { WAMessageKey } from 'baileys';
import { ChannelSendError, type ReadReceipts, type SessionHolding } from '#domain/channels/port.ts';
import { notLiveText } from './adapter.ts';
import type { LiveConnections } from './live.ts';

/** How long the receipts may take (a privacy query and a node); a socket that does not answer by then is left to its liveness check. */
export const readTimeoutMs = 15_000;

/** Baileys' message keys of received messages. */
export function readKeys(read: ReadReceipts): WAMessageKey[] {
  return read.messages.map(({ channelMessageId, author }) => ({
    remoteJid: read.chat,
    id: channelMessageId,
    fromMe: false,
    ...(author && read.chat.endsWith('@g.us') ? { participant: author } : {}),
  }));
}

/** Sends receipts through the sockets of a registry (the worker adapter's). */
export const readThrough =
  (sockets: LiveConnections, timeoutMs = readTimeoutMs): NonNullable<SessionHolding['markRead']> =>
  async (connection, read) => {
    const live = sockets.get(connection.serviceId);
    if (!live) throw new ChannelSendError(notLiveText, { retryAfterSeconds: 5 });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        live.socket.readMessages(readKeys(read)),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`read receipts not sent within ${timeoutMs} ms`)), timeoutMs))),
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
