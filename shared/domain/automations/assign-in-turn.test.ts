/**
 * Round-robin's cap while the open-conversation index lags (ADR-0221): against
 * dynalite behind the local DynamoDB front, with a table double whose gsi1 answers people's open
 * conversations from a snapshot taken before the arrivals (as DynamoDB's index may, for a moment,
 * after a write). Conversations arriving together, one after another or at once, never take a
 * person past the cap; a transfer, a resolve and a deletion within the lag count at once.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';
import { settings, withAutomations } from '../../../tests/support/lifecycle-world.ts';
import type { Table } from '#db/client.ts';
import { type ContactFields, type ContactItem, contactFields, contactItem, getContactItem } from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import { recordConnection } from '#db/ws-connections.ts';
import type { Ports } from '../ports.ts';
import { assignInTurn, turnRetryTimer } from './assign-in-turn.ts';
import type { AutomationContext } from './automation-context.ts';

let local: LocalTable;

beforeAll(async () => {
  local = await startLocalTable('assign-in-turn-test');
});

afterAll(async () => {
  await local.close();
});

/**
 * The table, with gsi1's open-conversation entries (`OPEN#…`) answered from the snapshot taken by
 * `freeze`: the index as it stood then, missing every write since. Everything else is the table's.
 */
function laggingIndex(table: Table) {
  let snapshot: Record<string, unknown>[] | null = null;
  const send = async (command: unknown) => {
    if (snapshot && command instanceof QueryCommand && command.input.IndexName === 'gsi1') {
      const pk = command.input.ExpressionAttributeValues?.[':pk'];
      if (typeof pk === 'string' && pk.startsWith('OPEN#')) {
        const items = snapshot.filter((item) => item.gsi1pk === pk).map((item) => ({ gsi1sk: item.gsi1sk }));
        return { Items: items, Count: items.length, ScannedCount: items.length };
      }
    }
    return table.doc.send(command as never);
  };
  return {
    table: { name: table.name, doc: { send } as unknown as Table['doc'] },
    async freeze() {
      const { Items } = await table.doc.send(
        new ScanCommand({ TableName: table.name, FilterExpression: 'begins_with(gsi1pk, :open)', ExpressionAttributeValues: { ':open': 'OPEN#' } }),
      );
      snapshot = Items ?? [];
    },
  };
}

const people = new Map([
  ['u-ana', { id: 'u-ana', name: 'Ana' }],
  ['u-bia', { id: 'u-bia', name: 'Bia' }],
]);
const context = (maxOpenPerAgent: number): AutomationContext => ({
  settings: withAutomations({ roundRobin: { enabled: true, maxOpenPerAgent } }, settings),
  departments: new Map(),
  users: people,
});

/** An account whose `online` people have a realtime socket open, on a lagging index. */
async function world(online: string[]) {
  const accountId = ulid();
  const lagging = laggingIndex(local.ports.table);
  const ports = { table: lagging.table, clock: () => new Date(), newId: (at?: number) => ulid(at) } as unknown as Ports;
  const now = new Date();
  for (const userId of online) {
    await recordConnection(
      local.ports.table,
      { connectionId: `${accountId}-${userId}`, accountId, userId, connectedAt: now.toISOString() },
      Math.floor(now.getTime() / 1000),
    );
  }
  const put = (fields: ContactFields) => local.ports.table.doc.send(new PutCommand({ TableName: local.ports.table.name, Item: contactItem(fields) }));
  /** A customer waiting in the queue of no department. */
  const waiting = async (id: string) => {
    const at = new Date().toISOString();
    await put({
      id,
      accountId,
      serviceId: 'S1',
      name: `Cliente ${id}`,
      contactType: 'user',
      idFromService: `${id}@s.whatsapp.net`,
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
      lastMessageAt: at,
      unread: 1,
      messagesCount: 1,
      status: 'pending',
      userId: null,
      departmentId: null,
      createdAt: at,
      updatedAt: at,
    });
    return id;
  };
  const contact = async (id: string) => (await getContactItem(local.ports.table, accountId, id, true)) as ContactItem;
  /** A team move written behind round-robin's back (a transfer, a resolve). */
  const change = async (id: string, changes: Partial<ContactFields>) => {
    const current = await contact(id);
    await put({ ...contactFields(current), ...changes, updatedAt: new Date(Date.parse(current.updatedAt) + 1).toISOString() });
  };
  const assign = (contactId: string, maxOpenPerAgent = 1) =>
    assignInTurn(ports, { accountId, contactId }, { departmentId: null, maxOpenPerAgent }, context(maxOpenPerAgent));
  const retryTimer = async (id: string) =>
    (
      await local.ports.table.doc.send(
        new GetCommand({ TableName: local.ports.table.name, Key: keys.conversationTimer(accountId, id, turnRetryTimer), ConsistentRead: true }),
      )
    ).Item;
  return { accountId, freeze: lagging.freeze, waiting, contact, change, put, assign, retryTimer };
}

describe('round-robin under a lagging index', () => {
  it('gives a second conversation arriving within the lag to nobody when the only one online is at the cap', async () => {
    const w = await world(['u-ana']);
    const [c1, c2] = [await w.waiting('c1'), await w.waiting('c2')];
    await w.freeze();
    expect(await w.assign(c1)).toBe('u-ana');
    // The index still shows Ana with nothing open.
    expect(await w.assign(c2)).toBeNull();
    expect(await w.contact(c2)).toMatchObject({ userId: null, status: 'pending' });
    expect(await w.contact(c1)).toMatchObject({ userId: 'u-ana', status: 'open' });
  });

  it('keeps the cap for conversations arriving at once', async () => {
    const w = await world(['u-ana', 'u-bia']);
    const ids = [await w.waiting('c1'), await w.waiting('c2'), await w.waiting('c3'), await w.waiting('c4')];
    await w.freeze();
    const picked = await Promise.all(ids.map((id) => w.assign(id, 1)));
    expect(picked.filter((userId) => userId !== null).sort()).toEqual(['u-ana', 'u-bia']);
    const holders = (await Promise.all(ids.map(w.contact))).map((c) => c.userId ?? null);
    expect(holders.filter((userId) => userId === 'u-ana')).toHaveLength(1);
    expect(holders.filter((userId) => userId === 'u-bia')).toHaveLength(1);
  });

  it('a burst of arrivals at once never passes the cap nor fails: whoever got no turn waits with a retry timer', async () => {
    const w = await world(['u-ana', 'u-bia']);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await w.waiting(`b${String(i).padStart(2, '0')}`));
    await w.freeze();
    const picked = await Promise.all(ids.map((id) => w.assign(id, 3)));
    const holders = (await Promise.all(ids.map(w.contact))).map((c) => c.userId ?? null);
    expect(holders).toEqual(picked);
    expect(holders.filter((userId) => userId === 'u-ana').length).toBeLessThanOrEqual(3);
    expect(holders.filter((userId) => userId === 'u-bia').length).toBeLessThanOrEqual(3);
    const waiting = ids.filter((_, i) => holders[i] === null);
    expect(waiting.length).toBeGreaterThanOrEqual(4);
    expect(waiting.length).toBeLessThan(ids.length);
    for (const id of waiting) expect(await w.retryTimer(id)).toBeDefined();
  });

  it('counts a transfer, a resolve and a deletion made within the lag for whoever has the conversation now', async () => {
    const w = await world(['u-ana', 'u-bia']);
    const ids = [await w.waiting('c1'), await w.waiting('c2'), await w.waiting('c3'), await w.waiting('c4')];
    await w.freeze();
    expect(await w.assign(ids[0]!)).toBe('u-ana');
    // Ana hands it to Bia: Bia is at the cap, Ana has room again, though the index shows neither.
    await w.change(ids[0]!, { userId: 'u-bia', user: { id: 'u-bia', name: 'Bia' } });
    expect(await w.assign(ids[1]!)).toBe('u-ana');
    // Ana resolves hers: her place is free at once.
    await w.change(ids[1]!, { status: 'resolved' });
    expect(await w.assign(ids[2]!)).toBe('u-ana');
    // Bia's conversation is deleted: her place is free at once, and it is her turn.
    await local.ports.table.doc.send(new DeleteCommand({ TableName: local.ports.table.name, Key: keys.contact(w.accountId, ids[0]!) }));
    expect(await w.assign(ids[3]!)).toBe('u-bia');
  });
});
