/** The table stream's consumers; the stack and the local runtime both read this list. */
import { entityTypes } from '#db/keys.ts';

/**
 * A Lambda event filter pattern: the record's fields, down to the values it may hold (an array is
 * "any of"; `{ exists }`, `{ prefix }` and `{ 'anything-but' }` as Lambda reads them). A record
 * passes a consumer's filters when it matches any one of them.
 */
export type EventPattern = { readonly [field: string]: EventPattern | readonly PatternValue[] };
export type PatternValue = string | number | boolean | null | { exists: boolean } | { prefix: string } | { 'anything-but': readonly (string | number)[] };

export interface StreamConsumerDef {
  name: string;
  /** Module under functions/streams, without extension. */
  handler: string;
  batchSize: number;
  /**
   * The records the consumer acts on (Lambda event filtering in the cloud, the stream emulator
   * locally); other records never invoke it. Filters see one image at a time, so a consumer that
   * compares old and new images still checks in code. Absent: every record.
   */
  filters?: readonly EventPattern[];
  /** Handler timeout. @default 30 */
  timeoutSeconds?: number;
}

/** The item types that become realtime events (shared/domain/realtime/events.ts). */
export const realtimeItemTypes = [entityTypes.account, entityTypes.user, entityTypes.service, entityTypes.contact, entityTypes.message] as const;

export const streamConsumers: StreamConsumerDef[] = [
  {
    name: 'fanout',
    handler: 'fanout',
    batchSize: 100,
    // Created or changed items of a kind browsers follow; removals become no event.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: realtimeItemTypes } } } }],
  },
  {
    name: 'close-sessions',
    handler: 'close-sessions',
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
    batchSize: 10,
    // Our own messages at ack 0 (sending): stored by a send, or put back by a retry.
    filters: [{ dynamodb: { NewImage: { type: { S: [entityTypes.message] }, isFromMe: { BOOL: [true] }, ack: { N: ['0'] } } } }],
  },
  {
    name: 'notify-worker',
    handler: 'notify-worker',
    batchSize: 100,
    // Connections created or changed, and connections removed (a removal has only the old image).
    filters: [
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.service] } } } },
      { eventName: ['REMOVE'], dynamodb: { OldImage: { type: { S: [entityTypes.service] } } } },
    ],
  },
  {
    name: 'contact-snapshots',
    handler: 'contact-snapshots',
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
    batchSize: 10,
    // Tombstones of deleted contacts while their messages, files and avatar are being purged.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.contactTombstone] }, purge: { BOOL: [true] } } } }],
    timeoutSeconds: 60,
  },
  {
    name: 'account-deletion',
    handler: 'account-deletion',
    batchSize: 10,
    // The purge jobs of deleted accounts, new or moved on by their last step.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.accountDeletion] } } } }],
    // A step deletes a few hundred items and files, or waits a little for the channel worker.
    timeoutSeconds: 120,
  },
  {
    name: 'account-export',
    handler: 'account-export',
    batchSize: 10,
    // Exports of an account's data while they run: new, or moved on by their last step.
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: [entityTypes.accountExport] }, status: { S: ['running'] } } } }],
    // The last step joins the parts into one archive.
    timeoutSeconds: 300,
  },
];
