/**
 * The contact directory stays within its byte budget: filled past it by several accounts, it
 * forgets the least recently used ones, keeps the one being answered even when that one alone is
 * over, and a forgotten account's next list loads again with nothing missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { contactItem, type ContactFields } from '#db/contacts.ts';
import { ContactDirectory } from './contact-directory.ts';
import type { ContactSnapshot } from './contact-snapshot.ts';
import { directoryBudgetBytes, stringBytes, valueBytes } from './directory-memory.ts';
import { contactListRules } from './contacts.ts';
import { fold, parseListQuery } from '#domain/list-query.ts';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';

let local: LocalTable;
beforeAll(async () => {
  local = await startLocalTable('directory-memory');
});
afterAll(() => local.close());

const noServices = async () => [];
const sign = async (key: string) => key;
const position = Date.parse('2026-11-01T10:00:00Z');
const now = () => position + 60_000;

function fields(accountId: string, i: number): ContactFields {
  const at = new Date(position - 1_000_000 + i).toISOString();
  return {
    id: `${accountId}-c${i}`,
    accountId,
    serviceId: 'S1',
    name: `Cliente ${i} da Silva`,
    contactType: 'user',
    idFromService: `5511${String(900000000 + i)}@s.whatsapp.net`,
    email: i % 3 ? `cliente${i}@exemplo.com.br` : null,
    phoneNumber: `+55119${String(10000000 + i)}`,
    phoneCountry: 'BR',
    gender: null,
    avatarKey: null,
    isOnline: false,
    lastSeenAt: null,
    archivedAt: null,
    archivedReason: null,
    lastMessage: null,
    lastMessageAt: at,
    unread: 0,
    messagesCount: 3,
    createdAt: at,
    updatedAt: at,
  };
}

/** An account's snapshot in memory: the directory loads it as it would the bucket's. */
function snapshotOf(accountId: string, count: number): ContactSnapshot {
  const contacts = Array.from({ length: count }, (_, i) => {
    const f = fields(accountId, i);
    return { fields: f, folded: { name: fold(f.name), email: f.email ? fold(f.email) : null, phone: f.phoneNumber } };
  });
  return { accountId, position, contacts };
}

const query = parseListQuery(JSON.stringify({ order: [['name', 'ASC']], perPage: 5 }), contactListRules);
const list = (directory: ContactDirectory, accountId: string, count = 2_000) =>
  directory.list(local.ports.table, accountId, noServices, query, sign, async () => snapshotOf(accountId, count));

describe('contact directory memory', () => {
  it('forgets the least recently used accounts once the views hold more than the budget', async () => {
    const probe = new ContactDirectory(now, Number.MAX_SAFE_INTEGER);
    await list(probe, 'PROBE');
    const oneAccount = probe.memory().estimatedBytes;
    // About a kilobyte a contact, as measured (bench/results.md, directory memory).
    expect(oneAccount / 2_000).toBeGreaterThan(500);
    expect(oneAccount / 2_000).toBeLessThan(4_000);

    const budget = Math.floor(oneAccount * 2.5);
    const directory = new ContactDirectory(now, budget);
    await list(directory, 'A');
    await list(directory, 'B');
    expect(directory.memory()).toMatchObject({ accounts: 2, evictions: 0 });
    await list(directory, 'C');
    // A was used longest ago: forgotten, with its sync report.
    expect(directory.memory()).toMatchObject({ accounts: 2, evictions: 1 });
    expect(directory.memory().estimatedBytes).toBeLessThanOrEqual(budget);
    expect(directory.lastSync('A')).toBeUndefined();

    // B used again, then A back: C is now the least recently used.
    await list(directory, 'B');
    await list(directory, 'A');
    expect(directory.lastSync('A')?.loaded).toBe('snapshot');
    expect(directory.lastSync('C')).toBeUndefined();
    expect(directory.lastSync('B')?.loaded).toBe(false);
    expect(directory.memory()).toMatchObject({ accounts: 2, evictions: 2 });
  });

  it('keeps an account in use while a stream of accounts used once passes through (segmented LRU)', async () => {
    const probe = new ContactDirectory(now, Number.MAX_SAFE_INTEGER);
    await list(probe, 'PROBE3', 500);
    const oneAccount = probe.memory().estimatedBytes;
    const directory = new ContactDirectory(now, Math.floor(oneAccount * 3.5));
    // S is used twice: hot.
    await list(directory, 'S', 500);
    await list(directory, 'S', 500);
    // Ten accounts opened once each, S not used meanwhile: under plain LRU it would go first.
    for (let i = 0; i < 10; i++) await list(directory, `ONCE${i}`, 500);
    expect(directory.loadedAccounts()).toContain('S');
    // Its report is the second use's (no reload since).
    expect(directory.lastSync('S')?.loaded).toBe(false);
    expect(directory.memory().accounts).toBe(3);
    expect(directory.memory().evictions).toBe(8);
    // One of them back soon after it was forgotten is used often: it comes back hot, and the
    // accounts used once go before it.
    await list(directory, 'ONCE0', 500);
    for (let i = 10; i < 14; i++) await list(directory, `ONCE${i}`, 500);
    expect(directory.loadedAccounts()).toEqual(expect.arrayContaining(['S', 'ONCE0']));
  });

  it('holds the hot accounts to 80 % of the budget: beyond it the least recently used one can go', async () => {
    const probe = new ContactDirectory(now, Number.MAX_SAFE_INTEGER);
    await list(probe, 'PROBE4', 500);
    const oneAccount = probe.memory().estimatedBytes;
    // Room for 3.5 views; 80 % of it holds 2 hot ones, not 3.
    const directory = new ContactDirectory(now, Math.floor(oneAccount * 3.5));
    for (const id of ['H1', 'H2', 'H3']) {
      await list(directory, id, 500);
      await list(directory, id, 500);
    }
    await list(directory, 'N1', 500);
    await list(directory, 'N2', 500);
    // H1, the least recently used hot one, went back to being used once and left before N1.
    expect(directory.loadedAccounts()).toEqual(['H2', 'H3', 'N2']);
  });

  it('keeps the account being answered even when it alone is over the budget', async () => {
    const directory = new ContactDirectory(now, 10_000);
    await list(directory, 'A', 500);
    const page = await list(directory, 'B', 500);
    expect(page.totalCount).toBe(500);
    expect(page.data.map((c) => c.name)).toEqual([
      'Cliente 0 da Silva',
      'Cliente 1 da Silva',
      'Cliente 10 da Silva',
      'Cliente 100 da Silva',
      'Cliente 101 da Silva',
    ]);
    expect(directory.memory()).toMatchObject({ accounts: 1, evictions: 1 });
    expect(directory.memory().estimatedBytes).toBeGreaterThan(10_000);
  });

  it('loses nothing written while an account was forgotten', async () => {
    const directory = new ContactDirectory(now, 10_000);
    await list(directory, 'D', 300);
    await list(directory, 'E', 300);
    expect(directory.lastSync('D')).toBeUndefined();
    // Written after D's snapshot position, while its view was gone: the reload reads the change index.
    const late = { ...fields('D', 9_999), name: 'Aaron Tardio', updatedAt: new Date(now()).toISOString() };
    await local.ports.table.doc.send(new PutCommand({ TableName: local.ports.table.name, Item: contactItem(late) }));
    const page = await list(directory, 'D', 300);
    expect(page.totalCount).toBe(301);
    expect(page.data[0]?.name).toBe('Aaron Tardio');
    expect(directory.lastSync('D')).toMatchObject({ loaded: 'snapshot', changesApplied: 1 });
  });

  it('makes room when answering grows a view (the search index, another order), not only when one loads', async () => {
    const probe = new ContactDirectory(now, Number.MAX_SAFE_INTEGER);
    await list(probe, 'PROBE2', 1_000);
    const oneAccount = probe.memory().estimatedBytes;
    // Room for two accounts as listed (and a little), not for a second one's search index and other order on top.
    const budget = oneAccount * 2 + 2_000;
    const directory = new ContactDirectory(now, budget);
    await list(directory, 'G', 1_000);
    await list(directory, 'H', 1_000);
    expect(directory.memory()).toMatchObject({ accounts: 2, evictions: 0 });
    const search = parseListQuery(JSON.stringify({ where: { name: { like: '%silva%' } }, perPage: 5 }), contactListRules);
    await directory.list(local.ports.table, 'H', noServices, search, sign, async () => snapshotOf('H', 1_000));
    // H grew past what two views may hold (another order, a kept query): G, used longest ago, made room as soon as H answered.
    expect(directory.memory().estimatedBytes).toBeLessThanOrEqual(budget);
    expect(directory.memory()).toMatchObject({ accounts: 1, evictions: 1 });
    expect(directory.loadedAccounts()).toEqual(['H']);
  });

  it('counts what searches and further orders add to a view', async () => {
    const directory = new ContactDirectory(now, Number.MAX_SAFE_INTEGER);
    await list(directory, 'F', 1_000);
    const listed = directory.memory().estimatedBytes;
    const search = parseListQuery(JSON.stringify({ where: { name: { like: '%silva%' } }, perPage: 5 }), contactListRules);
    for (let i = 0; i < 2; i++) await directory.list(local.ports.table, 'F', noServices, search, sign, async () => snapshotOf('F', 1_000));
    // The second search builds the trigram index; the default order adds a sorted list.
    expect(directory.memory().estimatedBytes).toBeGreaterThan(listed + 1_000 * 8);
  });
});

describe('directory budget', () => {
  const gib = 1024 ** 3;
  it('is 35 % of a Lambda function memory, never over half the heap', () => {
    expect(directoryBudgetBytes({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512' }, 4 * gib)).toBe(Math.floor(512 * 1024 * 1024 * 0.35));
    expect(directoryBudgetBytes({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '10240' }, 2 * gib)).toBe(gib);
  });
  it('is a quarter of the heap elsewhere, and an operator may set it', () => {
    expect(directoryBudgetBytes({}, 2 * gib)).toBe(gib / 2);
    expect(directoryBudgetBytes({ CONTACT_DIRECTORY_BUDGET_MB: '64', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512' }, 2 * gib)).toBe(64 * 1024 * 1024);
    expect(directoryBudgetBytes({ CONTACT_DIRECTORY_BUDGET_MB: 'muito' }, 2 * gib)).toBe(gib / 2);
  });
});

describe('value sizes', () => {
  it('counts Latin-1 strings a byte a character and others two, rounded to 8', () => {
    expect(stringBytes('José')).toBe(16 + 8);
    expect(stringBytes('Zoë 🙂')).toBe(16 + 16);
    expect(stringBytes('')).toBe(16);
  });
  it('walks objects and arrays, small integers and null living in their pointer', () => {
    expect(valueBytes({ a: 1, b: null, c: 'x' })).toBe(24 + 3 * 8 + stringBytes('x'));
    expect(valueBytes([1.5, 'ab'])).toBe(32 + 2 * 8 + 16 + stringBytes('ab'));
  });

  it("filters the inbox's tabs (assignee, status, channel) from the stored fields, without making an answered contact of every entry", async () => {
    const directory = new ContactDirectory(now, Number.MAX_SAFE_INTEGER);
    // Every third contact assigned to U1; every fifth pending; a WhatsApp connection.
    const snapshot = snapshotOf('INBOX', 3_000);
    for (const [i, c] of snapshot.contacts.entries()) {
      if (i % 3 === 0) Object.assign(c.fields, { userId: 'U1', user: { id: 'U1', name: 'Ana' } });
      if (i % 5 === 0) c.fields.status = 'pending';
    }
    const services = async () => [{ id: 'S1', name: 'Loja', channelType: 'whatsapp' }] as never;
    const inbox = (where: object) =>
      directory.list(
        local.ports.table,
        'INBOX',
        services,
        parseListQuery(JSON.stringify({ where, order: [['lastMessageAt', 'DESC']], perPage: 50, withCount: true }), contactListRules),
        sign,
        async () => snapshot,
      );
    await inbox({});
    const loaded = directory.memory().estimatedBytes;
    const mine = await inbox({ archivedAt: null, userId: 'U1' });
    const minePending = await inbox({ archivedAt: null, userId: 'U1', status: 'pending' });
    const unassignedOpen = await inbox({ archivedAt: null, userId: null, status: 'open' });
    const whatsapp = await inbox({ archivedAt: null, 'service.type': 'whatsapp' });
    const telegram = await inbox({ 'service.type': 'telegram' });
    // The same answers as reading the contacts would give.
    expect(mine.totalCount).toBe(1_000);
    expect(minePending.totalCount).toBe(200);
    expect(unassignedOpen.totalCount).toBe(2_000 - 400);
    expect(whatsapp.totalCount).toBe(3_000);
    expect(telegram.totalCount).toBe(0);
    expect(minePending.data.every((c) => c.userId === 'U1' && c.status === 'pending' && c.service?.type === 'whatsapp')).toBe(true);
    // Only the pages' contacts were answered: the view grew by its sorted list, not by 3,000 contacts.
    expect(directory.memory().estimatedBytes - loaded).toBeLessThan(loaded * 0.1);
  });
});
