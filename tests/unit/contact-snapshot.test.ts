/**
 * A cold directory starts from the account's snapshot in the bucket (s3rver) and brings it current
 * from the change index: the same contacts as the table, having read only the changes since.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { localS3Client } from '../support/local-bucket.ts';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { createTableInput } from '#db/table-definition.ts';
import { allContacts, contactItem, contactTombstoneStep, type ContactFields } from '#db/contacts.ts';
import { contactSnapshotObjectKey, keys } from '#db/keys.ts';
import { ContactDirectory, overlapMs } from '#domain/contacts/contact-directory.ts';
import { decodeSnapshot, encodeSnapshot, readContactSnapshot, writeContactSnapshot } from '#domain/contacts/contact-snapshot.ts';
import { contactListRules, listContacts } from '#domain/contacts/contacts.ts';
import { contactDirectory } from '#domain/contacts/contact-directory.ts';
import { newAccountItem } from '#db/accounts.ts';
import type { Ports } from '#domain/ports.ts';
import type { AccountSession } from '#domain/session.ts';
import { fold, parseListQuery } from '#domain/list-query.ts';
import type { Storage } from '#domain/ports.ts';
import { s3Storage } from '#lib/s3-storage.ts';
import type { Table } from '#db/client.ts';

let dir: string;
let db: Server;
let s3: S3rver;
let table: Table;
let storage: Storage;
const noServices = async () => [];
const sign = async (key: string) => key;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contact-snapshot-'));
  db = dynalite({ path: join(dir, 'dynamo'), createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(db.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(new CreateTableCommand(createTableInput('snapshots')));
  await new Promise((r) => setTimeout(r, 50));
  table = { name: 'snapshots', doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'media', configs: [] }] });
  const address = (await s3.run()) as AddressInfo;
  storage = s3Storage('media', localS3Client(`http://127.0.0.1:${address.port}`));
});

afterAll(async () => {
  await s3.close();
  await new Promise<void>((r) => db.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function fields(accountId: string, i: number, name: string, updatedAt = new Date().toISOString()): ContactFields {
  return {
    id: `c${String(i).padStart(3, '0')}`,
    accountId,
    serviceId: 'S1',
    name,
    contactType: 'user',
    idFromService: `${i}@s.whatsapp.net`,
    ...(i % 5 === 0 ? { channelAliases: [`${i}@lid`] } : {}),
    email: i % 2 ? `Pessoa.${i}@Exemplo.com.br` : null,
    phoneNumber: `55119${i}`,
    phoneCountry: 'BR',
    gender: null,
    avatarKey: i % 7 === 0 ? `accounts/${accountId}/avatars/${i}.jpg` : null,
    isOnline: false,
    lastSeenAt: null,
    archivedAt: null,
    archivedReason: null,
    lastMessage: i % 3 ? { id: `m${i}`, text: 'Olá', type: 'text', isFromMe: false, ack: 0, timestamp: '2026-01-01T00:00:00.000Z', file: null } : null,
    lastMessageAt: i % 3 ? new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString() : null,
    unread: i % 4,
    // The Cloud API's window: absent on contacts who never wrote (or before it was kept).
    ...(i % 3 === 1 ? { lastInboundAt: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString() } : {}),
    messagesCount: 3,
    // The team inbox's fields on some contacts (absent on contacts stored before it).
    ...(i % 2
      ? {
          status: 'pending' as const,
          userId: 'U1',
          user: { id: 'U1', name: 'Ana' },
          departmentId: 'D1',
          department: { id: 'D1', name: 'Financeiro' },
          tagIds: ['T1', 'T2'],
        }
      : {}),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt,
  };
}

const put = (f: ContactFields) => table.doc.send(new PutCommand({ TableName: table.name, Item: contactItem(f) }));
const query = (raw: object) => parseListQuery(JSON.stringify({ perPage: 500, ...raw }), contactListRules);
const ids = async (directory: ContactDirectory, accountId: string, raw: object, read?: () => ReturnType<typeof readContactSnapshot>) =>
  (await directory.list(table, accountId, noServices, query(raw), sign, read)).data.map((c) => `${c.id}:${c.name}`);
const storedNames = async (accountId: string) => (await allContacts(table, accountId)).sort((a, b) => (a.id < b.id ? -1 : 1)).map((c) => `${c.id}:${c.name}`);

describe('contact snapshots', { timeout: 30_000 }, () => {
  it('keep every field a contact is listed with, and the folded text', async () => {
    const contacts = [fields('A', 5, 'Conceição Araújo'), fields('A', 6, 'ana'), fields('A', 7, 'Bia')].map((f) => ({
      fields: f,
      folded: { name: f.name === 'Conceição Araújo' ? 'conceicao araujo' : f.name.toLowerCase(), email: f.email?.toLowerCase() ?? null, phone: f.phoneNumber },
    }));
    const back = await decodeSnapshot(await encodeSnapshot({ accountId: 'A', position: 1234, contacts }), 'A');
    expect(back).toEqual({ accountId: 'A', position: 1234, contacts });
    expect(await decodeSnapshot(await encodeSnapshot({ accountId: 'A', position: 1, contacts }), 'B')).toBeNull();
  });

  it('round-trip many contacts across the encoder slices, with accents and characters outside the BMP, as ASCII bytes', async () => {
    // 12,345: several slices of a column and a partial last one.
    const names = ['Conceição Araújo', 'Zoë 😀 Ñandú', 'ÅSA ßtraße', 'Ana "Aspas" \\ barra', 'Lúcia\nnova linha', 'Ἀθηνᾶ'];
    const contacts = Array.from({ length: 12_345 }, (_, i) => {
      const f = fields('A', i, `${names[i % names.length]} ${i}`);
      if (i % 11 === 0) f.email = `Joã${i}@Exemplo.com.br`;
      if (i % 13 === 0)
        f.lastMessage = { id: `m${i}`, text: 'Olá, tudo bem? 🎉 ção', type: 'text', isFromMe: true, ack: 3, timestamp: f.createdAt, file: null };
      if (i % 17 === 0)
        f.lastMessage = {
          id: `d${i}`,
          text: '',
          type: 'document',
          isFromMe: false,
          ack: 0,
          timestamp: f.createdAt,
          file: { name: 'nota fiscal.pdf', mimetype: 'application/pdf' },
        };
      return { fields: f, folded: { name: fold(f.name), email: f.email ? fold(f.email) : null, phone: f.phoneNumber } };
    });
    const bytes = await encodeSnapshot({ accountId: 'A', position: 42.5, contacts });
    // Every byte ASCII: the reader copies the bytes into a string instead of decoding UTF-8.
    expect(gunzipSync(bytes).every((byte) => byte < 0x80)).toBe(true);
    const back = await decodeSnapshot(bytes, 'A');
    expect(back?.contacts).toHaveLength(contacts.length);
    expect(back).toEqual({ accountId: 'A', position: 42.5, contacts });
  });

  it('of version 6 (one JSON object) are still read, so a deploy of the line-per-column format loads no account from its items', async () => {
    const f = fields('A', 0, 'Conceição Araújo');
    // The columns version 6 was written with.
    const columns6 = [
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
    ];
    const data = [
      ...columns6.map((c) => [(f as unknown as Record<string, unknown>)[c] ?? null]),
      ['conceicao araujo'],
      [null],
      ...['id', 'text', 'type', 'isFromMe', 'ack', 'timestamp', 'file'].map(() => [null]),
    ];
    // Written ASCII only, as version 6 was.
    const v6 = gzipSync(
      JSON.stringify({
        v: 6,
        accountId: 'A',
        position: 7,
        columns: columns6,
        messageColumns: ['id', 'text', 'type', 'isFromMe', 'ack', 'timestamp', 'file'],
        orders: [],
        data,
      }).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
    const back = await decodeSnapshot(v6, 'A');
    expect(back).toEqual({
      accountId: 'A',
      position: 7,
      contacts: [{ fields: f, folded: { name: 'conceicao araujo', email: f.email?.toLowerCase() ?? null, phone: f.phoneNumber } }],
    });
  });

  it('decode a column, and 5,000 contacts, per turn of the event loop: other work runs in between', async () => {
    const contacts = Array.from({ length: 12_345 }, (_, i) => {
      const f = fields('A', i, `Contato ${i}`);
      return { fields: f, folded: { name: fold(f.name), email: f.email ? fold(f.email) : null, phone: f.phoneNumber } };
    });
    const bytes = await encodeSnapshot({ accountId: 'A', position: 1, contacts });
    let turns = 0;
    let decoding = true;
    const count = () => {
      if (!decoding) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const back = await decodeSnapshot(bytes, 'A');
    decoding = false;
    expect(back?.contacts).toHaveLength(12_345);
    // 38 columns and 3 batches of contacts: other callbacks ran between at least that many steps.
    expect(turns).toBeGreaterThanOrEqual(38 + 2);
  });

  it('of an earlier format are not read (the directory then loads every item, and the next write replaces them)', async () => {
    const earlier = gzipSync(JSON.stringify({ v: 2, accountId: 'A', position: 1, columns: [], rows: [] }));
    expect(await decodeSnapshot(earlier, 'A')).toBeNull();
  });

  it('start a cold directory that then reads only the changes made after the snapshot', async () => {
    const accountId = 'SNAP1';
    for (let i = 0; i < 60; i++) await put(fields(accountId, i, `Contato ${i}`));
    // Past the overlap window, so the cold directory's delta holds only what follows.
    await new Promise((r) => setTimeout(r, overlapMs + 100));
    const writer = new ContactDirectory();
    await writeContactSnapshot(storage, await writer.snapshot(table, accountId, noServices, contactListRules.defaultOrder ?? []));
    expect(writer.lastSync(accountId)).toMatchObject({ loaded: 'items', changesRead: 60 });

    // After the snapshot: a rename, a new contact, a deletion.
    await put(fields(accountId, 3, 'Renomeado'));
    await put(fields(accountId, 99, 'Novo Silva'));
    await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.contact(accountId, 'c010') }));
    await table.doc.send(new PutCommand({ TableName: table.name, ...contactTombstoneStep(accountId, 'c010', new Date().toISOString(), 0).Put }));

    const cold = new ContactDirectory();
    const read = () => readContactSnapshot(storage, accountId);
    expect(await ids(cold, accountId, { order: [['id', 'ASC']] }, read)).toEqual(await storedNames(accountId));
    expect(cold.lastSync(accountId)).toEqual({ loaded: 'snapshot', changesRead: 3, changesApplied: 3 });
    // Search goes through the index the snapshot's folded text built.
    expect(await ids(cold, accountId, { where: { name: { like: '%SILVA%' } } }, read)).toEqual(['c099:Novo Silva']);
    // The default order and the signed avatars match a directory that read every item.
    const full = new ContactDirectory();
    const everyField = async (d: ContactDirectory, r?: typeof read) => (await d.list(table, accountId, noServices, query({}), sign, r)).data;
    expect(await everyField(cold, read)).toEqual(await everyField(full));
  });

  it('carry the orders their writer sorted in, which a cold directory keeps instead of sorting, only when they hold', async () => {
    const accountId = 'SNAP4';
    // Ties on name (broken by id) and accents that fold.
    const names = ['Érica Lima', 'erica lima', 'Ana', 'Ána', 'Bruno', 'Zé'];
    for (let i = 0; i < 40; i++) await put(fields(accountId, i, `${names[i % names.length]}`));
    await new Promise((r) => setTimeout(r, overlapMs + 100));
    const writer = new ContactDirectory();
    const byName: [string, 'ASC' | 'DESC'][] = [['name', 'ASC']];
    const snapshot = await writer.snapshot(table, accountId, noServices, contactListRules.defaultOrder ?? [], undefined, [byName]);
    expect(snapshot.orders?.map((o) => o.order)).toEqual([
      [...(contactListRules.defaultOrder ?? []), ['id', 'ASC']],
      [...byName, ['id', 'ASC']],
    ]);
    await writeContactSnapshot(storage, snapshot);
    // Changed after the snapshot: the kept orders move these entries like any sync.
    await put(fields(accountId, 3, 'Aaron'));
    await put(fields(accountId, 77, 'Érica Lima'));
    const full = new ContactDirectory();
    const sorts = vi.spyOn(Array.prototype, 'sort');
    const read = () => readContactSnapshot(storage, accountId);
    const cold = new ContactDirectory();
    expect(await ids(cold, accountId, { order: byName }, read)).toEqual(await ids(full, accountId, { order: byName }));
    expect(await ids(cold, accountId, {}, read)).toEqual(await ids(full, accountId, {}));
    // The full load sorted each order once; the cold view from the snapshot sorted none of its 41 entries.
    expect(sorts.mock.contexts.filter((c) => (c as unknown[]).length === 41)).toHaveLength(2);
    sorts.mockRestore();

    // An order that does not hold (a writer of another fold, a damaged object) is not kept: the view sorts.
    const bad = await readContactSnapshot(storage, accountId);
    bad!.orders![1]!.rows = bad!.orders![1]!.rows!.toReversed();
    await storage.put(contactSnapshotObjectKey(accountId), await encodeSnapshot(bad!), 'application/gzip');
    const fromBad = new ContactDirectory();
    expect(await ids(fromBad, accountId, { order: byName }, read)).toEqual(await ids(full, accountId, { order: byName }));
    // One that names a row twice and misses another (the right length, in order around it): the view
    // rebuilds the list from its entries rather than sorting what it was given.
    const twice = await readContactSnapshot(storage, accountId);
    const rows = twice!.orders![1]!.rows!;
    rows[1] = rows[0]!;
    await storage.put(contactSnapshotObjectKey(accountId), await encodeSnapshot(twice!), 'application/gzip');
    const fromTwice = new ContactDirectory();
    expect(await ids(fromTwice, accountId, { order: byName }, read)).toEqual(await ids(full, accountId, { order: byName }));
  });

  it('are not used when missing, unreadable or older than the tombstones', async () => {
    const accountId = 'SNAP2';
    for (let i = 0; i < 5; i++) await put(fields(accountId, i, `Pessoa ${i}`));
    const missing = new ContactDirectory();
    expect(await ids(missing, accountId, {}, () => readContactSnapshot(storage, accountId))).toHaveLength(5);
    expect(missing.lastSync(accountId)?.loaded).toBe('items');

    await storage.put(contactSnapshotObjectKey(accountId), new TextEncoder().encode('not gzip'), 'application/gzip');
    const unreadable = new ContactDirectory();
    expect(await ids(unreadable, accountId, {}, () => readContactSnapshot(storage, accountId))).toHaveLength(5);
    expect(unreadable.lastSync(accountId)?.loaded).toBe('items');

    const writer = new ContactDirectory(() => Date.now() - 8 * 24 * 60 * 60 * 1000);
    await writeContactSnapshot(storage, await writer.snapshot(table, accountId, noServices, []));
    const old = new ContactDirectory();
    expect(await ids(old, accountId, {}, () => readContactSnapshot(storage, accountId))).toHaveLength(5);
    expect(old.lastSync(accountId)?.loaded).toBe('items');
  });

  it('are written by the first cold list of an account that has none, which answers from every item', async () => {
    const accountId = 'SNAP3';
    await table.doc.send(new PutCommand({ TableName: table.name, Item: newAccountItem(accountId, 'Conta', new Date().toISOString()) }));
    for (let i = 0; i < 8; i++) await put(fields(accountId, i, `Cliente ${i}`));
    expect(await readContactSnapshot(storage, accountId)).toBeNull();
    // The product's path: the process's directory, the session's account, a viewer who sees all.
    const ports = { table, storage } as unknown as Ports;
    const session = { accountId } as AccountSession;
    const answer = await listContacts(ports, session, query({ order: [['id', 'ASC']] }), { userId: 'U', seesAll: true, departmentIds: [] });
    expect(answer.data.map((c) => `${c.id}:${c.name}`)).toEqual(await storedNames(accountId));
    const written = await readContactSnapshot(storage, accountId);
    expect(written?.contacts.map((c) => c.fields.id).sort()).toEqual((await allContacts(table, accountId)).map((c) => c.id).sort());
    // A new cold process starts from it.
    const cold = new ContactDirectory();
    expect(await ids(cold, accountId, { order: [['id', 'ASC']] }, () => readContactSnapshot(storage, accountId))).toEqual(await storedNames(accountId));
    expect(cold.lastSync(accountId)?.loaded).toBe('snapshot');
    // A warm list neither reloads nor rewrites it.
    await storage.put(contactSnapshotObjectKey(accountId), new TextEncoder().encode('kept'), 'application/gzip');
    await listContacts(ports, session, query({}), { userId: 'U', seesAll: true, departmentIds: [] });
    expect(new TextDecoder().decode(await storage.get(contactSnapshotObjectKey(accountId)))).toBe('kept');
    contactDirectory.clear();
  });
});
