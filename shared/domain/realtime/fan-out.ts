/**
 * Posting events to every live connection of their account, forgetting connections that are gone.
 * A connection whose token has expired gets nothing more: it is closed and forgotten instead. A
 * conversation's events reach only the connections whose user sees the conversation (audience.ts).
 */
import { accountConnections, forgetConnection } from '#db/ws-connections.ts';
import type { Ports } from '../ports.ts';
import { batchAudience, connectionViewer, eventsFor } from './audience.ts';
import type { AddressedEvent } from './events.ts';

export interface Broadcaster {
  /** Sends to one connection; answers 'gone' when the connection no longer exists. */
  post(connectionId: string, data: string): Promise<'sent' | 'gone'>;
  /** Closes a connection (API Gateway's DeleteConnection); a connection already gone is fine. */
  close(connectionId: string): Promise<void>;
}

export async function fanOut(ports: Ports, broadcaster: Broadcaster, events: AddressedEvent[]): Promise<{ sent: number; pruned: number }> {
  const byAccount = new Map<string, AddressedEvent[]>();
  for (const e of events) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
  let sent = 0;
  let pruned = 0;
  const nowSeconds = Math.floor(ports.clock().getTime() / 1000);
  await Promise.all(
    [...byAccount].map(async ([accountId, list]) => {
      const connections = await accountConnections(ports.table, accountId, nowSeconds);
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
