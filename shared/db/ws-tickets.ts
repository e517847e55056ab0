/**
 * One-time tickets of the realtime link: asked with an access token (`POST /api/ws-ticket`), given in
 * the WebSocket URL and spent by `$connect`. Kept under the SHA-256 of the ticket, so the table never
 * holds a usable one; spent by one conditional delete, so two handshakes with one ticket cannot both
 * have it.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';

/** The session a ticket was asked by: what `$connect` checks again and records the connection with. */
export interface WsTicketItem {
  userId: string;
  accountId: string | null;
  /** The session's token: its id, session generation and expiry (epoch seconds). */
  jti: string;
  generation: number;
  tokenExpiresAt: number;
  /** The user's role when the ticket was asked (the connection records the role read at `$connect`). */
  isAdmin: boolean;
  /** Epoch ms after which the ticket opens nothing, whether or not TTL has removed it yet. */
  expiresAt: number;
}

/** The ticket's key part: its SHA-256, base64url. */
export function ticketDigest(ticket: string): string {
  return createHash('sha256').update(ticket).digest('base64url');
}

export async function putWsTicket(table: Table, ticket: string, item: WsTicketItem): Promise<void> {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...keys.wsTicket(ticketDigest(ticket)), type: entityTypes.wsTicket, ...item, ttl: Math.ceil(item.expiresAt / 1000) + 60 },
      // A random 256-bit ticket never meets another; the condition makes sure.
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Removes the ticket and answers what it held, or undefined when there was none (unknown, or spent
 * already): of concurrent spends of one ticket exactly one gets it.
 */
export async function spendWsTicket(table: Table, ticket: string): Promise<WsTicketItem | undefined> {
  const spent = await unlessConditionFails(
    table.doc.send(
      new DeleteCommand({
        TableName: table.name,
        Key: keys.wsTicket(ticketDigest(ticket)),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  return spent?.Attributes as WsTicketItem | undefined;
}
