/**
 * The directory's sync whatever the writers' clocks say: changes are stamped by the table's clock,
 * so writers running a day ahead or behind are all seen exactly once, and a sync re-reads no more
 * than the writes of its overlap window. Time is the table's (faked `Date`); each writer's own clock
 * only reaches the `updatedAt` it writes, as in the domain's `nextUpdatedAt(ports.clock(), …)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { createTableInput } from '#db/table-definition.ts';
import {
  allContacts,
  clearUnread,
  contactItem,
  contactTombstoneStep,
  deleteContactIfUnchangedStep,
  nextUpdatedAt,
  writeLastMessage,
  type ContactFields,
  type ContactItem,
} from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import { ContactDirectory, overlapMs } from './contact-directory.ts';
import { parseListQuery } from '#domain/list-query.ts';
import { contactListRules } from './contacts.ts';
import type { Table } from '#db/client.ts';

let dir: string;
let db: Server;
let table: Table;
const noServices = async () => [];
const day = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'directory-clock-'));
  db = dynalite({ path: dir, createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(db.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(new CreateTableCommand(createTableInput('directory-clock')));
  await new Promise((r) => setTimeout(r, 50));
  table = { name: 'directory-clock', doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await new Promise<void>((r) => db.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** Table time, advanced by hand. */
function tableTime(start: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.parse(start));
  return {
    advance: (ms: number) => vi.setSystemTime(Date.now() + ms),
    /** A writer's own clock, `skewMs` off the table's. */
    writerClock: (skewMs: number) => new Date(Date.now() + skewMs),
  };
}

function fields(accountId: string, id: string, name: string, updatedAt: string): ContactFields {
  return {
    id,
    accountId,
    serviceId: 'S1',
    name,
    contactType: 'user',
    idFromService: id,
    email: `${id}@exemplo.com.br`,
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
  };
}

const put = (item: ContactItem) => table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
/** A deletion as `deleteContact` writes it (one transaction there; dynalite has none, and the directory reads only the index). */
async function remove(contact: ContactItem, deletedAt: string) {
  await table.doc.send(new DeleteCommand({ TableName: table.name, ...deleteContactIfUnchangedStep(contact).Delete }));
  await table.doc.send(new PutCommand({ TableName: table.name, ...contactTombstoneStep(contact.accountId, contact.id, deletedAt, 0).Put }));
}

async function listed(directory: ContactDirectory, accountId: string): Promise<string[]> {
  const q = parseListQuery(JSON.stringify({ order: [['id', 'ASC']], perPage: 500 }), contactListRules);
  const answer = await directory.list(table, accountId, noServices, q, async (key) => key);
  return answer.data.map((c) => `${c.id}:${c.name}:${c.unread}:${c.lastMessage?.text ?? ''}`);
}

async function stored(accountId: string): Promise<string[]> {
  const items = await allContacts(table, accountId);
  return items.sort((a, b) => (a.id < b.id ? -1 : 1)).map((c) => `${c.id}:${c.name}:${c.unread}:${c.lastMessage?.text ?? ''}`);
}

describe('contact directory sync whatever the writers clocks say', { timeout: 60_000 }, () => {
  it('sees writers a day ahead and a day behind once each, then re-reads nothing', async () => {
    const accountId = 'SKEW1';
    const time = tableTime('2026-04-01T10:00:00Z');
    const directory = new ContactDirectory();
    expect(await listed(directory, accountId)).toEqual([]);

    time.advance(1_000);
    for (let i = 0; i < 120; i++)
      await put(contactItem(fields(accountId, `a${String(i).padStart(3, '0')}`, `Adiantado ${i}`, time.writerClock(day).toISOString())));
    for (let i = 0; i < 30; i++)
      await put(contactItem(fields(accountId, `b${String(i).padStart(3, '0')}`, `Atrasado ${i}`, time.writerClock(-day).toISOString())));
    time.advance(10_000);
    expect(await listed(directory, accountId)).toEqual(await stored(accountId));
    expect(directory.lastSync(accountId)).toEqual({ loaded: false, changesRead: 150, changesApplied: 150 });

    // Before the fix each of these syncs read the 120 future-stamped contacts again.
    for (let round = 0; round < 3; round++) {
      time.advance(10_000);
      expect(await listed(directory, accountId)).toEqual(await stored(accountId));
      expect(directory.lastSync(accountId)?.changesRead).toBe(0);
    }

    // Each kind of contact write, by a writer ahead and one behind: every one is seen, and only they are read.
    const [ahead, behind, deleted] = (await allContacts(table, accountId)).filter((c) => ['a005', 'b007', 'b010'].includes(c.id));
    await put(
      contactItem({ ...fields(accountId, 'a005', 'Adiantado renomeado', nextUpdatedAt(time.writerClock(day), ahead!.updatedAt)), createdAt: ahead!.createdAt }),
    );
    await writeLastMessage(
      table,
      behind!,
      { id: 'm1', text: 'Olá', type: 'text', isFromMe: false, ack: 0, timestamp: '2026-04-01T10:00:00.000Z', file: null },
      nextUpdatedAt(time.writerClock(-day), behind!.updatedAt),
    );
    await remove(deleted!, nextUpdatedAt(time.writerClock(-day), deleted!.updatedAt));
    time.advance(500);
    expect(await listed(directory, accountId)).toEqual(await stored(accountId));
    expect(directory.lastSync(accountId)).toEqual({ loaded: false, changesRead: 3, changesApplied: 3 });
    expect(await listed(directory, accountId)).toContain('a005:Adiantado renomeado:0:');
    expect((await listed(directory, accountId)).some((c) => c.startsWith('b010:'))).toBe(false);

    const read = await allContacts(table, accountId);
    await clearUnread(table, read.find((c) => c.id === 'a007')!, nextUpdatedAt(time.writerClock(day), read.find((c) => c.id === 'a007')!.updatedAt));
    time.advance(overlapMs + 1);
    expect(await listed(directory, accountId)).toEqual(await stored(accountId));
    // This write, and the three the previous sync read within its overlap window (skipped by version).
    expect(directory.lastSync(accountId)).toEqual({ loaded: false, changesRead: 4, changesApplied: 1 });
    time.advance(overlapMs + 1);
    await listed(directory, accountId);
    expect(directory.lastSync(accountId)?.changesRead).toBe(0);
  });

  it('moves index entries stamped ahead by an older writer back to now, so they are read at most twice', async () => {
    const accountId = 'SKEW2';
    const time = tableTime('2026-05-01T10:00:00Z');
    const directory = new ContactDirectory();
    await listed(directory, accountId);
    // As writers stamped the index before: by their own `updatedAt`, a day ahead.
    for (let i = 0; i < 40; i++) {
      const updatedAt = time.writerClock(day).toISOString();
      await put({ ...contactItem(fields(accountId, `f${i}`, `Futuro ${i}`, updatedAt)), ...keys.contactChange(accountId, updatedAt, `f${i}`) });
    }
    time.advance(1_000);
    expect(await listed(directory, accountId)).toHaveLength(40);
    expect(directory.lastSync(accountId)?.changesRead).toBe(40);
    const now = new Date().toISOString();
    expect((await allContacts(table, accountId)).filter((c) => c.gsi2sk.slice(0, now.length) > now).map((c) => c.gsi2sk)).toEqual([]);
    // From here on like any write of that moment: re-read by the syncs of the next overlap window only.
    for (let i = 0; i < 2; i++) {
      time.advance(overlapMs / 2 + 1);
      await listed(directory, accountId);
      expect(directory.lastSync(accountId)).toEqual({ loaded: false, changesRead: 40, changesApplied: 0 });
    }
    time.advance(overlapMs + 1);
    await listed(directory, accountId);
    expect(directory.lastSync(accountId)?.changesRead).toBe(0);
    expect(await listed(directory, accountId)).toEqual(await stored(accountId));
  });

  it('misses nothing and re-reads only its overlap window under random writers, deletions and clock skews', async () => {
    const accountId = 'SKEW3';
    const time = tableTime('2026-06-01T10:00:00Z');
    let seed = 7;
    const random = () => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const skews = [-day, -60 * 60 * 1000, -5_000, 0, 5_000, 60 * 60 * 1000, day, 30 * day];
    const directory = new ContactDirectory();
    const writes: number[] = [];
    let lastSyncAt = Date.now();
    await listed(directory, accountId);
    for (let round = 0; round < 40; round++) {
      const count = Math.floor(random() * 6);
      for (let w = 0; w < count; w++) {
        const clock = time.writerClock(skews[Math.floor(random() * skews.length)]!);
        const id = `r${Math.floor(random() * 15)}`;
        const current = (await allContacts(table, accountId)).find((c) => c.id === id);
        if (current && random() < 0.25) {
          await remove(current, nextUpdatedAt(clock, current.updatedAt));
        } else {
          const updatedAt = current ? nextUpdatedAt(clock, current.updatedAt) : clock.toISOString();
          await put(contactItem({ ...fields(accountId, id, `Nome ${round}.${w}`, updatedAt), createdAt: current?.createdAt ?? updatedAt }));
        }
        writes.push(Date.now());
        time.advance(Math.floor(random() * 400));
      }
      time.advance(Math.floor(random() * 4_000));
      expect(await listed(directory, accountId)).toEqual(await stored(accountId));
      // Bounded: at most the writes stamped since the previous sync began, less the overlap.
      const window = writes.filter((at) => at > lastSyncAt - overlapMs - 1).length;
      expect(directory.lastSync(accountId)?.changesRead).toBeLessThanOrEqual(window);
      lastSyncAt = Date.now();
    }
  });
});
