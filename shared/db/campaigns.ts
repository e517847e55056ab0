/**
 * Campaigns as items (ADR-0227): the campaign in its account's partition; its
 * recipients (one per contact, in send order) and its lanes (one per connection) in a partition of
 * the campaign's own. A send moves a recipient from `queued` and its lane's round on in one
 * transaction with the message (shared/domain/campaigns/feed-lane.ts); the minute poller finds the
 * running lanes through a sparse gsi1 spread over `laneShards` partitions.
 */
import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CampaignAudience, CampaignCounts, CampaignMessage, CampaignOutcome, CampaignPace, CampaignStatus, CampaignWindow } from '#contracts/campaigns.ts';
import { getItems } from './batch-get.ts';
import type { Table } from './client.ts';
import type { ContactItem } from './contacts.ts';
import { entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';
import type { PutStep, UpdateStep } from './transaction.ts';

export const laneShards = 4;

export interface CampaignItem {
  pk: string;
  sk: string;
  /** Only while `preparing` (`keys.preparingCampaign`). */
  gsi1pk?: string;
  gsi1sk?: string;
  type: typeof entityTypes.campaign;
  accountId: string;
  id: string;
  name: string;
  status: CampaignStatus;
  audience: CampaignAudience;
  /** A segment audience's filter as it was when the campaign was created (the list query's `where`). */
  frozenWhere?: Record<string, unknown>;
  serviceIds: string[];
  message: CampaignMessage;
  startAt: string;
  window: CampaignWindow;
  pace: CampaignPace;
  optOutHint: boolean;
  /** Recipients written when the campaign was prepared; the rest of the counts live on its lanes. */
  recipients: number;
  estimatedFinishAt: string | null;
  createdBy: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
}

export type RecipientState = 'queued' | 'sent' | 'skipped';

export interface RecipientItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.campaignRecipient;
  accountId: string;
  campaignId: string;
  serviceId: string;
  contactId: string;
  /** Had never written to the number when the campaign was prepared: a first message. */
  fresh: boolean;
  state: RecipientState;
  messageId?: string;
  /** `campaignSkipReasons` key. */
  reason?: string;
  at?: string;
  /** The highest ack its message reached (counted once per threshold). */
  ack?: number;
  replied?: boolean;
  optedOut?: boolean;
}

/** A lane's tallies, added to as its recipients move (the campaign's counts are their sum). */
export interface LaneTallies {
  recipients: number;
  sent: number;
  skipped: number;
  delivered: number;
  read: number;
  failed: number;
  replied: number;
  optedOut: number;
}

export interface LaneItem extends LaneTallies {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  type: typeof entityTypes.campaignLane;
  accountId: string;
  campaignId: string;
  serviceId: string;
  /** Moves on with every send or skip; a write finding another round was beaten by another poller. */
  round: number;
  /** The sort key of the last recipient taken; null before the first. */
  cursor: string | null;
  /** When the lane sends next; null once it finished (or while its campaign is paused). */
  nextAt: string | null;
  /** What it sent on the account's current day. */
  day: { day: string; sends: number; newChats: number } | null;
  /** Its last campaign message while it has not left the queue: the lane sends one at a time. */
  inFlight: { contactId: string; messageId: string } | null;
  /** The gap drawn after its last send: the next one goes that long after the channel took it. */
  gapMs?: number;
  /** Why the lane waits, in pt-BR, when it is not its rhythm (the connection is down); null otherwise. */
  waiting?: string | null;
  finished: boolean;
}

export function campaignItem(fields: Omit<CampaignItem, 'pk' | 'sk' | 'type' | 'gsi1pk' | 'gsi1sk'>): CampaignItem {
  const item: CampaignItem = { ...keys.campaign(fields.accountId, fields.id), type: entityTypes.campaign, ...fields };
  return fields.status === 'preparing' ? { ...item, ...keys.preparingCampaign(fields.createdAt, fields.accountId, fields.id) } : item;
}

/** Segment campaigns still to prepare, oldest first (eventually consistent: each is read again before it is prepared). */
export async function preparingCampaignsOf(table: Table): Promise<Pick<CampaignItem, 'accountId' | 'id'>[]> {
  const found = await queryAll<CampaignItem>(table, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.preparingCampaigns().gsi1pk },
  });
  return found.map(({ accountId, id }) => ({ accountId, id }));
}

/** Transaction member: a prepared campaign starts (status, its recipients count and estimate), leaving the preparing index; refused unless still preparing. */
export function campaignPreparedStep(
  campaign: Pick<CampaignItem, 'accountId' | 'id'>,
  to: 'scheduled' | 'running',
  recipients: number,
  estimatedFinishAt: string | null,
  at: string,
): UpdateStep {
  return {
    Update: {
      Key: keys.campaign(campaign.accountId, campaign.id),
      UpdateExpression: 'SET #status = :to, recipients = :n, estimatedFinishAt = :e, updatedAt = :at REMOVE gsi1pk, gsi1sk',
      ConditionExpression: '#status = :preparing',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': to, ':n': recipients, ':e': estimatedFinishAt, ':at': at, ':preparing': 'preparing' },
    },
  };
}

export function recipientItem(fields: Omit<RecipientItem, 'pk' | 'sk' | 'type' | 'state'>): RecipientItem {
  return {
    ...keys.campaignRecipient(fields.accountId, fields.campaignId, fields.serviceId, fields.fresh, fields.contactId),
    type: entityTypes.campaignRecipient,
    ...fields,
    state: 'queued',
  };
}

/** The shard of a lane in the due index: a small stable hash of campaign and connection. */
function laneShard(campaignId: string, serviceId: string): number {
  const text = `${campaignId}#${serviceId}`;
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
  return hash % laneShards;
}

const noTallies: LaneTallies = { recipients: 0, sent: 0, skipped: 0, delivered: 0, read: 0, failed: 0, replied: 0, optedOut: 0 };

/** A lane as stored: in the due index while it has a next send. */
export function laneItem(fields: Omit<LaneItem, 'pk' | 'sk' | 'type' | 'gsi1pk' | 'gsi1sk' | keyof LaneTallies> & Partial<LaneTallies>): LaneItem {
  const { gsi1pk: _a, gsi1sk: _b, ...rest } = fields as Partial<LaneItem>;
  const item: LaneItem = {
    ...noTallies,
    ...(rest as typeof fields),
    ...keys.campaignLane(fields.accountId, fields.campaignId, fields.serviceId),
    type: entityTypes.campaignLane,
  };
  return fields.nextAt && !fields.finished
    ? { ...item, ...keys.dueLane(laneShard(fields.campaignId, fields.serviceId), fields.nextAt, fields.accountId, fields.campaignId, fields.serviceId) }
    : item;
}

export async function getCampaignItem(table: Table, accountId: string, campaignId: string, consistent = false): Promise<CampaignItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.campaign(accountId, campaignId), ConsistentRead: consistent }));
  return Item as CampaignItem | undefined;
}

/** The account's campaigns, newest first (ids are time-ordered). */
export async function campaignsOf(table: Table, accountId: string): Promise<CampaignItem[]> {
  const { pk, skPrefix } = keys.accountCampaigns(accountId);
  return queryAll<CampaignItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
    ScanIndexForward: false,
  });
}

/** Transaction member: the campaign's status moves from one of `from`. */
export function campaignStatusStep(campaign: Pick<CampaignItem, 'accountId' | 'id'>, from: CampaignStatus[], to: CampaignStatus, at: string): UpdateStep {
  const names = from.map((_, i) => `:from${i}`);
  return {
    Update: {
      Key: keys.campaign(campaign.accountId, campaign.id),
      // Out of the preparing index whatever the move (a preparing campaign cancelled).
      UpdateExpression: 'SET #status = :to, updatedAt = :at REMOVE gsi1pk, gsi1sk',
      ConditionExpression: `#status IN (${names.join(', ')})`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': to, ':at': at, ...Object.fromEntries(from.map((s, i) => [names[i]!, s])) },
    },
  };
}

/** Writes recipients, 25 a request and `parallel` requests at a time, retrying what DynamoDB left unprocessed. */
export async function putRecipients(table: Table, items: RecipientItem[], parallel = 4): Promise<void> {
  const share = Math.ceil(items.length / parallel / 25) * 25;
  if (parallel > 1 && items.length > 25) {
    await Promise.all(Array.from({ length: parallel }, (_, i) => putRecipients(table, items.slice(i * share, (i + 1) * share), 1)));
    return;
  }
  for (let i = 0; i < items.length; i += 25) {
    let requests: { PutRequest: { Item: Record<string, unknown> } }[] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item: { ...Item } } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`Could not write ${requests.length} campaign recipients`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const result = await table.doc.send(new BatchWriteCommand({ RequestItems: { [table.name]: requests } }));
      requests = (result.UnprocessedItems?.[table.name] ?? []) as typeof requests;
    }
  }
}

/** The lane's next recipient after its cursor, read strongly (the previous send's write is seen). */
export async function nextRecipient(
  table: Table,
  lane: Pick<LaneItem, 'accountId' | 'campaignId' | 'serviceId' | 'cursor'>,
): Promise<RecipientItem | undefined> {
  const { pk, skPrefix } = keys.campaignLaneRecipients(lane.accountId, lane.campaignId, lane.serviceId);
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': lane.cursor ? `${lane.cursor}\u0000` : skPrefix, ':to': `${skPrefix}\uffff` },
      ConsistentRead: true,
      Limit: 1,
    }),
  );
  return Items?.[0] as RecipientItem | undefined;
}

/**
 * A campaign's recipients with `outcome` (skipped, or marked failed by campaign-progress.ts), in
 * send order, after the sort key `after`: at most `want`, reading at most about `readCap`
 * recipients (the Query's filter reads those it leaves out). `next`: the sort key the next page
 * starts after; null once the campaign's recipients are read to the end.
 */
export async function recipientsWithOutcome(
  table: Table,
  at: { accountId: string; campaignId: string },
  outcome: CampaignOutcome,
  after: string | undefined,
  want: number,
  readCap: number,
): Promise<{ items: RecipientItem[]; next: string | null }> {
  const { pk, skPrefix } = keys.campaignRecipients(at.accountId, at.campaignId);
  const items: RecipientItem[] = [];
  let from = after;
  let read = 0;
  for (;;) {
    const answer = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: outcome === 'skipped' ? '#state = :skipped' : '#failed = :yes',
        ExpressionAttributeNames: outcome === 'skipped' ? { '#state': 'state' } : { '#failed': 'failed' },
        ExpressionAttributeValues: {
          ':pk': pk,
          ':from': from ? `${from}\u0000` : skPrefix,
          ':to': `${skPrefix}\uffff`,
          ...(outcome === 'skipped' ? { ':skipped': 'skipped' } : { ':yes': true }),
        },
        Limit: Math.max(1, Math.min(500, readCap - read)),
      }),
    );
    read += answer.ScannedCount ?? 0;
    for (const item of (answer.Items ?? []) as RecipientItem[]) {
      items.push(item);
      if (items.length === want) return { items, next: item.sk };
    }
    const last = answer.LastEvaluatedKey?.sk as string | undefined;
    if (!last) return { items, next: null };
    if (read >= readCap) return { items, next: last };
    from = last;
  }
}

export async function getLaneItem(table: Table, accountId: string, campaignId: string, serviceId: string): Promise<LaneItem | undefined> {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.campaignLane(accountId, campaignId, serviceId), ConsistentRead: true }),
  );
  return Item as LaneItem | undefined;
}

export async function lanesOf(table: Table, accountId: string, campaignId: string): Promise<LaneItem[]> {
  const { pk, skPrefix } = keys.campaignLanes(accountId, campaignId);
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as LaneItem[];
}

/** Lanes due by `until` (ISO) on a shard of the index: the poller's read (eventually consistent: each is read again before it acts). */
export async function dueLanesOf(table: Table, shard: number, until: string): Promise<Pick<LaneItem, 'accountId' | 'campaignId' | 'serviceId' | 'nextAt'>[]> {
  const lanes = await queryAll<LaneItem>(table, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :until',
    ExpressionAttributeValues: { ':pk': keys.dueLanes(shard).gsi1pk, ':until': `${until}#\uffff` },
  });
  return lanes.map(({ accountId, campaignId, serviceId, nextAt }) => ({ accountId, campaignId, serviceId, nextAt }));
}

/** Transaction member: the lane's next state, refused when another write moved its round since `seen` was read. */
export function laneStep(next: LaneItem, seen: number): PutStep {
  return {
    Put: {
      Item: { ...next },
      ConditionExpression: '#round = :seen',
      ExpressionAttributeNames: { '#round': 'round' },
      ExpressionAttributeValues: { ':seen': seen },
    },
  };
}

/** Transaction member: a queued recipient is sent (its message) or skipped (why); refused when it is not queued any more. */
export function recipientTakenStep(recipient: Pick<RecipientItem, 'pk' | 'sk'>, taken: { messageId: string } | { reason: string }, at: string): UpdateStep {
  const sent = 'messageId' in taken;
  return {
    Update: {
      Key: { pk: recipient.pk, sk: recipient.sk },
      UpdateExpression: sent ? 'SET #state = :state, messageId = :value, #at = :at' : 'SET #state = :state, reason = :value, #at = :at',
      ConditionExpression: '#state = :queued',
      ExpressionAttributeNames: { '#state': 'state', '#at': 'at' },
      ExpressionAttributeValues: { ':state': sent ? 'sent' : 'skipped', ':value': sent ? taken.messageId : taken.reason, ':at': at, ':queued': 'queued' },
    },
  };
}

/** Adds to a lane's tallies (the message-driven counts: delivered, read, failed, replied, opted out). */
export function laneTalliesStep(lane: Pick<LaneItem, 'accountId' | 'campaignId' | 'serviceId'>, add: Partial<LaneTallies>): UpdateStep {
  const entries = Object.entries(add).filter(([, n]) => n);
  return {
    Update: {
      Key: keys.campaignLane(lane.accountId, lane.campaignId, lane.serviceId),
      UpdateExpression: `ADD ${entries.map(([name]) => `#${name} :${name}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([name, n]) => [`:${name}`, n])),
    },
  };
}

/** The campaign's counts: its lanes' tallies summed, queued being what is neither sent nor skipped. */
export function countsOf(campaign: Pick<CampaignItem, 'recipients'>, lanes: LaneTallies[]): CampaignCounts {
  const sum = (name: keyof LaneTallies) => lanes.reduce((total, lane) => total + (lane[name] ?? 0), 0);
  const sent = sum('sent');
  const skipped = sum('skipped');
  return {
    recipients: campaign.recipients,
    queued: Math.max(0, campaign.recipients - sent - skipped),
    sent,
    delivered: sum('delivered'),
    read: sum('read'),
    failed: sum('failed'),
    replied: sum('replied'),
    skipped,
    optedOut: sum('optedOut'),
  };
}

/** Sets the campaign's estimate (the preparation's last step, and after a resume). */
export async function setCampaignEstimate(
  table: Table,
  campaign: Pick<CampaignItem, 'accountId' | 'id'>,
  estimatedFinishAt: string | null,
  at: string,
): Promise<void> {
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.campaign(campaign.accountId, campaign.id),
      UpdateExpression: 'SET estimatedFinishAt = :e, updatedAt = :at',
      ExpressionAttributeValues: { ':e': estimatedFinishAt, ':at': at },
    }),
  );
}

/** A campaign audience's contacts, 100 a read; ids not found are left out. */
export async function audienceContacts(table: Table, accountId: string, ids: string[]): Promise<ContactItem[]> {
  return (await getItems(
    table,
    ids.map((id) => keys.contact(accountId, id)),
  )) as unknown as ContactItem[];
}

/** Takes a lane out of the due index (its campaign paused or cancelled); the poller leaves it. */
export async function unlistLane(table: Table, lane: Pick<LaneItem, 'accountId' | 'campaignId' | 'serviceId'>): Promise<void> {
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.campaignLane(lane.accountId, lane.campaignId, lane.serviceId),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}
