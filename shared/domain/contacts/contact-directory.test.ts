import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { createTableInput } from '#db/table-definition.ts';
import { contactItem, type ContactFields } from '#db/contacts.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { ContactDirectory } from './contact-directory.ts';
import { parseListQuery } from '#domain/list-query.ts';
import { contactListRules } from './contacts.ts';
import type { Table } from '#db/client.ts';

let dir: string;
let db: Server;
let table: Table;
const accountId = 'ACC1';
const noServices = async () => [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'directory-'));
  db = dynalite({ path: dir, createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(db.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(new CreateTableCommand(createTableInput('directory')));
  await new Promise((r) => setTimeout(r, 50));
  table = { name: 'directory', doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
});

afterAll(async () => {
  await new Promise<void>((r) => db.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function fields(id: string, name: string, updatedAt: string, extra: Partial<ContactFields> = {}): ContactFields {
  return {
    id,
    accountId,
    serviceId: 'S1',
    name,
    contactType: 'user',
    idFromService: id,
    email: null,
    phoneNumber: null,
    phoneCountry: null,
    gender: null,
    avatarKey: null,
    isOnline: false,
    lastSeenAt: null,
    archivedAt: null,
    archivedReason: null,
    lastMessage: null,
    lastMessageAt: null,
    unread: 0,
    messagesCount: 0,
    createdAt: updatedAt,
    updatedAt,
    ...extra,
  };
}
const put = (f: ContactFields) => table.doc.send(new PutCommand({ TableName: table.name, Item: contactItem(f) }));
const names = async (directory: ContactDirectory, raw: object = {}) =>
  (await directory.list(table, accountId, noServices, parseListQuery(JSON.stringify(raw), contactListRules), async (key) => `signed:${key}`)).data.map(
    (c) => c.name,
  );

describe('contact directory', () => {
  it('loads once, then follows creations, edits and deletions through the change index', async () => {
    let now = Date.parse('2026-01-01T10:00:00Z');
    const clock = () => now;
    await put(fields('c1', 'Ana', '2026-01-01T09:00:00.000Z'));
    await put(fields('c2', 'Bruno', '2026-01-01T09:00:00.000Z'));
    const directory = new ContactDirectory(clock);
    expect(await names(directory, { order: [['name', 'ASC']] })).toEqual(['Ana', 'Bruno']);

    now += 60_000;
    await put(fields('c3', 'Carla', new Date(now).toISOString()));
    await put(fields('c1', 'Ana Maria', new Date(now).toISOString()));
    expect(await names(directory, { order: [['name', 'ASC']] })).toEqual(['Ana Maria', 'Bruno', 'Carla']);

    now += 60_000;
    const deletedAt = new Date(now).toISOString();
    await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.contact(accountId, 'c2') }));
    await table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: {
          ...keys.contactTombstone(accountId, 'c2'),
          ...keys.contactChange(accountId, deletedAt, 'c2'),
          type: entityTypes.contactTombstone,
          id: 'c2',
          accountId,
          deletedAt,
          ttl: 0,
        },
      }),
    );
    expect(await names(directory, { order: [['name', 'ASC']] })).toEqual(['Ana Maria', 'Carla']);
  });

  it('catches a write that reaches the index a little late', async () => {
    let now = Date.parse('2026-02-01T10:00:00Z');
    const directory = new ContactDirectory(() => now);
    expect(await names(directory)).not.toContain('Atrasado');
    // Written "before" the last read started (its clock was behind), seen only now.
    await put(fields('late', 'Atrasado', new Date(now - 1_000).toISOString()));
    now += 500;
    expect(await names(directory)).toContain('Atrasado');
  });

  it('orders by last message, newest first, and filters archived ones out on request', async () => {
    const directory = new ContactDirectory(() => Date.parse('2026-03-01T10:00:00Z'));
    await put(fields('m1', 'Zeca', '2026-01-01T00:00:00.000Z', { lastMessageAt: '2026-01-03T00:00:00.000Z' }));
    await put(fields('m2', 'Yara', '2026-01-01T00:00:00.000Z', { lastMessageAt: '2026-01-05T00:00:00.000Z', archivedAt: '2026-01-06T00:00:00.000Z' }));
    const ordered = await names(directory, { where: { id: { in: ['m1', 'm2'] } }, order: [['lastMessageAt', 'DESC']] });
    expect(ordered).toEqual(['Yara', 'Zeca']);
    expect(await names(directory, { where: { id: { in: ['m1', 'm2'] }, archivedAt: null } })).toEqual(['Zeca']);
  });

  it('keeps its sorted lists through changes in the order a full sort gives, ties broken by id', { timeout: 60_000 }, async () => {
    const account = 'ACC2';
    let seed = 7;
    // mulberry32: a sound, repeatable series.
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    // Few names and dates: many ties, so the tie rule shows.
    const someName = () => pick(['Ana', 'Ána', 'Bruno', 'bruno', 'Carla']);
    const someDate = () => pick([null, '2026-04-01T00:00:00.000Z', '2026-04-02T00:00:00.000Z']);
    let now = Date.parse('2026-05-01T10:00:00Z');
    const at = () => new Date(now).toISOString();
    const write = (id: string) =>
      table.doc.send(
        new PutCommand({ TableName: table.name, Item: contactItem({ ...fields(id, someName(), at(), { lastMessageAt: someDate() }), accountId: account }) }),
      );
    let ids = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    for (const id of ids) await write(id);
    const orders = [{ order: [['name', 'ASC']] }, {}, { order: [['lastMessageAt', 'DESC']] }, { where: { name: { like: '%an%' } } }];
    const list = async (directory: ContactDirectory, raw: object) =>
      (
        await directory.list(table, account, noServices, parseListQuery(JSON.stringify({ perPage: 500, ...raw }), contactListRules), async (key) => key)
      ).data.map((c) => c.id);
    const warm = new ContactDirectory(() => now);
    for (const raw of orders) await list(warm, raw);
    for (let round = 0; round < 6; round++) {
      now += 60_000;
      for (let i = 0; i < 5; i++) await write(pick(ids));
      const created = `n${round}`;
      await write(created);
      ids.push(created);
      const gone = pick(ids);
      ids = ids.filter((id) => id !== gone);
      await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.contact(account, gone) }));
      await table.doc.send(
        new PutCommand({
          TableName: table.name,
          Item: {
            ...keys.contactTombstone(account, gone),
            ...keys.contactChange(account, at(), gone),
            type: entityTypes.contactTombstone,
            id: gone,
            accountId: account,
            deletedAt: at(),
            ttl: 0,
          },
        }),
      );
      now += 1_000;
      const fresh = new ContactDirectory(() => now);
      for (const raw of orders) {
        const answer = await list(warm, raw);
        expect(answer).toEqual(await list(fresh, raw));
        expect(new Set(answer).size).toBe(answer.length);
      }
      expect(warm.lastSync(account)?.loaded).toBe(false);
    }
  });
});
