/**
 * Which table changes become webhook events (ADR-0233), on the real table
 * (dynalite behind the local DynamoDB front): a contact's own fields, its status and its
 * assignment make their events and a new message on it does not; a message's internal marks make
 * none; a deletion's tombstone is `contact.deleted`; a campaign's lanes moving in one batch make one
 * `campaign.progress` with the API's counts; only subscribed types of enabled subscriptions get
 * deliveries, and an account without subscriptions gets none.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebhookEventType, webhookEventTypes } from '#contracts/webhooks.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { webhookDeliveriesOf, webhookSubscriptionItem } from '#db/webhooks.ts';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';
import type { Ports } from '../ports.ts';
import { subscriptionCache } from './subscription-cache.ts';
import { enqueueWebhookEvents, type TableChange } from './webhook-events.ts';

let local: LocalTable;
let ports: Ports;
const now = Date.parse('2026-11-28T12:00:00Z');

beforeAll(async () => {
  local = await startLocalTable('webhook-events-test');
  ports = {
    ...(local.ports as Ports),
    clock: () => new Date(now),
    newId: (at?: number) => ulid(at),
    storage: { downloadUrl: async (key: string) => `https://files.example/${key}` } as unknown as Ports['storage'],
  };
});
afterAll(async () => {
  await local.close();
});

const put = (item: object) => ports.table.doc.send(new PutCommand({ TableName: ports.table.name, Item: item as Record<string, unknown> }));

let accounts = 0;
async function account(types: readonly WebhookEventType[] | null, enabled = true) {
  const accountId = `acc-${++accounts}`;
  if (!types) return { accountId, subscriptionId: '' };
  const subscriptionId = `sub-${accounts}`;
  await put(
    webhookSubscriptionItem({
      id: subscriptionId,
      accountId,
      url: 'https://erp.example/hook',
      description: '',
      eventTypes: [...types],
      enabled,
      disabledAt: null,
      sealedSecret: await ports.vault.seal('whsec_test'),
      consecutiveFailures: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      createdBy: 'u1',
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
    }),
  );
  return { accountId, subscriptionId };
}

const contact = (accountId: string, fields: Record<string, unknown> = {}) => ({
  ...keys.contact(accountId, 'c1'),
  type: entityTypes.contact,
  id: 'c1',
  accountId,
  serviceId: 's1',
  name: 'Maria',
  email: null,
  phoneNumber: '5511987654321',
  status: 'open',
  userId: null,
  departmentId: null,
  unread: 0,
  lastMessage: null,
  tagIds: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-28T12:00:00.000Z',
  ...fields,
});

const message = (accountId: string, fields: Record<string, unknown> = {}) => ({
  ...keys.message(accountId, 'c1', 'm1'),
  type: entityTypes.message,
  id: 'm1',
  accountId,
  contactId: 'c1',
  serviceId: 's1',
  text: 'Oi',
  messageType: 'text',
  isFromMe: true,
  ack: 1,
  createdAt: '2026-11-28T12:00:00.000Z',
  updatedAt: '2026-11-28T12:00:00.000Z',
  ...fields,
});

let records = 0;
const change = (kind: TableChange['change'], next: object | undefined, previous?: object): TableChange => ({
  recordId: `record-${++records}`,
  change: kind,
  next: next as TableChange['next'],
  previous: previous as TableChange['previous'],
  at: now,
});

async function delivered(accountId: string, subscriptionId: string) {
  const items = await webhookDeliveriesOf(ports.table, accountId, subscriptionId, 50);
  return items.map((d) => ({ type: d.eventType, body: JSON.parse(d.body) }));
}

describe('webhook events from table changes', () => {
  it("a contact's own fields, status and assignment make their events; a message landing on it makes none", async () => {
    const { accountId, subscriptionId } = await account(webhookEventTypes);
    const before = contact(accountId);
    const cache = subscriptionCache();
    // A new message only moves the contact's summary: no contact event.
    expect(await enqueueWebhookEvents(ports, cache, [change('MODIFY', contact(accountId, { unread: 1, lastMessage: { text: 'Oi' } }), before)])).toBe(0);
    const after = contact(accountId, { name: 'Maria Souza', status: 'resolved', userId: 'u7', user: { id: 'u7', name: 'Ana' } });
    expect(await enqueueWebhookEvents(ports, cache, [change('MODIFY', after, before)])).toBe(3);
    const events = await delivered(accountId, subscriptionId);
    expect(events.map((e) => e.type).sort()).toEqual(['contact.updated', 'conversation.assigned', 'conversation.status_changed']);
    const byType = Object.fromEntries(events.map((e) => [e.type, e.body]));
    expect(byType['contact.updated']).toMatchObject({ accountId, data: { id: 'c1', name: 'Maria Souza' } });
    expect(byType['conversation.status_changed'].data).toMatchObject({ status: 'resolved', previousStatus: 'open', contact: { id: 'c1', status: 'resolved' } });
    expect(byType['conversation.assigned'].data).toMatchObject({ userId: 'u7', departmentId: null, previous: { userId: null, departmentId: null } });
    // Three events, three ids; a stored item never leaks (no keys, no type).
    expect(new Set(events.map((e) => e.body.id)).size).toBe(3);
    for (const e of events) expect(JSON.stringify(e.body)).not.toMatch(/"pk"|"sk"|"gsi/);
  });

  it("a message's internal marks make no event, its acks do; a deletion's tombstone is contact.deleted", async () => {
    const { accountId, subscriptionId } = await account(['message.updated', 'contact.deleted']);
    const cache = subscriptionCache();
    const sent = message(accountId);
    expect(await enqueueWebhookEvents(ports, cache, [change('MODIFY', message(accountId, { handOverAt: '2026-11-28T12:00:01.000Z' }), sent)])).toBe(0);
    expect(await enqueueWebhookEvents(ports, cache, [change('MODIFY', message(accountId, { ack: 3 }), sent)])).toBe(1);
    const tombstone = {
      ...keys.contactTombstone(accountId, 'c1'),
      type: entityTypes.contactTombstone,
      id: 'c1',
      accountId,
      deletedAt: '2026-11-28T12:05:00.000Z',
    };
    expect(await enqueueWebhookEvents(ports, cache, [change('INSERT', tombstone), change('MODIFY', { ...tombstone, purgeRound: 2 }, tombstone)])).toBe(1);
    const events = await delivered(accountId, subscriptionId);
    expect(events.map((e) => [e.type, e.body.data])).toEqual(
      expect.arrayContaining([
        ['message.updated', expect.objectContaining({ id: 'm1', ack: 3 })],
        ['contact.deleted', { id: 'c1', deletedAt: '2026-11-28T12:05:00.000Z' }],
      ]),
    );
    expect(events).toHaveLength(2);
  });

  it("a campaign's lanes moving in one batch make one campaign.progress with the API's counts", async () => {
    const { accountId, subscriptionId } = await account(['campaign.progress']);
    await put({ ...keys.campaign(accountId, 'k1'), type: entityTypes.campaign, id: 'k1', accountId, name: 'Black Friday', status: 'running', recipients: 3 });
    const lane = (serviceId: string, sent: number) => ({
      ...keys.campaignLane(accountId, 'k1', serviceId),
      type: entityTypes.campaignLane,
      accountId,
      campaignId: 'k1',
      serviceId,
      ...{ recipients: 0, sent, skipped: 0, delivered: 0, read: 0, failed: 0, replied: 0, optedOut: 0 },
    });
    await put(lane('s1', 2));
    await put(lane('s2', 1));
    const cache = subscriptionCache();
    // A lane's round moving alone (no tally) is no progress.
    expect(await enqueueWebhookEvents(ports, cache, [change('MODIFY', { ...lane('s1', 1), round: 2 }, lane('s1', 1))])).toBe(0);
    expect(await enqueueWebhookEvents(ports, cache, [change('MODIFY', lane('s1', 2), lane('s1', 1)), change('MODIFY', lane('s2', 1), lane('s2', 0))])).toBe(1);
    const [event] = await delivered(accountId, subscriptionId);
    expect(event).toMatchObject({ type: 'campaign.progress', body: { data: { id: 'k1', name: 'Black Friday', counts: { recipients: 3, sent: 3 } } } });
  });

  it('delivers only subscribed types of enabled subscriptions; an account without subscriptions gets nothing', async () => {
    const onlyMessages = await account(['message.created']);
    const paused = await account(webhookEventTypes, false);
    const none = await account(null);
    const cache = subscriptionCache();
    const batch = [onlyMessages, paused, none].flatMap(({ accountId }) => [change('INSERT', contact(accountId)), change('INSERT', message(accountId))]);
    expect(await enqueueWebhookEvents(ports, cache, batch)).toBe(1);
    expect((await delivered(onlyMessages.accountId, onlyMessages.subscriptionId)).map((e) => e.type)).toEqual(['message.created']);
    expect(await delivered(paused.accountId, paused.subscriptionId)).toEqual([]);
  });
});
