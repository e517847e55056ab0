/**
 * The table stream's consumers and the two routers that read the stream for them; the stack and
 * the local runtime both read these lists (ADR-0192).
 */
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { entityTypes } from '#db/keys.ts';

/**
 * A Lambda event filter pattern: the record's fields, down to the values it may hold (an array is
 * "any of"; `{ exists }`, `{ prefix }` and `{ 'anything-but' }` as Lambda reads them). A record
 * passes a consumer's filters when it matches any one of them.
 */
export type EventPattern = { readonly [field: string]: EventPattern | readonly PatternValue[] };
export type PatternValue = string | number | boolean | null | { exists: boolean } | { prefix: string } | { 'anything-but': readonly (string | number)[] };

/** A consumer's handler as its router calls it: a batch of the records it asked for. */
export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<unknown>;

/**
 * The stream's readers. DynamoDB Streams allows no more than two processes reading one shard at
 * a time (more are throttled), so two event source mappings read it, each calling a router that
 * hands every consumer of its group the records its filters let through. `realtime`: what users
 * wait for (browsers' events, sends, closed sessions, the channel worker's changes), short
 * batches; `jobs`: long steps (snapshots, plan limits, purges, exports) that must not hold
 * realtime records back on the shard.
 */
export const streamRouters = [
  { name: 'realtime', description: 'Realtime events, sends, sessions and connection changes' },
  { name: 'jobs', description: 'Snapshots, plan limits, purges and exports' },
] as const;
export type StreamRouterName = (typeof streamRouters)[number]['name'];

export interface StreamConsumerDef {
  name: string;
  /** Module under functions/streams, without extension. */
  handler: string;
  /** The router (event source mapping) whose batches it gets. */
  router: StreamRouterName;
  /**
   * Its handler module, imported when its router first needs it. A literal `import()` so the
   * router's bundle (esbuild) carries the module; the local runtime loads it by path instead.
   */
  load?: () => Promise<{ handler: StreamHandler }>;
  /** Records per call of the consumer; its router's batches are split to this size. */
  batchSize: number;
  /**
   * The records the consumer acts on (Lambda event filtering in the cloud, the stream emulator
   * locally); other records never invoke it. Filters see one image at a time, so a consumer that
   * compares old and new images still checks in code. Absent: every record.
   */
  filters?: readonly EventPattern[];
  /** The longest a call of the consumer may take; its router's timeout covers the longest of its group. @default 30 */
  timeoutSeconds?: number;
}

/** The item types that become realtime events (shared/domain/realtime/events.ts). */
export const realtimeItemTypes = [
  entityTypes.account,
  entityTypes.user,
  entityTypes.service,
  entityTypes.contact,
  entityTypes.message,
  entityTypes.messageTemplate,
  entityTypes.scheduledMessage,
] as const;

export const streamConsumers: StreamConsumerDef[] = [
  {
    name: 'fanout',
    handler: 'fanout',
    router: 'realtime',
    load: () => import('./fanout.ts'),
    batchSize: 100,
    // Created or changed items of a kind browsers follow; removals become no event.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: realtimeItemTypes } } } }],
  },
  {
    name: 'close-sessions',
    handler: 'close-sessions',
    router: 'realtime',
    load: () => import('./close-sessions.ts'),
    batchSize: 100,
    // Changes that end sessions: a revoked token (logout), a user archived or moved to a new session
    // generation (password reset), a user removed. Whether a user's change ended anything is
    // checked in code against the old image.
    filters: [
      { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: [entityTypes.revokedToken] } } } },
      { eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.user] }, archivedAt: { S: [{ exists: true }] } } } },
      { eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.user] }, sessionGeneration: { N: [{ exists: true }] } } } },
      // And a role change, which closes the user's sockets so they reopen with the new role (every
      // user carries the flag: whether it changed is checked in code).
      { eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.user] }, isAdmin: { BOOL: [true, false] } } } },
      { eventName: ['REMOVE'], dynamodb: { OldImage: { type: { S: [entityTypes.user] } } } },
    ],
  },
  {
    name: 'dispatch-outbound',
    handler: 'dispatch-outbound',
    router: 'realtime',
    load: () => import('./dispatch-outbound.ts'),
    batchSize: 10,
    // Our own messages at ack 0 (sending): stored by a send, or put back by a retry.
    filters: [{ dynamodb: { NewImage: { type: { S: [entityTypes.message] }, isFromMe: { BOOL: [true] }, ack: { N: ['0'] } } } }],
  },
  {
    name: 'notify-worker',
    handler: 'notify-worker',
    router: 'realtime',
    load: () => import('./notify-worker.ts'),
    batchSize: 100,
    // Connections created or changed, and connections removed (a removal has only the old image).
    filters: [
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.service] } } } },
      { eventName: ['REMOVE'], dynamodb: { OldImage: { type: { S: [entityTypes.service] } } } },
    ],
  },
  {
    name: 'webhook-events',
    handler: 'webhook-events',
    router: 'realtime',
    load: () => import('./webhook-events.ts'),
    batchSize: 100,
    // What outbound webhooks tell of (ADR-0233): messages, contacts, deletion
    // tombstones, campaigns and their lanes; and subscriptions, whose change refreshes the
    // account's cached ones. Whether a change makes an event, and for whom, is decided in code.
    filters: [
      {
        eventName: ['INSERT', 'MODIFY'],
        dynamodb: {
          NewImage: {
            type: {
              S: [
                entityTypes.message,
                entityTypes.contact,
                entityTypes.contactTombstone,
                entityTypes.campaign,
                entityTypes.campaignLane,
                entityTypes.webhookSubscription,
              ],
            },
          },
        },
      },
      { eventName: ['REMOVE'], dynamodb: { OldImage: { type: { S: [entityTypes.webhookSubscription] } } } },
    ],
  },
  {
    name: 'contact-snapshots',
    handler: 'contact-snapshots',
    router: 'jobs',
    load: () => import('./contact-snapshots.ts'),
    // One snapshot write per account in a batch, however many of its contacts changed.
    batchSize: 1000,
    // Contacts written and deletion tombstones (a deletion writes one); a contact's own REMOVE
    // always comes with its tombstone, and a tombstone's expiry changes nothing.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.contact, entityTypes.contactTombstone] } } } }],
    // A cold consumer of a 100,000-contact account loads, sorts and writes about 10 MB.
    timeoutSeconds: 120,
  },
  {
    name: 'plan-limits',
    handler: 'plan-limits',
    router: 'jobs',
    load: () => import('./plan-limits.ts'),
    batchSize: 10,
    // Changed accounts that have been through billing (only the billing write sets billingSyncedAt);
    // whether the limits moved is checked in code against the old image.
    filters: [{ eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.account] }, billingSyncedAt: { S: [{ exists: true }] } } } }],
    // A Pro account's 25,000 contacts are archived in transactions of 50; a retry resumes.
    timeoutSeconds: 300,
  },
  {
    name: 'contact-purge',
    handler: 'contact-purge',
    router: 'jobs',
    load: () => import('./contact-purge.ts'),
    batchSize: 10,
    // Tombstones of deleted contacts while their messages, files and avatar are being purged.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.contactTombstone] }, purge: { BOOL: [true] } } } }],
    timeoutSeconds: 60,
  },
  {
    name: 'account-deletion',
    handler: 'account-deletion',
    router: 'jobs',
    load: () => import('./account-deletion.ts'),
    batchSize: 10,
    // The purge jobs of deleted accounts, new or moved on by their last step.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.accountDeletion] } } } }],
    // A step deletes a few hundred items and files, or waits a little for the channel worker.
    timeoutSeconds: 120,
  },
  {
    name: 'account-export',
    handler: 'account-export',
    router: 'jobs',
    load: () => import('./account-export.ts'),
    batchSize: 10,
    // Exports of an account's data while they run: new, or moved on by their last step.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.accountExport] }, status: { S: ['running'] } } } }],
    // The last step joins the parts into one archive.
    timeoutSeconds: 300,
  },
  {
    name: 'contact-import',
    handler: 'contact-import',
    router: 'jobs',
    load: () => import('./contact-import.ts'),
    batchSize: 10,
    // Contact imports while a check or the import runs: started, or moved on by their last step.
    filters: [{ eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.contactImport] }, status: { S: ['checking', 'importing'] } } } }],
    // A step reads 500 rows and writes their contacts 25 to a transaction.
    timeoutSeconds: 120,
  },
  {
    name: 'webhook-deliveries',
    handler: 'webhook-deliveries',
    router: 'jobs',
    load: () => import('./webhook-deliveries.ts'),
    batchSize: 10,
    // New webhook deliveries: their first attempt, at once (the minute poller makes the retries).
    filters: [{ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: [entityTypes.webhookDelivery] }, state: { S: ['pending'] } } } }],
    // Ten posts side by side, each bounded by the sender's timeout.
    timeoutSeconds: 60,
  },
  {
    name: 'campaign-progress',
    handler: 'campaign-progress',
    router: 'jobs',
    load: () => import('./campaign-progress.ts'),
    batchSize: 100,
    // Campaign messages whose acks move, and contacts that received a campaign (a reply or an
    // opt-out after it); what changed is checked in code against the old image.
    filters: [
      { eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.message] }, campaign: { M: { id: { S: [{ exists: true }] } } } } } },
      { eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.contact] }, lastCampaign: { M: { id: { S: [{ exists: true }] } } } } } },
    ],
  },
  {
    name: 'report-rollups',
    handler: 'report-rollups',
    router: 'jobs',
    load: () => import('./report-rollups.ts'),
    // A day's rollup is computed once per batch however many of its events the batch holds.
    batchSize: 500,
    // Conversation events as the lifecycle writes them (ADR-0234).
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.conversationEvent] } } } }],
    // A busy day's events are read whole (a few thousand items) for each day a batch touches.
    timeoutSeconds: 60,
  },
];

/** The consumers one router calls, in list order. */
export function consumersOf(router: StreamRouterName, consumers: readonly StreamConsumerDef[] = streamConsumers): StreamConsumerDef[] {
  return consumers.filter((c) => c.router === router);
}

/** A router's batch: its largest consumer's (the router splits it into each consumer's size). */
export const routerBatchSize = (consumers: readonly StreamConsumerDef[]) => Math.max(...consumers.map((c) => c.batchSize));

/** A router's timeout: twice its slowest consumer's call (so a second call of it still fits), at most Lambda's 900 s. */
export function routerTimeoutSeconds(consumers: readonly StreamConsumerDef[]): number {
  return Math.min(900, 2 * Math.max(30, ...consumers.map((c) => c.timeoutSeconds ?? 30)));
}

const images = ['NewImage', 'OldImage'] as const;

/**
 * The event filter of a router's mapping: a superset of its consumers' filters that Lambda checks
 * before invoking it (a mapping takes 5 filters by default; the realtime group's own add up to 9).
 * Each consumer pattern keeps only its item type on one image, and patterns on the same image
 * merge their types, so at most two patterns remain; a record passing none is wanted by no
 * consumer. Undefined (every record) when a consumer takes records without an item type. The
 * router still applies each consumer's own filters, exactly.
 */
export function routerFilters(consumers: readonly { readonly filters?: readonly EventPattern[] }[]): EventPattern[] | undefined {
  const types = new Map<(typeof images)[number], Set<string>>();
  for (const consumer of consumers) {
    if (!consumer.filters?.length) return undefined;
    for (const pattern of consumer.filters) {
      const dynamodb = pattern.dynamodb as Record<string, EventPattern> | undefined;
      const image = images.find((i) => Array.isArray((dynamodb?.[i]?.type as EventPattern | undefined)?.S));
      const values = image ? ((dynamodb![image]!.type as EventPattern).S as readonly PatternValue[]) : undefined;
      if (!image || !values?.every((v) => typeof v === 'string')) return undefined;
      const set = types.get(image) ?? new Set<string>();
      for (const v of values as readonly string[]) set.add(v);
      types.set(image, set);
    }
  }
  return [...types].map(([image, set]) => ({ dynamodb: { [image]: { type: { S: [...set].sort() } } } }));
}
