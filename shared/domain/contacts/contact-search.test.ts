/**
 * The directory's trigram-narrowed search answers exactly what the plain list-query filter answers
 * over every contact: random names and e-mails with accents and mixed case, random searches of every
 * length (one and two characters fall back to a scan), `or` of name and e-mail as the inbox sends it,
 * and the index kept through creations, renames and deletions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import type { Contact } from '#contracts/contacts.ts';
import { containsPattern, type Where } from '#contracts/list-query.ts';
import { createTableInput } from '#db/table-definition.ts';
import { allContacts, contactItem, contactTombstoneStep, type ContactFields, type ContactItem } from '#db/contacts.ts';
import { ContactDirectory } from './contact-directory.ts';
import { likeLiterals, searchPlan } from './contact-search.ts';
import { TrigramIndex } from './trigram-index.ts';
import { toContact } from './present-contact.ts';
import { applyListQuery, parseListQuery } from '#domain/list-query.ts';
import { contactListRules } from './contacts.ts';
import type { Table } from '#db/client.ts';

let dir: string;
let db: Server;
let table: Table;
const noServices = async () => [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contact-search-'));
  db = dynalite({ path: dir, createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(db.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(new CreateTableCommand(createTableInput('contact-search')));
  await new Promise((r) => setTimeout(r, 50));
  table = { name: 'contact-search', doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
});

afterAll(async () => {
  await new Promise<void>((r) => db.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

const letters = ['a', 'á', 'Á', 'ã', 'b', 'c', 'ç', 'Ç', 'e', 'é', 'i', 'í', 'l', 'o', 'ô', 's', 'S', 'v', 'V', 'n', ' ', '-', '_', '%'];
const text = (min: number, max: number) => fc.array(fc.constantFrom(...letters), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
const emailArb = fc.option(
  fc.tuple(text(1, 8), fc.constantFrom('exemplo.com.br', 'gmail.com', 'ção.com')).map(([user, host]) => `${user.replace(/\s/g, '.')}@${host}`),
  { nil: null },
);
const contactArb = fc.record({ name: text(1, 14), email: emailArb, archived: fc.boolean() });
type Random = { name: string; email: string | null; archived: boolean };

function fields(accountId: string, id: string, c: Random): ContactFields {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id,
    accountId,
    serviceId: 'S1',
    name: c.name,
    contactType: 'user',
    idFromService: id,
    email: c.email,
    phoneNumber: null,
    phoneCountry: null,
    gender: null,
    avatarKey: null,
    isOnline: false,
    lastSeenAt: null,
    archivedAt: c.archived ? at : null,
    archivedReason: c.archived ? 'manual' : null,
    lastMessage: null,
    lastMessageAt: null,
    unread: 0,
    messagesCount: 0,
    createdAt: at,
    updatedAt: at,
  };
}

async function putAll(items: ContactItem[]) {
  for (let i = 0; i < items.length; i += 25) {
    await table.doc.send(new BatchWriteCommand({ RequestItems: { [table.name]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}

/** A search as the screens send it, sometimes in another case or with the accents the data has not. */
const searchArb = (pool: string[]) =>
  fc.oneof(
    fc
      .tuple(fc.constantFrom(...pool), fc.nat(), fc.nat({ max: 6 }), fc.constantFrom('same', 'upper', 'lower', 'plain'))
      .map(([source, start, length, variant]) => {
        const from = source.length ? start % source.length : 0;
        const piece = source.slice(from, from + 1 + length);
        if (variant === 'upper') return piece.toUpperCase();
        if (variant === 'lower') return piece.toLowerCase();
        if (variant === 'plain') return piece.normalize('NFD').replace(/\p{Diacritic}/gu, '');
        return piece;
      }),
    text(1, 5),
  );

const whereArb = (pool: string[]) =>
  fc.tuple(searchArb(pool), fc.constantFrom('name', 'email', 'either', 'prefix', 'underscore'), fc.boolean()).map(([search, shape, activeOnly]): Where => {
    const like = containsPattern(search);
    const base: Where = activeOnly ? { archivedAt: null } : {};
    if (shape === 'name') return { ...base, name: { like } };
    if (shape === 'email') return { ...base, 'data.email': { like } };
    if (shape === 'prefix') return { ...base, name: { like: `${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } };
    if (shape === 'underscore') return { ...base, name: { like: `%${search.slice(0, 2)}_${search.slice(2)}%` } };
    return { ...base, or: [{ name: { like } }, { 'data.email': { like } }] };
  });

const everyoneIn = async (accountId: string) => (await allContacts(table, accountId)).map((item) => toContact(item, undefined));

async function compare(directory: ContactDirectory, accountId: string, where: Where, everyone: Contact[]) {
  const raw = { where, order: [['id', 'ASC']], perPage: 500 };
  const q = parseListQuery(JSON.stringify(raw), contactListRules);
  const answer = await directory.list(table, accountId, noServices, q, async (key) => key);
  const expected = applyListQuery(everyone, q);
  expect(answer.data.map((c) => c.id)).toEqual(expected.data.map((c) => c.id));
  expect(answer.totalCount).toBe(expected.totalCount);
}

describe('contact search through the trigram index', () => {
  it('answers what a scan answers, for random contacts and searches', async () => {
    const accountId = 'SEARCH1';
    const people = fc.sample(contactArb, { numRuns: 400, seed: 13 }) as Random[];
    await putAll(people.map((c, i) => contactItem(fields(accountId, `c${String(i).padStart(4, '0')}`, c))));
    const directory = new ContactDirectory();
    const everyone = await everyoneIn(accountId);
    const pool = people.flatMap((c) => (c.email ? [c.name, c.email] : [c.name]));
    await fc.assert(
      fc.asyncProperty(whereArb(pool), (where) => compare(directory, accountId, where, everyone)),
      { numRuns: 300, seed: 42 },
    );
  }, 60_000);

  it('keeps the index through creations, renames and deletions', async () => {
    const edit = fc.tuple(fc.constantFrom('put', 'delete'), fc.nat({ max: 29 }), contactArb);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(contactArb, { minLength: 5, maxLength: 30 }),
        fc.array(edit, { maxLength: 12 }),
        fc.array(text(1, 5), { minLength: 3, maxLength: 3 }),
        async (start, edits, searches) => {
          const accountId = `SEARCH-EDIT-${run++}`;
          await putAll(start.map((c, i) => contactItem(fields(accountId, `c${String(i).padStart(4, '0')}`, c))));
          const directory = new ContactDirectory();
          const before = await everyoneIn(accountId);
          await compare(directory, accountId, {}, before);
          // A cold directory's first search scans; the second builds the index the edits then maintain.
          for (const search of ['silva', 'ana']) await compare(directory, accountId, { name: { like: containsPattern(search) } }, before);
          for (const [kind, n, c] of edits) {
            const id = `c${String(n).padStart(4, '0')}`;
            if (kind === 'put') {
              await table.doc.send(
                new PutCommand({ TableName: table.name, Item: contactItem({ ...fields(accountId, id, c), updatedAt: new Date().toISOString() }) }),
              );
            } else {
              const gone = await table.doc.send(
                new DeleteCommand({ TableName: table.name, Key: { pk: `ACCOUNT#${accountId}`, sk: `CONTACT#${id}` }, ReturnValues: 'ALL_OLD' }),
              );
              if (gone.Attributes)
                await table.doc.send(new PutCommand({ TableName: table.name, ...contactTombstoneStep(accountId, id, new Date().toISOString(), 0).Put }));
            }
          }
          const everyone = await everyoneIn(accountId);
          for (const search of [...searches, ...everyone.slice(0, 3).map((c) => c.name)]) {
            await compare(
              directory,
              accountId,
              { or: [{ name: { like: containsPattern(search) } }, { 'data.email': { like: containsPattern(search) } }] },
              everyone,
            );
          }
        },
      ),
      { numRuns: 25, seed: 7 },
    );
  }, 60_000);

  it('narrows only where every match must hold three literal characters', () => {
    expect(likeLiterals('%Sil\\_va%')).toEqual(['sil_va']);
    expect(likeLiterals('%Jo_ão%')).toEqual(['jo', 'ao']);
    expect(searchPlan({ name: { like: '%si%' } })).toBeUndefined();
    expect(searchPlan({ archivedAt: null, name: { like: '%Sílva%' } })).toEqual([['silva']]);
    expect(searchPlan({ or: [{ name: { like: '%ana%' } }, { 'data.email': { like: '%ana%' } }] })).toEqual([['ana'], ['ana']]);
    // One alternative the index cannot narrow (a phone number) means a scan.
    expect(searchPlan({ or: [{ name: { like: '%ana%' } }, { 'data.phoneNumber': { like: '%119%' } }] })).toBeUndefined();
    const index = new TrigramIndex();
    index.set(0, undefined, 'ana silva');
    index.set(1, undefined, 'silvana');
    index.set(2, undefined, 'bruno');
    expect(index.candidates(['silva'])).toEqual([0, 1]);
    index.set(0, 'ana silva', 'ana souza');
    expect(index.candidates(['silva'])).toEqual([1]);
    expect(index.candidates(['xyz'])).toEqual([]);
    expect(index.candidates(['ab'])).toBeUndefined();
  });
});
