/**
 * An account's contact directory as one compact object in the bucket (ADR-0058): what a cold process loads in one GET instead of reading every contact item, then
 * brings current from the change index. Kept by the `contact-snapshots` stream consumer.
 *
 * Format (gzip of ASCII text): a JSON header `{ v, accountId, position, columns, messageColumns,
 * orders }`, then one line per column of `data`, each a JSON array (JSON text holds no raw line
 * break, so the lines split on '\n'): a reader parses a column at a time and lets the event loop
 * turn between them (version 6 was one JSON object with `data` inside, still read). `position` is the table-clock moment the view was read at (changes stamped after `position -
 * overlap` may be missing, as for any directory view). `data` is columnar: one array per entry of
 * `columns` holding that field of every contact, then the folded names and the folded e-mails where
 * folding does more than lower-casing (null otherwise), then one array per field of the last message
 * (`messageColumns`). Contacts come in the list's default order, so the first sort
 * after a load runs over sorted input. The JSON is ASCII only (other characters as `\uXXXX`), so
 * a reader turns the bytes into a string by copying them rather than decoding UTF-8.
 */
import { promisify } from 'node:util';
import { setImmediate as turn } from 'node:timers/promises';
import { createGzip, gunzip } from 'node:zlib';
import type { ListQuery } from '#contracts/list-query.ts';
import type { MessageSummary } from '#contracts/messages.ts';
import type { ContactFields } from '#db/contacts.ts';
import { contactSnapshotObjectKey } from '#db/keys.ts';
import type { Storage } from '../ports.ts';

/**
 * 2: the team inbox's fields (status, assignee, department, tags); 3: columnar, ASCII only; 4: the last message columnar too;
 * 5: `lastInboundAt` (the Cloud API's 24-hour window); 6: `optedOutAt` and `optedOutWord` (ADR-0225);
 * 7: a line per column (the same fields as 6, which is still read).
 */
const version = 7;
const oneLineVersion = 6;

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
  'lastInboundAt',
  'optedOutAt',
  'optedOutWord',
] as const satisfies readonly (keyof ContactFields)[];

/**
 * The last message's fields, each a column of its own after the folded text (null where a contact
 * has none): a third of the snapshot's text, which JSON.parse reads faster as arrays of values than
 * as one object per contact with its keys repeated.
 */
const messageColumns = ['id', 'text', 'type', 'isFromMe', 'ack', 'timestamp', 'file'] as const satisfies readonly (keyof MessageSummary)[];

export interface SnapshotContact {
  fields: ContactFields;
  /** Name and e-mail folded for search and sort; the phone number as stored (a reader keeps this object). */
  folded: { name: string; email: string | null; phone: string | null };
}

/** An order of the snapshot's contacts (made total by the id): `rows` lists their indices in it; absent, it is their own order. */
export interface SnapshotOrder {
  order: ListQuery['order'];
  rows?: number[];
}

export interface ContactSnapshot {
  accountId: string;
  position: number;
  contacts: SnapshotContact[];
  /** Orders the writer had sorted the contacts in, which a reader may keep instead of sorting. */
  orders?: SnapshotOrder[];
}

/** Folded text as stored: null when it is only the lower-cased original. */
const stored = (original: string | null, folded: string | null) => (original === null || folded === original.toLowerCase() ? null : folded);

/** Values of one column encoded between two turns of the event loop. */
const valuesPerWrite = 5000;

/** JSON text with every character outside ASCII written as a `\uXXXX` escape (JSON.parse reads them back). */
const asciiOnly = (json: string) => (nonAscii.test(json) ? json.replace(nonAsciiEvery, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json);
const nonAscii = /[\u007f-\uffff]/;
const nonAsciiEvery = /[\u007f-\uffff]/g;

/**
 * Encoded a column slice at a time straight into gzip, which compresses each slice on libuv's
 * threads: no string of the whole snapshot is ever held (at 25,000 contacts the rows, that string,
 * its flattened and UTF-8 copies raised RSS by about 110 MB, the local runtime's peak under writes), and
 * the event loop turns between slices (one synchronous encoding held it for up to 1.6 s under load).
 */
export async function encodeSnapshot(snapshot: ContactSnapshot): Promise<Uint8Array> {
  const gzip = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  // A failure is thrown where the encoding next waits (never a wait on a 'drain' that cannot come);
  // until then it is held here rather than reported as unhandled.
  ended.catch(() => undefined);
  // Compression runs on libuv's threads while the next slice is encoded; a full buffer waits for gzip.
  const write = async (text: string) => {
    if (!gzip.write(asciiOnly(text))) await Promise.race([new Promise((resolve) => gzip.once('drain', resolve)), ended]);
    else await Promise.race([turn(), ended]);
  };
  const { contacts } = snapshot;
  const values: ((c: SnapshotContact) => unknown)[] = [
    ...columns.map((column) => (c: SnapshotContact) => c.fields[column] ?? null),
    (c) => stored(c.fields.name, c.folded.name),
    (c) => stored(c.fields.email, c.folded.email),
    ...messageColumns.map((key) => (c: SnapshotContact) => c.fields.lastMessage?.[key] ?? null),
  ];
  const { accountId, position, orders = [] } = snapshot;
  await write(JSON.stringify({ v: version, accountId, position, columns, messageColumns, orders }));
  for (const value of values) {
    let text = '\n[';
    for (let start = 0; start < contacts.length; start += valuesPerWrite) {
      const slice = JSON.stringify(contacts.slice(start, start + valuesPerWrite).map(value));
      await write(`${text}${start ? ',' : ''}${slice.slice(1, -1)}`);
      text = '';
    }
    await write(`${text}]`);
  }
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

interface Header {
  v: number;
  accountId: string;
  position: number;
  columns: string[];
  messageColumns: string[];
  orders?: SnapshotOrder[];
}

const gunzipped = promisify(gunzip);
/** Contacts made between two turns of the event loop. */
const contactsPerTurn = 5000;

/**
 * The header and the columns of a snapshot's bytes: a column parsed per turn of the event loop.
 * Each line becomes a string of its own (copied from the bytes, ASCII only) before it is parsed:
 * JSON.parse of a slice of one larger string gives strings that keep that whole string alive
 * (measured: a 25,000-contact view held about 7 MB more after collection).
 */
async function parseColumns(bytes: Buffer): Promise<{ header: Header; data: unknown[][] }> {
  const headerEnd = bytes.indexOf(newline);
  if (headerEnd < 0) {
    // Version 6: one JSON object, its columns in `data`.
    const { data, ...header } = JSON.parse(bytes.toString('latin1')) as Header & { data: unknown[][] };
    return { header, data: header.v === oneLineVersion ? data : [] };
  }
  const header = JSON.parse(bytes.toString('latin1', 0, headerEnd)) as Header;
  const data: unknown[][] = [];
  if (header.v !== version) return { header, data };
  for (let start = headerEnd + 1; start < bytes.length; ) {
    const found = bytes.indexOf(newline, start);
    const end = found < 0 ? bytes.length : found;
    data.push(JSON.parse(bytes.toString('latin1', start, end)) as unknown[]);
    start = end + 1;
    await turn();
  }
  return { header, data };
}
const newline = 0x0a;

/**
 * The snapshot in `bytes`, or null when it is of another format version or another account. The
 * decode never holds the event loop long (the local runtime's one thread answers other accounts
 * meanwhile: a 50,000-contact account's decode in one piece held it for about a second): gunzip
 * runs on libuv's threads, then a column is parsed and 5,000 contacts are made per turn.
 */
export async function decodeSnapshot(bytes: Uint8Array, accountId: string): Promise<ContactSnapshot | null> {
  // ASCII only: latin1 copies the bytes, where UTF-8 decoding was a fifth of a cold load.
  const { header: raw, data } = await parseColumns(await gunzipped(bytes));
  if (
    (raw.v !== version && raw.v !== oneLineVersion) ||
    raw.accountId !== accountId ||
    raw.columns.join() !== columns.join() ||
    raw.messageColumns.join() !== messageColumns.join() ||
    data.length !== columns.length + 2 + messageColumns.length
  )
    return null;
  const column = <K extends (typeof columns)[number]>(key: K) => data[columns.indexOf(key)] as ContactFields[K][];
  const nullable = <K extends (typeof columns)[number]>(key: K) => data[columns.indexOf(key)] as (ContactFields[K] | null)[];
  const [id, serviceId, name, contactType, idFromService, email, phoneNumber, phoneCountry, gender, avatarKey, isOnline, lastSeenAt] = [
    column('id'),
    column('serviceId'),
    column('name'),
    column('contactType'),
    column('idFromService'),
    column('email'),
    column('phoneNumber'),
    column('phoneCountry'),
    column('gender'),
    column('avatarKey'),
    column('isOnline'),
    column('lastSeenAt'),
  ];
  const [archivedAt, archivedReason, lastMessageAt, unread, messagesCount, createdAt, updatedAt] = [
    column('archivedAt'),
    column('archivedReason'),
    column('lastMessageAt'),
    column('unread'),
    column('messagesCount'),
    column('createdAt'),
    column('updatedAt'),
  ];
  const [channelAliases, status, userId, user, departmentId, department, tagIds] = [
    nullable('channelAliases'),
    nullable('status'),
    nullable('userId'),
    nullable('user'),
    nullable('departmentId'),
    nullable('department'),
    nullable('tagIds'),
  ];
  const lastInboundAt = nullable('lastInboundAt');
  const [optedOutAt, optedOutWord] = [nullable('optedOutAt'), nullable('optedOutWord')];
  const [foldedName, foldedEmail] = data.slice(columns.length) as (string | null)[][];
  const message = <K extends (typeof messageColumns)[number]>(key: K) => data[columns.length + 2 + messageColumns.indexOf(key)] as (MessageSummary[K] | null)[];
  const [messageId, messageText, messageType, isFromMe, ack, timestamp, file] = [
    message('id'),
    message('text'),
    message('type'),
    message('isFromMe'),
    message('ack'),
    message('timestamp'),
    message('file'),
  ];
  const contacts = new Array<SnapshotContact>(id.length);
  for (let i = 0; i < contacts.length; i++) {
    if (i && i % contactsPerTurn === 0) await turn();
    // One object literal per contact: every contact gets the same shape at once.
    const fields: ContactFields = {
      accountId,
      id: id[i]!,
      serviceId: serviceId[i]!,
      name: name[i]!,
      contactType: contactType[i]!,
      idFromService: idFromService[i]!,
      email: email[i]!,
      phoneNumber: phoneNumber[i]!,
      phoneCountry: phoneCountry[i]!,
      gender: gender[i]!,
      avatarKey: avatarKey[i]!,
      isOnline: isOnline[i]!,
      lastSeenAt: lastSeenAt[i]!,
      archivedAt: archivedAt[i]!,
      archivedReason: archivedReason[i]!,
      lastMessage:
        messageId[i] === null
          ? null
          : {
              id: messageId[i]!,
              text: messageText[i]!,
              type: messageType[i]!,
              isFromMe: isFromMe[i]!,
              ack: ack[i]!,
              timestamp: timestamp[i]!,
              file: file[i] ?? null,
            },
      lastMessageAt: lastMessageAt[i]!,
      unread: unread[i]!,
      messagesCount: messagesCount[i]!,
      createdAt: createdAt[i]!,
      updatedAt: updatedAt[i]!,
    };
    // Absent in the table (channel aliases, and the team inbox's fields on contacts stored before
    // it): kept absent.
    if (channelAliases[i] !== null) fields.channelAliases = channelAliases[i]!;
    if (status[i] !== null) fields.status = status[i]!;
    if (userId[i] !== null) fields.userId = userId[i]!;
    if (user[i] !== null) fields.user = user[i]!;
    if (departmentId[i] !== null) fields.departmentId = departmentId[i]!;
    if (department[i] !== null) fields.department = department[i]!;
    if (tagIds[i] !== null) fields.tagIds = tagIds[i]!;
    if (lastInboundAt[i] !== null) fields.lastInboundAt = lastInboundAt[i]!;
    if (optedOutAt[i] !== null) fields.optedOutAt = optedOutAt[i]!;
    if (optedOutWord[i] !== null) fields.optedOutWord = optedOutWord[i]!;
    contacts[i] = {
      fields,
      folded: { name: foldedName![i] ?? fields.name.toLowerCase(), email: foldedEmail![i] ?? fields.email?.toLowerCase() ?? null, phone: fields.phoneNumber },
    };
  }
  return { accountId, position: raw.position, contacts, ...(raw.orders?.length ? { orders: raw.orders } : {}) };
}

/**
 * The account's snapshot, or null when there is none or it cannot be read (the directory then reads
 * every contact item, as before snapshots).
 */
export async function readContactSnapshot(storage: Storage, accountId: string): Promise<ContactSnapshot | null> {
  try {
    return await decodeSnapshot(await storage.get(contactSnapshotObjectKey(accountId)), accountId);
  } catch (error) {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name !== 'NoSuchKey' && e.$metadata?.httpStatusCode !== 404) console.warn(`Contact snapshot of account ${accountId} unreadable`, error);
    return null;
  }
}

export async function writeContactSnapshot(storage: Storage, snapshot: ContactSnapshot): Promise<void> {
  await storage.put(contactSnapshotObjectKey(snapshot.accountId), await encodeSnapshot(snapshot), 'application/gzip');
}
