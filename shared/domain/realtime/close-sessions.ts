/**
 * Ending a session closes its realtime connections. The table change that ends it (a revoked
 * token, a user archived, removed or moved to a new session generation by a password reset) reaches
 * the `close-sessions` stream consumer, which closes the matching connections through the API
 * Gateway Management API (`DeleteConnection`) and forgets them. See ADR-0104. A user's role change closes their sockets too (recorded
 * with the role they opened with), so the fan-out never judges a socket by an old role.
 */
import { entityTypes } from '#db/keys.ts';
import { accountConnections, type ConnectionItem, forgetConnection } from '#db/ws-connections.ts';
import type { Ports } from '../ports.ts';
import type { Broadcaster } from './fan-out.ts';

/** The connections one change ends: those of an account that `ends` picks. */
export interface EndedSessions {
  accountId: string;
  ends: (connection: ConnectionItem) => boolean;
}

type Image = Record<string, unknown> & { type?: string };

/** What a table change ends, or null when it ends no session. */
export function sessionsEndedBy(change: 'INSERT' | 'MODIFY' | 'REMOVE', previous: Image | undefined, next: Image | undefined): EndedSessions | null {
  if (change === 'INSERT' && next?.type === entityTypes.revokedToken) {
    const { accountId, jti } = next as { accountId?: string | null; jti?: string };
    return accountId && jti ? { accountId, ends: (c) => c.jti === jti } : null;
  }
  const user = (next ?? previous) as Image & { id?: string; accountId?: string | null };
  if (user?.type !== entityTypes.user || !user.accountId || !user.id) return null;
  const { accountId, id } = user;
  if (change === 'REMOVE') return { accountId, ends: (c) => c.userId === id };
  if (change !== 'MODIFY' || !next) return null;
  if (next.archivedAt && !previous?.archivedAt) return { accountId, ends: (c) => c.userId === id };
  const generation = (next.sessionGeneration as number | undefined) ?? 0;
  if (generation > ((previous?.sessionGeneration as number | undefined) ?? 0)) {
    return { accountId, ends: (c) => c.userId === id && (c.generation ?? 0) < generation };
  }
  // A role change ends no session, but the sockets opened with the old role close: the browser
  // reconnects at once, recording the new role the fan-out's visibility filter reads, and refetches.
  const isAdmin = next.isAdmin === true;
  if (isAdmin !== (previous?.isAdmin === true)) return { accountId, ends: (c) => c.userId === id && (c.isAdmin === true) !== isAdmin };
  return null;
}

/** Closes (and forgets) every connection the ended sessions pick; answers how many. */
export async function closeEndedSessions(ports: Ports, broadcaster: Broadcaster, ended: EndedSessions[]): Promise<number> {
  const byAccount = new Map<string, EndedSessions[]>();
  for (const e of ended) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
  const nowSeconds = Math.floor(ports.clock().getTime() / 1000);
  let closed = 0;
  await Promise.all(
    [...byAccount].map(async ([accountId, list]) => {
      const connections = await accountConnections(ports.table, accountId, nowSeconds);
      await Promise.all(
        connections
          .filter((c) => list.some((e) => e.ends(c)))
          .map(async (c) => {
            // Forgotten first, so no fan-out posts to it meanwhile; the gateway's $disconnect forgets it again.
            await forgetConnection(ports.table, c.connectionId);
            await broadcaster.close(c.connectionId);
            closed++;
          }),
      );
    }),
  );
  return closed;
}
