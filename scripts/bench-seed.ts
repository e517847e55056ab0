/**
 * What the benchmarks share: their table, opened on dynalite in the runtime's data folder before
 * the runtime starts, the owner, connections, customers and messages they seed into it, the
 * WebSocket client timing message.CREATED, and the summary of their timings.
 */
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import dynalite from 'dynalite';
import batchWriteItem from 'dynalite/actions/batchWriteItem.js';
import { create as createStore } from 'dynalite/db/index.js';
import { ulid } from 'ulid';
import WebSocket from 'ws';
import { scryptPasswords } from '#lib/scrypt-passwords.ts';
import { contactItem, type ContactFields, type ContactItem } from '#db/contacts.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { messageItem, type MessageItem } from '#db/messages.ts';
import type { ServiceStatus } from '#contracts/services.ts';
import type { ServiceItem } from '#db/services.ts';
import { createTableInput, tableShape } from '#db/table-definition.ts';
import { ttlIndexFileName, type SavedTtlIndex } from '../infra/local/emulators/dynamo-front.ts';
import { newUserItem } from '#db/users.ts';
import { realtimeUrl } from '../tests/support/realtime-url.ts';

/** The runtime's table, made straight in dynalite under `dataDir`; `close` before the runtime starts on it. */
export async function openSeedTable(dataDir: string, tableName: string): Promise<{ doc: DynamoDBDocumentClient; close: () => Promise<void> }> {
  const db = dynalite({ path: join(dataDir, 'dynamo'), createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(db.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  // Written around the front: the next start scans for TTL items (dynamo-front.ts, loadTtlIndex).
  rmSync(join(dataDir, ttlIndexFileName), { force: true });
  await new Promise((r) => setTimeout(r, 100));
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return { doc, close: () => new Promise<void>((r) => db.close(() => r())) };
}

/**
 * The runtime's table under `dataDir`, made over dynalite's HTTP front, then written through
 * dynalite's own store and BatchWriteItem action: no SDK, signing or HTTP per batch, about 2.5
 * times faster at 130,000 items. Items are the key module's, marshalled here.
 */
export async function openSeedWriter(
  dataDir: string,
  tableName: string,
): Promise<{ write: (items: Record<string, unknown>[]) => Promise<void>; close: () => Promise<void> }> {
  await (await openSeedTable(dataDir, tableName)).close();
  const store = createStore({ path: join(dataDir, 'dynamo'), createTableMs: 0 });
  // The runtime's DynamoDB front keeps an index of the items with a TTL; this writer, bypassing
  // the front on a table it made, leaves that index behind as the front would have built it.
  const ttl: SavedTtlIndex = { clean: true, entries: [] };
  return {
    write: (items) =>
      new Promise((resolve, reject) => {
        for (const item of items) {
          if (typeof item[tableShape.ttlAttribute] !== 'number') continue;
          const key = marshall({ [tableShape.partitionKey]: item[tableShape.partitionKey], [tableShape.sortKey]: item[tableShape.sortKey] });
          ttl.entries.push({ table: tableName, key, expiresAt: item[tableShape.ttlAttribute] as number });
        }
        batchWriteItem(
          store,
          { RequestItems: { [tableName]: items.map((item) => ({ PutRequest: { Item: marshall(item, { removeUndefinedValues: true }) } })) } },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    close: async () => {
      await new Promise<void>((resolve, reject) => store.lifecycleManager.gracefulClose((error) => (error ? reject(error) : resolve())));
      writeFileSync(join(dataDir, ttlIndexFileName), JSON.stringify(ttl));
    },
  };
}

/** The owner the benchmarks seed: a verified admin, and the guard of their e-mail. */
export async function benchOwnerItems(accountId: string, email: string, password: string, now: string): Promise<Record<string, unknown>[]> {
  const user = newUserItem({ id: ulid(), name: 'Dona Bench', email, accountId, passwordHash: await scryptPasswords().hash(password), isAdmin: true }, now);
  return [
    { ...user, isOwner: true, emailVerified: true },
    { ...keys.userEmail(accountId, email), type: entityTypes.userEmail },
  ];
}

/** A WhatsApp connection of the benchmarks' account, in `status` since `now`. */
export function benchServiceItem(accountId: string, id: string, name: string, status: ServiceStatus, now: string): ServiceItem {
  return {
    ...keys.service(accountId, id),
    type: entityTypes.service,
    id,
    accountId,
    name,
    channelType: 'whatsapp',
    status,
    statusReason: null,
    qrCode: null,
    tokenSealed: null,
    tokenHint: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** What every benchmark customer has alike: a person on WhatsApp with a Brazilian number, offline, not archived. */
type BenchCustomerFields =
  | 'contactType'
  | 'idFromService'
  | 'phoneCountry'
  | 'gender'
  | 'avatarKey'
  | 'isOnline'
  | 'lastSeenAt'
  | 'archivedAt'
  | 'archivedReason';

/** A customer of a benchmark's account on its WhatsApp connection: the JID is `phoneNumber`'s. */
export function benchContactItem(fields: Omit<ContactFields, BenchCustomerFields> & { phoneNumber: string }): ContactItem {
  return contactItem({
    ...fields,
    contactType: 'user',
    idFromService: `${fields.phoneNumber}@s.whatsapp.net`,
    phoneCountry: 'BR',
    gender: null,
    avatarKey: null,
    isOnline: false,
    lastSeenAt: null,
    archivedAt: null,
    archivedReason: null,
  });
}

/**
 * A text message of a seeded conversation, at `atMs` (its id is a ULID of that time), as the
 * channel left it: ours read by the customer after one send attempt, the customer's delivered.
 */
export function benchMessageItem(
  conversation: { accountId: string; contactId: string; serviceId: string },
  atMs: number,
  text: string,
  fromMe: boolean,
): MessageItem {
  const id = ulid(atMs);
  const at = new Date(atMs).toISOString();
  return messageItem({
    id,
    ...conversation,
    text,
    messageType: 'text',
    timestamp: at,
    isFromMe: fromMe,
    ack: fromMe ? 3 : 2,
    error: null,
    file: null,
    quotedMessage: null,
    replyMessageId: null,
    replyToChannelMessageId: null,
    user: null,
    groupContact: null,
    channelMessageId: `seed-${id}`,
    sendAttempt: fromMe ? 1 : 0,
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * A WebSocket client of the runtime signed in with `token`, open: `arrivals` holds when (performance.now())
 * each message.CREATED reached it, by message id. `close` when done.
 */
export async function messageArrivals(runtimeUrl: string, token: string): Promise<{ arrivals: Map<string, number>; close: () => void }> {
  const socket = new WebSocket(await realtimeUrl(runtimeUrl, token));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const arrivals = new Map<string, number>();
  socket.on('message', (data) => {
    const event = JSON.parse(data.toString()) as { event: string; data: { id: string } };
    if (event.event === 'message.CREATED') arrivals.set(event.data.id, performance.now());
  });
  return { arrivals, close: () => socket.close() };
}

/** Count, p50, p95 and max of a list of timings, in ms with two decimals. */
export function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { n: sorted.length, p50: +at(50).toFixed(2), p95: +at(95).toFixed(2), max: +sorted[sorted.length - 1]!.toFixed(2) };
}

/**
 * The page with a benchmark's own section, between `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`,
 * replaced by `body` (or added at the end); the rest of the page stays as written.
 */
export function withSection(page: string, name: string, body: string): string {
  const section = `<!-- bench:${name} -->\n${body.trim()}\n<!-- /bench:${name} -->\n`;
  const own = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->\\n?`);
  return own.test(page) ? page.replace(own, section) : `${page.trimEnd()}\n\n${section}`;
}
