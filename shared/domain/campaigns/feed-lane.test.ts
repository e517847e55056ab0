/**
 * A campaign fed on the real table (dynalite behind the local DynamoDB front: transactions and
 * conditions as DynamoDB runs them), on a fake clock: who gets it and who is skipped, exactly once
 * under two pollers at once, the window and the day's limits, one message in the queue at a time,
 * pause and resume.
 */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampaignPayload, campaignPayload } from '#contracts/campaigns.ts';
import type { ContactFields } from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import type { MessageItem } from '#db/messages.ts';
import { getLaneItem, lanesOf } from '#db/campaigns.ts';
import type { Ports } from '#domain/ports.ts';
import type { AccountSession } from '#domain/session.ts';
import { adminSession, storedContact } from '../../../tests/support/campaign-fixtures.ts';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';
import { getCampaign, moveCampaign } from './campaign-actions.ts';
import { countMessageProgress } from './campaign-progress.ts';
import { createCampaign, planCampaign } from './plan-campaign.ts';
import { runCampaigns } from './run-campaigns.ts';

let local: LocalTable;
let ports: Ports;
let now = Date.parse('2026-12-01T13:00:00Z'); // Tuesday 10:00 in São Paulo
let ids = 0;

beforeAll(async () => {
  local = await startLocalTable('campaigns-test');
  ports = {
    ...(local.ports as Ports),
    clock: () => new Date(now),
    newId: (at?: number) => `${String(at ?? now).padStart(15, '0')}-${String(++ids).padStart(6, '0')}`,
  };
});

afterAll(async () => {
  await local.close();
});

const put = (item: object) => ports.table.doc.send(new PutCommand({ TableName: ports.table.name, Item: item as Record<string, unknown> }));

let accounts = 0;
/** An account with an admin, a connected QR number S1 and another S2, and contacts on them. */
async function world(contacts: (Partial<ContactFields> & { id: string })[]) {
  const accountId = `acc${++accounts}`;
  const at = new Date(now).toISOString();
  for (const id of ['S1', 'S2']) {
    await put({
      ...keys.service(accountId, id),
      type: 'Service',
      id,
      accountId,
      name: id,
      channelType: 'whatsapp',
      status: 'connected',
      statusReason: null,
      qrCode: null,
      tokenSealed: null,
      tokenHint: null,
      createdAt: at,
      updatedAt: at,
    });
  }
  for (const c of contacts) await put(storedContact(accountId, 'S1', at, { idFromService: `${c.id}@s.whatsapp.net`, ...c }));
  return { accountId, session: adminSession(accountId) };
}

const payload = (contactIds: string[], changes: Partial<CampaignPayload> = {}): CampaignPayload =>
  campaignPayload.parse({
    name: 'Black Friday',
    audience: { kind: 'contacts', contactIds },
    serviceIds: ['S1'],
    message: { text: 'Olá, {{primeiro_nome}}! Temos ofertas.' },
    window: { kind: 'hours', start: '09:00', end: '18:00', weekdays: [1, 2, 3, 4, 5] },
    pace: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 100, dailyNewChats: 10 },
    ...changes,
  });

async function campaignMessages(accountId: string, contactId: string): Promise<MessageItem[]> {
  const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
  const { Items } = await ports.table.doc.send(
    new QueryCommand({
      TableName: ports.table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
    }),
  );
  return ((Items ?? []) as MessageItem[]).filter((m) => m.campaign);
}

/** What the outbox's dispatch would do: every campaign message still sending is taken by the channel. */
async function dispatchAll(accountId: string, contactIds: string[]) {
  for (const contactId of contactIds) {
    for (const m of await campaignMessages(accountId, contactId)) {
      if (m.ack === 0) {
        await ports.table.doc.send(
          new UpdateCommand({
            TableName: ports.table.name,
            Key: { pk: m.pk, sk: m.sk },
            UpdateExpression: 'SET ack = :one',
            ExpressionAttributeValues: { ':one': 1 },
          }),
        );
      }
    }
  }
}

/** Runs the poller over `ms` of fake time; each sleep moves the clock, and the channel takes what was queued. */
async function runFor(ms: number, accountId: string, contactIds: string[], pollers = 1) {
  const until = now + ms;
  const sleep = async (wait: number) => {
    await dispatchAll(accountId, contactIds);
    now = Math.max(now, Math.min(until, now + wait));
  };
  const runs = await Promise.all(Array.from({ length: pollers }, () => runCampaigns(ports, { until, sleep, random: () => 0.5 })));
  now = until;
  await dispatchAll(accountId, contactIds);
  return runs;
}

// On the real table: a loaded machine can take over the unit project's 5 s default for the longer runs.
describe('a campaign fed lane by lane', { timeout: 20_000 }, () => {
  it('plans before starting: who receives it, who is left out, first messages and the estimated finish', async () => {
    const { session } = await world([{ id: 'k1', lastInboundAt: '2026-11-20T12:00:00Z' }, { id: 'f1' }, { id: 'other', serviceId: 'S2' }]);
    const plan = await planCampaign(ports, session, payload(['k1', 'f1', 'other', 'missing']));
    expect(plan).toMatchObject({ recipients: 2, leftOut: 2, firstMessages: 1 });
    // Two sends 40 s apart (the mean gap) from now.
    expect(plan.estimatedFinishAt).toBe(new Date(now + 40_000).toISOString());
  });

  it('sends once to each recipient, fills the variables, ends with the opt-out hint, and skips whom it must', async () => {
    const { accountId, session } = await world([
      { id: 'k1', lastInboundAt: '2026-11-20T12:00:00Z' },
      { id: 'f1' },
      { id: 'out', lastInboundAt: '2026-11-20T12:00:00Z', optedOutAt: '2026-11-21T12:00:00Z', optedOutWord: 'SAIR' },
      { id: 'arch', archivedAt: '2026-11-22T12:00:00Z', archivedReason: 'manual' },
    ]);
    const contactIds = ['k1', 'f1', 'out', 'arch'];
    const campaign = await createCampaign(ports, session, payload(contactIds));
    expect(campaign).toMatchObject({ status: 'running', counts: { recipients: 4, queued: 4 } });

    // Two pollers at once (an overlapping minute): each lane's round lets one of them through.
    await runFor(5 * 60_000, accountId, contactIds, 2);

    const k1 = await campaignMessages(accountId, 'k1');
    expect(k1).toHaveLength(1);
    expect(k1[0]!.text).toBe('Olá, Cliente! Temos ofertas.\n\nPara não receber mais mensagens como esta, responda SAIR.');
    expect(k1[0]!.user).toEqual({ id: 'admin', name: 'Ana Souza' });
    expect(await campaignMessages(accountId, 'f1')).toHaveLength(1);
    expect(await campaignMessages(accountId, 'out')).toHaveLength(0);
    expect(await campaignMessages(accountId, 'arch')).toHaveLength(0);

    const done = await getCampaign(ports, session, campaign.id);
    expect(done.status).toBe('finished');
    expect(done.counts).toMatchObject({ recipients: 4, queued: 0, sent: 2, skipped: 2 });
    expect(done.estimatedFinishAt).toBeNull();
    // Known contacts go first, then first messages; 40 s apart (random 0.5 of 20–60 s).
    expect(Date.parse(k1[0]!.timestamp) < Date.parse((await campaignMessages(accountId, 'f1'))[0]!.timestamp)).toBe(true);
  });

  it('waits for its window and its daily limits, and sends one message at a time', async () => {
    const contacts = Array.from({ length: 5 }, (_, i) => ({ id: `d${i}`, lastInboundAt: '2026-11-20T12:00:00Z' }));
    const { accountId, session } = await world(contacts);
    const contactIds = contacts.map((c) => c.id);
    now = Date.parse('2026-12-01T20:30:00Z'); // Tuesday 17:30 in São Paulo: half an hour of window left
    const campaign = await createCampaign(
      ports,
      session,
      payload(contactIds, { pace: { minGapSeconds: 60, maxGapSeconds: 60, dailyLimit: 2, dailyNewChats: 0 } }),
    );

    await runFor(60 * 60_000, accountId, contactIds);
    // 2 a day: 17:30 and 17:31, then the day is full.
    let counts = (await getCampaign(ports, session, campaign.id)).counts;
    expect(counts).toMatchObject({ sent: 2, queued: 3 });
    const lane = await getLaneItem(ports.table, accountId, campaign.id, 'S1');
    expect(lane?.nextAt).toBe('2026-12-02T12:00:00.000Z'); // Wednesday 09:00

    now = Date.parse('2026-12-02T12:00:00Z');
    await runFor(10 * 60_000, accountId, contactIds);
    counts = (await getCampaign(ports, session, campaign.id)).counts;
    expect(counts).toMatchObject({ sent: 4, queued: 1 });
  });

  it('does not send the next message while the previous one is still in the queue', async () => {
    const { accountId, session } = await world([
      { id: 'q1', lastInboundAt: '2026-11-20T12:00:00Z' },
      { id: 'q2', lastInboundAt: '2026-11-20T12:00:00Z' },
    ]);
    now = Date.parse('2026-12-03T13:00:00Z');
    const campaign = await createCampaign(ports, session, payload(['q1', 'q2']));
    // No dispatch: the first message stays at ack 0.
    await runCampaigns(ports, {
      until: now + 5 * 60_000,
      random: () => 0.5,
      sleep: async (ms) => {
        now += ms;
      },
    });
    expect((await getCampaign(ports, session, campaign.id)).counts).toMatchObject({ sent: 1, queued: 1 });
    await dispatchAll(accountId, ['q1']);
    await runFor(2 * 60_000, accountId, ['q1', 'q2']);
    expect((await getCampaign(ports, session, campaign.id)).counts).toMatchObject({ sent: 2, queued: 0 });
  });

  it('stops at once when paused, and goes on from where it was when resumed', async () => {
    const contacts = Array.from({ length: 4 }, (_, i) => ({ id: `p${i}`, lastInboundAt: '2026-11-20T12:00:00Z' }));
    const { accountId, session } = await world(contacts);
    const contactIds = contacts.map((c) => c.id);
    now = Date.parse('2026-12-03T14:00:00Z');
    const campaign = await createCampaign(
      ports,
      session,
      payload(contactIds, { pace: { minGapSeconds: 30, maxGapSeconds: 30, dailyLimit: 100, dailyNewChats: 0 } }),
    );
    await runFor(40_000, accountId, contactIds); // 0 s and 30 s
    expect((await getCampaign(ports, session, campaign.id)).counts.sent).toBe(2);

    const paused = await moveCampaign(ports, session, campaign.id, 'pause');
    expect(paused.status).toBe('paused');
    expect((await lanesOf(ports.table, accountId, campaign.id))[0]?.gsi1pk).toBeUndefined();
    await runFor(10 * 60_000, accountId, contactIds);
    expect((await getCampaign(ports, session, campaign.id)).counts.sent).toBe(2);
    await expect(moveCampaign(ports, session, campaign.id, 'pause')).rejects.toMatchObject({ kind: 'invalid' });

    await moveCampaign(ports, session, campaign.id, 'resume');
    await runFor(5 * 60_000, accountId, contactIds);
    const done = await getCampaign(ports, session, campaign.id);
    expect(done).toMatchObject({ status: 'finished', counts: { sent: 4, queued: 0 } });
    for (const id of contactIds) expect(await campaignMessages(accountId, id)).toHaveLength(1);
  });

  it('counts the gap from when the channel took the previous message, not from when it was queued', async () => {
    const { accountId, session } = await world([
      { id: 'g1', lastInboundAt: '2026-11-20T12:00:00Z' },
      { id: 'g2', lastInboundAt: '2026-11-20T12:00:00Z' },
    ]);
    now = Date.parse('2026-12-03T16:00:00Z');
    const campaign = await createCampaign(
      ports,
      session,
      payload(['g1', 'g2'], { pace: { minGapSeconds: 30, maxGapSeconds: 30, dailyLimit: 100, dailyNewChats: 0 } }),
    );
    await runCampaigns(ports, { until: now, random: () => 0.5, sleep: async () => {} });
    const [first] = await campaignMessages(accountId, 'g1');
    // The queue was slow: the channel took the first message 25 s after it was stored.
    const takenAt = Date.parse(first!.timestamp) + 25_000;
    await ports.table.doc.send(
      new UpdateCommand({
        TableName: ports.table.name,
        Key: { pk: first!.pk, sk: first!.sk },
        UpdateExpression: 'SET ack = :one, sentAt = :at',
        ExpressionAttributeValues: { ':one': 1, ':at': new Date(takenAt).toISOString() },
      }),
    );
    now = takenAt;
    await runCampaigns(ports, {
      until: now + 120_000,
      random: () => 0.5,
      sleep: async (ms) => {
        now += ms;
      },
    });
    const [second] = await campaignMessages(accountId, 'g2');
    expect(Date.parse(second!.timestamp) - takenAt).toBeGreaterThanOrEqual(30_000);
    expect((await getCampaign(ports, session, campaign.id)).counts.sent).toBe(2);
  });

  it('counts each ack threshold once per recipient, however often the stream delivers the change, and takes back a failure a retry fixed', async () => {
    const { accountId, session } = await world([
      { id: 'a1', lastInboundAt: '2026-11-20T12:00:00Z' },
      { id: 'a2', lastInboundAt: '2026-11-20T12:00:00Z' },
    ]);
    now = Date.parse('2026-12-03T15:00:00Z');
    const campaign = await createCampaign(
      ports,
      session,
      payload(['a1', 'a2'], { pace: { minGapSeconds: 1, maxGapSeconds: 1, dailyLimit: 100, dailyNewChats: 0 } }),
    );
    await runFor(60_000, accountId, ['a1', 'a2']);
    const [m1] = await campaignMessages(accountId, 'a1');
    const [m2] = await campaignMessages(accountId, 'a2');
    // a1: sent → read at once (delivered on the way), delivered twice by the stream.
    for (let i = 0; i < 2; i++) await countMessageProgress(ports, { ...m1!, ack: 1 }, { ...m1!, ack: 3 });
    // a2: failed, then retried and delivered.
    await countMessageProgress(ports, { ...m2!, ack: 0 }, { ...m2!, ack: -2 });
    await countMessageProgress(ports, { ...m2!, ack: 0 }, { ...m2!, ack: -2 });
    expect((await getCampaign(ports, session, campaign.id)).counts).toMatchObject({ sent: 2, delivered: 1, read: 1, failed: 1 });
    await countMessageProgress(ports, { ...m2!, ack: -2 }, { ...m2!, ack: 1 });
    await countMessageProgress(ports, { ...m2!, ack: 1 }, { ...m2!, ack: 2 });
    expect((await getCampaign(ports, session, campaign.id)).counts).toMatchObject({ sent: 2, delivered: 2, read: 1, failed: 0 });
  });

  it('is for admins only', async () => {
    const { session } = await world([{ id: 'm1' }]);
    const member = { ...session, user: { ...session.user, isAdmin: false } } as AccountSession;
    await expect(planCampaign(ports, member, payload(['m1']))).rejects.toMatchObject({ kind: 'forbidden' });
  });
});
