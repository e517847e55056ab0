/**
 * Posting events to every live connection of their account, forgetting connections that are gone.
 * A connection whose token has expired gets nothing more: it is closed and forgotten instead. A
 * conversation's events reach only the connections whose user sees the conversation (audience.ts).
 */
import { accountConnections, type ConnectionItem, forgetConnection } from '#db/ws-connections.ts';
import type { Ports } from '../ports.ts';
import { batchAudience, connectionViewer, eventsFor } from './audience.ts';
import type { AddressedEvent } from './events.ts';

export interface Broadcaster {
  /** Sends to one connection; answers 'gone' when the connection no longer exists. */
  post(connectionId: string, data: string): Promise<'sent' | 'gone'>;
  /** Closes a connection (API Gateway's DeleteConnection); a connection already gone is fine. */
  close(connectionId: string): Promise<void>;
}

/** An event being built (it may read items first), with the account it goes to when its change names one. */
export interface PendingEvent {
  accountId: string | undefined;
  event: Promise<AddressedEvent | null>;
}

/**
 * Posts a batch's events once they are built, reading each account's connections while they are
 * built rather than after: a contact's event reads its connection (channel) item first, and the
 * message stored beside it in the same batch would otherwise wait for that read and then for the
 * connections query, one round trip after the other (ADR-0149).
 */
export async function fanOutBuilt(ports: Ports, broadcaster: Broadcaster, pending: readonly PendingEvent[]): Promise<{ sent: number; pruned: number }> {
  const connectionsOf = connectionsReader(ports);
  for (const accountId of new Set(pending.map((p) => p.accountId))) if (accountId) void connectionsOf(accountId);
  const events = (await Promise.all(pending.map((p) => p.event))).filter((e) => e !== null);
  if (!events.length) return { sent: 0, pruned: 0 };
  return fanOut(ports, broadcaster, events, connectionsOf);
}

/** Each account's live connections, read once from the first ask. */
function connectionsReader(ports: Ports): (accountId: string) => Promise<ConnectionItem[]> {
  const reads = new Map<string, Promise<ConnectionItem[]>>();
  const nowSeconds = Math.floor(ports.clock().getTime() / 1000);
  return (accountId) => {
    let read = reads.get(accountId);
    if (!read) {
      read = accountConnections(ports.table, accountId, nowSeconds);
      // Started ahead: a failure is seen by whoever awaits it, not as an unhandled rejection if no one does.
      read.catch(() => undefined);
      reads.set(accountId, read);
    }
    return read;
  };
}

async function fanOut(
  ports: Ports,
  broadcaster: Broadcaster,
  events: AddressedEvent[],
  connectionsOf: (accountId: string) => Promise<ConnectionItem[]>,
): Promise<{ sent: number; pruned: number }> {
  const byAccount = new Map<string, AddressedEvent[]>();
  for (const e of events) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
  let sent = 0;
  let pruned = 0;
  const nowSeconds = Math.floor(ports.clock().getTime() / 1000);
  await Promise.all(
    [...byAccount].map(async ([accountId, list]) => {
      const connections = await connectionsOf(accountId);
      // Members' sockets are judged by the visibility rule, with what it reads fetched once for the batch.
      const audience = connections.some((c) => c.isAdmin !== true) ? await batchAudience(ports, accountId, list) : null;
      await Promise.all(
        connections.map(async (connection) => {
          if (connection.tokenExpiresAt !== undefined && connection.tokenExpiresAt <= nowSeconds) {
            await forgetConnection(ports.table, connection.connectionId);
            await broadcaster.close(connection.connectionId);
            pruned++;
            return;
          }
          for (const e of eventsFor(connectionViewer(connection, audience), list, audience)) {
            const outcome = await broadcaster.post(connection.connectionId, JSON.stringify(e.payload));
            if (outcome === 'gone') {
              await forgetConnection(ports.table, connection.connectionId);
              pruned++;
              return;
            }
            sent++;
          }
        }),
      );
    }),
  );
  return { sent, pruned };
}
