/**
 * An account's contact directory as one compact object in the bucket (docs/decisions.md "Contact
 * snapshots"): what a cold process loads in one GET instead of reading every contact item, then
 * brings current from the change index. Kept by the `contact-snapshots` stream consumer.
 *
 * Format (gzip of JSON): `{ v, accountId, position, columns, rows }`. `position` is the table-clock
 * moment the view was read at (changes stamped after `position - overlap` may be missing, as for
 * any directory view). Each row holds the `columns` of a contact in that order, then its folded
 * name and e-mail where folding does more than lower-casing (null otherwise). Rows come in the
 * list's default order, so the first sort after a load runs over sorted input.
 */
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { ContactFields } from '#db/contacts.ts';
import { contactSnapshotObjectKey } from '#db/keys.ts';
import type { Storage } from '../ports.ts';

/** 2: the team inbox's fields (status, assignee, department, tags). */
const version = 2;

const columns = [
  'id',
  'serviceId',
  'name',
  'contactType',
  'idFromService',
  'channelAliases',
  'email',
  'phoneNumber',
  'phoneCountry',
  'gender',
  'avatarKey',
  'isOnline',
  'lastSeenAt',
  'archivedAt',
  'archivedReason',
  'lastMessage',
  'lastMessageAt',
  'unread',
  'messagesCount',
  'createdAt',
  'updatedAt',
  'status',
  'userId',
  'user',
  'departmentId',
  'department',
  'tagIds',
] as const satisfies readonly (keyof ContactFields)[];

export interface SnapshotContact {
  fields: ContactFields;
  folded: { name: string; email: string | null };
}

export interface ContactSnapshot {
  accountId: string;
  position: number;
  contacts: SnapshotContact[];
}

/** Folded text as stored: null when it is only the lower-cased original. */
const stored = (original: string | null, folded: string | null) => (original === null || folded === original.toLowerCase() ? null : folded);

const gzipped = promisify(gzip);
/** Rows encoded between two turns of the event loop. */
const rowsPerTurn = 1000;

/**
 * Encoded a thousand rows at a time, letting the process's other work run in between, and
 * compressed on libuv's threads: at 25,000 contacts one synchronous encoding held a local runtime's
 * event loop for up to 1.6 s under load, delaying every request and realtime event meanwhile.
 */
export async function encodeSnapshot(snapshot: ContactSnapshot): Promise<Uint8Array> {
  const parts: string[] = [];
  for (let start = 0; start < snapshot.contacts.length; start += rowsPerTurn) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const rows = snapshot.contacts
      .slice(start, start + rowsPerTurn)
      .map(({ fields, folded }) => [...columns.map((column) => fields[column] ?? null), stored(fields.name, folded.name), stored(fields.email, folded.email)]);
    parts.push(JSON.stringify(rows).slice(1, -1));
  }
  const head = JSON.stringify({ v: version, accountId: snapshot.accountId, position: snapshot.position, columns }).slice(0, -1);
  return gzipped(`${head},"rows":[${parts.join(',')}]}`, { level: 1 });
}

/** The snapshot in `bytes`, or null when it is of another format version or another account. */
export function decodeSnapshot(bytes: Uint8Array, accountId: string): ContactSnapshot | null {
  const raw = JSON.parse(gunzipSync(bytes).toString('utf8')) as { v: number; accountId: string; position: number; columns: string[]; rows: unknown[][] };
  if (raw.v !== version || raw.accountId !== accountId || raw.columns.join() !== columns.join()) return null;
  const n = columns.length;
  // One object literal per row: every contact gets the same shape at once.
  const contacts = raw.rows.map((r): SnapshotContact => {
    const fields: ContactFields = {
      accountId,
      id: r[0] as string,
      serviceId: r[1] as string,
      name: r[2] as string,
      contactType: r[3] as ContactFields['contactType'],
      idFromService: r[4] as string,
      email: r[6] as string | null,
      phoneNumber: r[7] as string | null,
      phoneCountry: r[8] as string | null,
      gender: r[9] as ContactFields['gender'],
      avatarKey: r[10] as string | null,
      isOnline: r[11] as boolean,
      lastSeenAt: r[12] as string | null,
      archivedAt: r[13] as string | null,
      archivedReason: r[14] as ContactFields['archivedReason'],
      lastMessage: r[15] as ContactFields['lastMessage'],
      lastMessageAt: r[16] as string | null,
      unread: r[17] as number,
      messagesCount: r[18] as number,
      createdAt: r[19] as string,
      updatedAt: r[20] as string,
    };
    if (r[5] !== null) fields.channelAliases = r[5] as string[];
    // The team inbox's fields, absent on contacts stored before it: kept absent, as in the table.
    if (r[21] !== null) fields.status = r[21] as NonNullable<ContactFields['status']>;
    if (r[22] !== null) fields.userId = r[22] as string;
    if (r[23] !== null) fields.user = r[23] as NonNullable<ContactFields['user']>;
    if (r[24] !== null) fields.departmentId = r[24] as string;
    if (r[25] !== null) fields.department = r[25] as NonNullable<ContactFields['department']>;
    if (r[26] !== null) fields.tagIds = r[26] as string[];
    return {
      fields,
      folded: { name: (r[n] as string | null) ?? fields.name.toLowerCase(), email: (r[n + 1] as string | null) ?? fields.email?.toLowerCase() ?? null },
    };
  });
  return { accountId, position: raw.position, contacts };
}

/**
 * The account's snapshot, or null when there is none or it cannot be read (the directory then reads
 * every contact item, as before snapshots).
 */
export async function readContactSnapshot(storage: Storage, accountId: string): Promise<ContactSnapshot | null> {
  try {
    return decodeSnapshot(await storage.get(contactSnapshotObjectKey(accountId)), accountId);
  } catch (error) {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name !== 'NoSuchKey' && e.$metadata?.httpStatusCode !== 404) console.warn(`Contact snapshot of account ${accountId} unreadable`, error);
    return null;
  }
}

export async function writeContactSnapshot(storage: Storage, snapshot: ContactSnapshot): Promise<void> {
  await storage.put(contactSnapshotObjectKey(snapshot.accountId), await encodeSnapshot(snapshot), 'application/gzip');
}
