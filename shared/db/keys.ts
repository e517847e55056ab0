/**
 * The one module that owns every key format of the table. No other file writes a key prefix.
 * See ACCESS_PATTERNS.md beside this file for the patterns these keys serve.
 */

export type Key = { pk: string; sk: string };

const ACCOUNT = 'ACCOUNT#';
const USER = 'USER#';

export const entityTypes = {
  account: 'Account',
  user: 'User',
  userEmail: 'UserEmail',
  code: 'Code',
  revokedToken: 'RevokedToken',
  signupClaim: 'SignupClaim',
  rate: 'RateCounter',
  wsConnection: 'WsConnection',
  wsTicket: 'WsTicket',
  service: 'Service',
  contact: 'Contact',
  contactTombstone: 'ContactTombstone',
  channelContact: 'ChannelContact',
  message: 'Message',
  channelMessage: 'ChannelMessage',
  file: 'File',
  channelRecord: 'ChannelRecord',
  channelClaim: 'ChannelClaim',
  outsideEvent: 'OutsideEvent',
  sessionLease: 'SessionLease',
  workerBeat: 'WorkerBeat',
  billingCustomer: 'BillingCustomer',
  billingProducts: 'BillingProducts',
  accountDeletion: 'AccountDeletion',
  accountExport: 'AccountExport',
  contactImport: 'ContactImport',
  department: 'Department',
  tag: 'Tag',
  quickReply: 'QuickReply',
  segment: 'Segment',
  uniqueName: 'UniqueName',
  sendDay: 'SendDay',
  messageTemplate: 'MessageTemplate',
  accountSetting: 'AccountSetting',
  conversationTimer: 'ConversationTimer',
  conversationRating: 'ConversationRating',
  roundRobinTurn: 'RoundRobinTurn',
  roundRobinLedger: 'RoundRobinLedger',
  conversationEvent: 'ConversationEvent',
  reportDay: 'ReportDay',
  campaign: 'Campaign',
  campaignLane: 'CampaignLane',
  campaignRecipient: 'CampaignRecipient',
  scheduledMessage: 'ScheduledMessage',
  webhookSubscription: 'WebhookSubscription',
  webhookDelivery: 'WebhookDelivery',
  apiToken: 'ApiToken',
  apiTokenLookup: 'ApiTokenLookup',
  apiTokenCall: 'ApiTokenCall',
} as const;

/**
 * The account's settings kept as one item each (shared/db/account-settings.ts): business hours,
 * the automations, and one menu per connection (`menu#<serviceId>`).
 */
export type AccountSettingName = 'business-hours' | 'automations' | `menu#${string}`;

/** The team inbox's small per-account catalogues: each item lives in its account's partition. */
export type CatalogueKind = 'department' | 'tag' | 'quickReply' | 'segment';
const catalogueSk: Record<CatalogueKind, string> = { department: 'DEPARTMENT#', tag: 'TAG#', quickReply: 'QUICK-REPLY#', segment: 'SEGMENT#' };

export const keys = {
  account: (accountId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: 'ACCOUNT' }),
  /** One of the account's settings documents (business hours...), beside the account item: not read with it on every request. */
  accountSetting: (accountId: string, name: AccountSettingName): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `SETTING#${name}` }),

  /** A user lives in its account's partition; before it has an account, in a partition of its own. */
  user: (accountId: string | null, userId: string): Key => ({
    pk: accountId ? `${ACCOUNT}${accountId}` : `${USER}${userId}`,
    sk: `${USER}${userId}`,
  }),
  /** Query prefix for the users of an account. */
  accountUsers: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: USER }),
  /** gsi1: every user that has an e-mail, across accounts (login, reset). */
  userByEmail: (email: string, userId: string) => ({ gsi1pk: `EMAIL#${email}`, gsi1sk: `${USER}${userId}` }),
  usersByEmail: (email: string) => ({ gsi1pk: `EMAIL#${email}` }),
  /** gsi2: a user by id, wherever it lives. */
  userById: (userId: string) => ({ gsi2pk: `${USER}${userId}`, gsi2sk: 'USER' }),

  /** Uniqueness guard: one sign-up per e-mail, across accounts (names the user that holds it). */
  signupEmail: (email: string): Key => ({ pk: `SIGNUP#${email}`, sk: 'CLAIM' }),

  /** Uniqueness guard: one user per e-mail inside an account. */
  userEmail: (accountId: string, email: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `USEREMAIL#${email}` }),

  /** One-time codes: e-mail verification per user, password reset per e-mail. */
  verifyCode: (userId: string): Key => ({ pk: `${USER}${userId}`, sk: 'CODE#VERIFY' }),
  resetCode: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'CODE#RESET' }),

  /** Revoked access tokens, kept until they would have expired. */
  revokedToken: (jti: string): Key => ({ pk: `TOKEN#${jti}`, sk: 'REVOKED' }),

  /** Connections (services) of an account. */
  service: (accountId: string, serviceId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `SERVICE#${serviceId}` }),
  accountServices: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: 'SERVICE#' }),
  /** gsi1: connections of a channel type that should be running (a worker resumes them after a restart). */
  runningService: (type: string, accountId: string, serviceId: string) => ({
    gsi1pk: `RUNNING#${type}`,
    gsi1sk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`,
  }),
  runningServices: (type: string) => ({ gsi1pk: `RUNNING#${type}` }),
  /**
   * The lease of a connection's session in the channel worker: one worker at a time holds it (see
   * shared/db/leases.ts). Found by the connection id alone: workers serve every account.
   */
  sessionLease: (serviceId: string): Key => ({ pk: `LEASE#${serviceId}`, sk: 'LEASE' }),
  /**
   * A channel worker's heartbeat (shared/db/worker-beats.ts): one item per worker process, all in
   * one small partition, so the health route counts the live ones with one Query.
   */
  workerBeat: (workerId: string): Key => ({ pk: 'WORKER-BEATS', sk: `WORKER#${workerId}` }),
  workerBeats: () => ({ pk: 'WORKER-BEATS', skPrefix: 'WORKER#' }),
  /** The account of a payment provider's customer (Stripe webhooks name the customer, not the account). */
  billingCustomer: (customerId: string): Key => ({ pk: `BILLING-CUSTOMER#${customerId}`, sk: 'ACCOUNT' }),
  /**
   * The paid product and its prices as the payment provider last answered them (shared/db/billing-products.ts,
   * ADR-0228): one item for the deployment, written by the functions that hold the provider's key, read by the API.
   */
  billingProducts: (): Key => ({ pk: 'BILLING-PRODUCTS', sk: 'PRODUCTS' }),
  /**
   * The purge of a deleted account (shared/db/account-deletions.ts): its progress, outside the
   * account's partitions (which it empties). gsi1 lists the unfinished ones, so a restarted runtime
   * resumes them.
   */
  accountDeletion: (accountId: string): Key => ({ pk: `ACCOUNT-DELETION#${accountId}`, sk: 'JOB' }),
  pendingAccountDeletion: (requestedAt: string, accountId: string) => ({ gsi1pk: 'ACCOUNT-DELETIONS', gsi1sk: `${requestedAt}#${accountId}` }),
  pendingAccountDeletions: () => ({ gsi1pk: 'ACCOUNT-DELETIONS' }),
  /** An export of the whole account's data (shared/db/account-exports.ts), in the account's partition. */
  accountExport: (accountId: string, exportId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `EXPORT#${exportId}` }),
  pendingAccountExport: (createdAt: string, accountId: string, exportId: string) => ({
    gsi1pk: 'ACCOUNT-EXPORTS',
    gsi1sk: `${createdAt}#${accountId}#${exportId}`,
  }),
  pendingAccountExports: () => ({ gsi1pk: 'ACCOUNT-EXPORTS' }),
  /** An import of contacts from a CSV file (shared/db/contact-imports.ts), in the account's partition. */
  contactImport: (accountId: string, importId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `IMPORT#${importId}` }),
  /** Query prefix for the account's imports (ids are ULIDs: newest first read backwards). */
  accountContactImports: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: 'IMPORT#' }),
  pendingContactImport: (createdAt: string, accountId: string, importId: string) => ({
    gsi1pk: 'CONTACT-IMPORTS',
    gsi1sk: `${createdAt}#${accountId}#${importId}`,
  }),
  pendingContactImports: () => ({ gsi1pk: 'CONTACT-IMPORTS' }),
  /** Every partition an account's items live in besides `ACCOUNT#A` itself (the purge empties each). */
  contactPartition: (accountId: string, contactId: string) => ({ pk: `${ACCOUNT}${accountId}#CONTACT#${contactId}` }),
  servicePartition: (accountId: string, serviceId: string) => ({ pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}` }),
  accountPartition: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}` }),
  /** Idempotency record of an event from outside (a Telegram update, a Stripe event), kept for a while. */
  outsideEvent: (source: string, id: string): Key => ({ pk: `EVENT#${source}#${id}`, sk: 'EVENT' }),

  /**
   * What a channel adapter keeps for itself (see shared/db/channel-records.ts). Per connection,
   * in the connection's partition (a poll offset, auth state): `<CHANNEL>-<KIND>[#<id>]`.
   */
  connectionRecord: (accountId: string, serviceId: string, channel: string, kind: string, id?: string): Key => ({
    pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`,
    sk: `${channel.toUpperCase()}-${kind}${id === undefined ? '' : `#${id}`}`,
  }),
  connectionRecords: (accountId: string, serviceId: string, channel: string, kind: string) => ({
    pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`,
    skPrefix: `${channel.toUpperCase()}-${kind}`,
  }),
  /** A channel record found without the account (a webhook delivery names only the connection). */
  channelRecord: (channel: string, kind: string, id: string): Key => ({ pk: `${channel.toUpperCase()}-${kind}#${id}`, sk: kind }),
  /**
   * Something a connection holds alone across the whole product (a Telegram bot: two consumers of
   * one bot would steal each other's updates). Claimed with the credentials, released with them.
   */
  channelClaim: (channel: string, kind: string, id: string): Key => ({ pk: `${channel.toUpperCase()}-${kind}#${id}`, sk: 'CONNECTION' }),

  /** Contacts of an account; gsi2 orders every change by time, for the contact directory's delta reads. */
  contact: (accountId: string, contactId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `CONTACT#${contactId}` }),
  accountContacts: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: 'CONTACT#' }),
  contactChange: (accountId: string, changedAt: string, contactId: string) => ({
    gsi2pk: `${ACCOUNT}${accountId}#CONTACT-CHANGES`,
    gsi2sk: `${changedAt}#${contactId}`,
  }),
  contactChanges: (accountId: string) => ({ gsi2pk: `${ACCOUNT}${accountId}#CONTACT-CHANGES` }),
  /** A deleted contact leaves a tombstone for a while, so directories learn of the deletion. */
  contactTombstone: (accountId: string, contactId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `CONTACT-DELETED#${contactId}` }),
  /** gsi1: deleted contacts whose messages and files are still being purged (a restarted runtime resumes them). */
  pendingContactPurge: (deletedAt: string, accountId: string, contactId: string) => ({
    gsi1pk: 'CONTACT-PURGES',
    gsi1sk: `${deletedAt}#${accountId}#${contactId}`,
  }),
  pendingContactPurges: () => ({ gsi1pk: 'CONTACT-PURGES' }),
  /**
   * A connection's sends of one day (Brazil's, `YYYY-MM-DD`) for the worker's daily caps
   * (connectors/send-caps.ts): how many, and which contacts they opened a chat with. Kept 3 days.
   */
  sendDay: (accountId: string, serviceId: string, day: string): Key => ({ pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`, sk: `SEND-DAY#${day}` }),
  /**
   * A WhatsApp (API oficial) connection's message templates, in the connection's partition, by
   * Meta's template id: a connection has a few dozen, read whole with one Query (list, send).
   */
  messageTemplate: (accountId: string, serviceId: string, templateId: string): Key => ({
    pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`,
    sk: `TEMPLATE#${templateId}`,
  }),
  connectionTemplates: (accountId: string, serviceId: string) => ({ pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`, skPrefix: 'TEMPLATE#' }),
  /** A contact by (connection, channel id): lookup for every inbound message, and the uniqueness guard. */
  channelContact: (accountId: string, serviceId: string, idFromService: string): Key => ({
    pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`,
    sk: `CHANNEL-CONTACT#${idFromService}`,
  }),

  /** Messages of a contact; ids are ULIDs stamped with the message time, so the sort key orders by time. */
  message: (accountId: string, contactId: string, messageId: string): Key => ({
    pk: `${ACCOUNT}${accountId}#CONTACT#${contactId}`,
    sk: `MSG#${messageId}`,
  }),
  contactMessages: (accountId: string, contactId: string) => ({ pk: `${ACCOUNT}${accountId}#CONTACT#${contactId}`, skPrefix: 'MSG#' }),
  /**
   * A conversation's lifecycle timer (docs/conversation-lifecycle.md#timers), one per name, in the
   * contact's message partition (a contact's purge takes it along). gsi1: every due timer by due
   * time, over `timerShards` partitions chosen by the contact id, read by the minute poller.
   */
  conversationTimer: (accountId: string, contactId: string, name: string): Key => ({
    pk: `${ACCOUNT}${accountId}#CONTACT#${contactId}`,
    sk: `TIMER#${name}`,
  }),
  dueTimer: (shard: number, dueAt: string, accountId: string, contactId: string, name: string) => ({
    gsi1pk: `TIMERS#${shard}`,
    gsi1sk: `${dueAt}#${accountId}#${contactId}#${name}`,
  }),
  dueTimers: (shard: number) => ({ gsi1pk: `TIMERS#${shard}` }),
  /** A campaign (shared/db/campaigns.ts, ADR-0227), in its account's partition. */
  campaign: (accountId: string, campaignId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `CAMPAIGN#${campaignId}` }),
  accountCampaigns: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: 'CAMPAIGN#' }),
  /**
   * A campaign's recipients and lanes share a partition of the campaign's own. A recipient's sort
   * key orders its lane's sends: its connection, then those who wrote before (0) ahead of first
   * messages (1), then the contact (one recipient per contact and campaign).
   */
  campaignRecipient: (accountId: string, campaignId: string, serviceId: string, fresh: boolean, contactId: string): Key => ({
    pk: `${ACCOUNT}${accountId}#CAMPAIGN#${campaignId}`,
    sk: `R#${serviceId}#${fresh ? 1 : 0}#${contactId}`,
  }),
  campaignLaneRecipients: (accountId: string, campaignId: string, serviceId: string) => ({
    pk: `${ACCOUNT}${accountId}#CAMPAIGN#${campaignId}`,
    skPrefix: `R#${serviceId}#`,
  }),
  campaignRecipients: (accountId: string, campaignId: string) => ({ pk: `${ACCOUNT}${accountId}#CAMPAIGN#${campaignId}`, skPrefix: 'R#' }),
  /** One connection's share of a campaign; gsi1, sparse while it runs: by its next send, over `laneShards` partitions. */
  campaignLane: (accountId: string, campaignId: string, serviceId: string): Key => ({
    pk: `${ACCOUNT}${accountId}#CAMPAIGN#${campaignId}`,
    sk: `LANE#${serviceId}`,
  }),
  campaignLanes: (accountId: string, campaignId: string) => ({ pk: `${ACCOUNT}${accountId}#CAMPAIGN#${campaignId}`, skPrefix: 'LANE#' }),
  dueLane: (shard: number, nextAt: string, accountId: string, campaignId: string, serviceId: string) => ({
    gsi1pk: `CAMPAIGN-LANES#${shard}`,
    gsi1sk: `${nextAt}#${accountId}#${campaignId}#${serviceId}`,
  }),
  dueLanes: (shard: number) => ({ gsi1pk: `CAMPAIGN-LANES#${shard}` }),
  /** gsi1, sparse while a segment campaign's recipients are being written (the campaigns' poller prepares them). */
  preparingCampaign: (createdAt: string, accountId: string, campaignId: string) => ({
    gsi1pk: 'CAMPAIGNS-PREPARING',
    gsi1sk: `${createdAt}#${accountId}#${campaignId}`,
  }),
  preparingCampaigns: () => ({ gsi1pk: 'CAMPAIGNS-PREPARING' }),
  /**
   * A scheduled message (shared/db/scheduled-messages.ts), in the contact's message partition. gsi1,
   * sparse while it waits: its next occurrence by due time over `timerShards` partitions chosen by
   * the contact id, read by the timers' minute poller.
   */
  scheduledMessage: (accountId: string, contactId: string, id: string): Key => ({ pk: `${ACCOUNT}${accountId}#CONTACT#${contactId}`, sk: `SCHEDULED#${id}` }),
  contactScheduledMessages: (accountId: string, contactId: string) => ({ pk: `${ACCOUNT}${accountId}#CONTACT#${contactId}`, skPrefix: 'SCHEDULED#' }),
  dueScheduledMessage: (shard: number, dueAt: string, accountId: string, contactId: string, id: string) => ({
    gsi1pk: `SCHEDULED#${shard}`,
    gsi1sk: `${dueAt}#${accountId}#${contactId}#${id}`,
  }),
  dueScheduledMessages: (shard: number) => ({ gsi1pk: `SCHEDULED#${shard}` }),
  /** gsi2, sparse while it waits: the account's waiting schedules (moved to a new zone when the account's zone changes). */
  accountScheduledMessage: (accountId: string, contactId: string, id: string) => ({
    gsi2pk: `${ACCOUNT}${accountId}#SCHEDULED`,
    gsi2sk: `${contactId}#${id}`,
  }),
  accountScheduledMessages: (accountId: string) => ({ gsi2pk: `${ACCOUNT}${accountId}#SCHEDULED` }),
  /**
   * gsi1, sparse: a contact carries it while someone has it open (assigned, status open), so a
   * person's open conversations are counted with one Query (round-robin's cap).
   */
  openAssignment: (accountId: string, userId: string, contactId: string) => ({ gsi1pk: `OPEN#${accountId}#${userId}`, gsi1sk: contactId }),
  openAssignments: (accountId: string, userId: string) => ({ gsi1pk: `OPEN#${accountId}#${userId}` }),
  /** Who round-robin picked last in a department's queue (`none`: the queue of no department). */
  roundRobinTurn: (accountId: string, departmentId: string | null): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `ROUND-ROBIN#${departmentId ?? 'none'}` }),
  /**
   * Round-robin's assignments of the last minute in the whole account, under a version every
   * assignment moves (ADR-0221): they serialise, and count before the index shows them.
   */
  roundRobinLedger: (accountId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: 'ROUND-ROBIN-LEDGER' }),
  /**
   * What the lifecycle records for reports (a conversation started, its first answer, its
   * resolution), in a partition per account and month, by time: a report reads its period with
   * one Query per month.
   */
  conversationEvent: (accountId: string, at: string, contactId: string, kind: string): Key => ({
    pk: `${ACCOUNT}${accountId}#CONVERSATION-EVENTS#${at.slice(0, 7)}`,
    sk: `${at}#${contactId}#${kind}`,
  }),
  conversationEventsOf: (accountId: string, month: string) => ({ pk: `${ACCOUNT}${accountId}#CONVERSATION-EVENTS#${month}` }),
  /**
   * One local day of an account's reports (shared/db/report-days.ts, ADR-0234): the
   * day's figures rolled up from its conversation events, in the account's partition (its purge
   * takes them), sorted by date so a period is one Query.
   */
  reportDay: (accountId: string, date: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `REPORT-DAY#${date}` }),
  reportDaysOf: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: 'REPORT-DAY#' }),
  /** A conversation's 1-5 rating, by its protocol, in the account's partition (reports read them). */
  conversationRating: (accountId: string, protocol: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `RATING#${protocol}` }),
  /** A message by its channel id (acks, edits, redelivery), and the idempotency guard of inbound messages. */
  channelMessage: (accountId: string, serviceId: string, channelMessageId: string): Key => ({
    pk: `${ACCOUNT}${accountId}#SERVICE#${serviceId}`,
    sk: `CHANNEL-MSG#${channelMessageId}`,
  }),

  /**
   * The team inbox's catalogues (docs/product.md#team-inbox): departments, the tag palette, quick replies. Each is a
   * handful of items per account, read whole with one Query.
   */
  catalogueItem: (kind: CatalogueKind, accountId: string, id: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `${catalogueSk[kind]}${id}` }),
  catalogue: (kind: CatalogueKind, accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: catalogueSk[kind] }),
  /**
   * Uniqueness guard of a catalogue item's name inside its account (a department's or tag's name,
   * a quick reply's shortcut), folded: claimed with the item, moved on rename, freed on delete.
   */
  catalogueName: (kind: CatalogueKind, accountId: string, foldedName: string): Key => ({
    pk: `${ACCOUNT}${accountId}`,
    sk: `NAME#${catalogueSk[kind]}${foldedName}`,
  }),

  /** Uploaded files (the bytes are in the bucket under `fileObjectKey`). */
  file: (accountId: string, fileId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `FILE#${fileId}` }),

  /** Realtime connections of an account (fan-out), and each connection's own pointer (disconnect). */
  accountConnection: (accountId: string, connectionId: string): Key => ({ pk: `${ACCOUNT}${accountId}#WS`, sk: `CONN#${connectionId}` }),
  accountConnections: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}#WS`, skPrefix: 'CONN#' }),
  connection: (connectionId: string): Key => ({ pk: `WSCONN#${connectionId}`, sk: 'CONN' }),
  /**
   * A one-time ticket that opens one realtime connection (shared/db/ws-tickets.ts), by the SHA-256
   * of the ticket (the table never holds a usable ticket); spent by `$connect`, gone by TTL anyway.
   */
  wsTicket: (digest: string): Key => ({ pk: `WSTICKET#${digest}`, sk: 'TICKET' }),

  /**
   * An API token (shared/db/api-tokens.ts, ADR-0232) in its account's partition; found
   * by a caller's secret through its lookup item, keyed by the SHA-256 of the secret (the table never
   * holds a usable secret). Its audited calls live in a partition of the token's own, by time.
   */
  apiToken: (accountId: string, tokenId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `API-TOKEN#${tokenId}` }),
  accountApiTokens: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: 'API-TOKEN#' }),
  apiTokenLookup: (digest: string): Key => ({ pk: `API-TOKEN-HASH#${digest}`, sk: 'TOKEN' }),
  apiTokenCall: (accountId: string, tokenId: string, at: string, callId: string): Key => ({
    pk: `${ACCOUNT}${accountId}#API-TOKEN#${tokenId}`,
    sk: `CALL#${at}#${callId}`,
  }),
  apiTokenCalls: (accountId: string, tokenId: string) => ({ pk: `${ACCOUNT}${accountId}#API-TOKEN#${tokenId}`, skPrefix: 'CALL#' }),

  /**
   * An outbound webhook subscription (shared/db/webhooks.ts, ADR-0233), in its
   * account's partition; its deliveries (one per event and subscription: the retry queue's entry
   * and the log's line) beside it, by id (ULIDs: newest last), gone by TTL after 30 days. gsi1,
   * sparse while a delivery waits for an attempt: by its due time over `webhookShards` partitions.
   */
  webhookSubscription: (accountId: string, subscriptionId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `WEBHOOK#${subscriptionId}` }),
  accountWebhookSubscriptions: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: 'WEBHOOK#' }),
  webhookDelivery: (accountId: string, subscriptionId: string, deliveryId: string): Key => ({
    pk: `${ACCOUNT}${accountId}`,
    sk: `WEBHOOK-DELIVERY#${subscriptionId}#${deliveryId}`,
  }),
  webhookDeliveries: (accountId: string, subscriptionId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: `WEBHOOK-DELIVERY#${subscriptionId}#` }),
  dueWebhookDelivery: (shard: number, dueAt: string, accountId: string, subscriptionId: string, deliveryId: string) => ({
    gsi1pk: `WEBHOOK-DELIVERIES#${shard}`,
    gsi1sk: `${dueAt}#${accountId}#${subscriptionId}#${deliveryId}`,
  }),
  dueWebhookDeliveries: (shard: number) => ({ gsi1pk: `WEBHOOK-DELIVERIES#${shard}` }),

  /** Sliding-window rate logs: the recent hits of a scope and subject. */
  rate: (scope: string, subject: string): Key => ({
    pk: `RATE#${scope}#${subject}`,
    sk: 'LOG',
  }),
} as const;

/** The account id in an account partition key, or null. */
export function accountIdOf(pk: string): string | null {
  return pk.startsWith(ACCOUNT) ? (pk.slice(ACCOUNT.length).split('#')[0] ?? null) : null;
}

/** The bucket key of an uploaded file: always under its account. */
export function fileObjectKey(accountId: string, fileId: string, name: string): string {
  const safe =
    name
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '_')
      .slice(-100) || 'arquivo';
  return `accounts/${accountId}/files/${fileId}/${safe}`;
}

/** The bucket key of an account export's part or archive: under its account. */
export function exportObjectKey(accountId: string, exportId: string, name: string): string {
  return `accounts/${accountId}/exports/${exportId}/${name}`;
}

/** The bucket key of a contact import's file, its working state and its list of rows left out: under its account. */
export function importObjectKey(accountId: string, importId: string, name: string): string {
  return `accounts/${accountId}/imports/${importId}/${name}`;
}

/** Every object of an account in the bucket is under this prefix (files, avatars, exports). */
export function accountObjectPrefix(accountId: string): string {
  return `accounts/${accountId}/`;
}

/** The bucket key of a contact's avatar: under its account, one per (connection, channel id). */
export function avatarObjectKey(accountId: string, serviceId: string, idFromService: string): string {
  return `accounts/${accountId}/avatars/${serviceId}/${idFromService.replace(/[^\w.@-]+/g, '_')}.jpg`;
}

/** The bucket key of a contact list exported as CSV ('Exportar CSV', ADR-0226): under its account, one folder per export. */
export function contactCsvObjectKey(accountId: string, exportId: string): string {
  return `accounts/${accountId}/contact-lists/${exportId}/contatos.csv`;
}

/** The bucket key of an account's contact directory snapshot (shared/domain/contacts/contact-snapshot.ts). */
export function contactSnapshotObjectKey(accountId: string): string {
  return `accounts/${accountId}/directory/contacts.json.gz`;
}
