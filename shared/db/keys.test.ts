import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountIdOf, keys } from '#db/keys.ts';
import { createTableInput, tableShape } from '#db/table-definition.ts';

describe('key formats', () => {
  it('every account-scoped key starts with its account id', () => {
    const a = '01ACC';
    const scoped = [keys.account(a), keys.user(a, 'u1'), keys.userEmail(a, 'x@y.z'), keys.accountConnection(a, 'c1')];
    for (const key of scoped) expect(accountIdOf(key.pk)).toBe(a);
    expect(keys.accountUsers(a).pk).toBe(keys.user(a, 'u1').pk);
    expect(keys.user(a, 'u1').sk.startsWith(keys.accountUsers(a).skPrefix)).toBe(true);
  });

  it('a user without an account lives in a partition of its own, found by the same id', () => {
    expect(accountIdOf(keys.user(null, 'u1').pk)).toBeNull();
    expect(keys.user(null, 'u1')).not.toEqual(keys.user(null, 'u2'));
  });

  it('the e-mail index groups every user of an e-mail', () => {
    expect(keys.userByEmail('a@b.c', 'u1').gsi1pk).toBe(keys.usersByEmail('a@b.c').gsi1pk);
  });

  it('rate logs are one item per scope and subject', () => {
    expect(keys.rate('login', 'a@b.c')).not.toEqual(keys.rate('login', 'b@b.c'));
    expect(keys.rate('login', 'a@b.c')).not.toEqual(keys.rate('mail', 'a@b.c'));
  });
});

describe('table definition', () => {
  it('creates the keys, both indexes and the stream the stack declares', () => {
    const input = createTableInput('t');
    expect(input.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(input.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(tableShape.globalIndexes.map((g) => g.indexName));
    expect(input.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });
});

describe('ACCESS_PATTERNS.md', () => {
  // Each key function called with the placeholders the page uses; every key it writes must be on the page.
  const examples: Record<keyof typeof keys, unknown[][]> = {
    account: [['A']],
    accountSetting: [
      ['A', 'business-hours'],
      ['A', 'automations'],
      ['A', 'menu#S'],
    ],
    user: [
      ['A', 'U'],
      [null, 'U'],
    ],
    accountUsers: [['A']],
    userByEmail: [['E', 'U']],
    usersByEmail: [['E']],
    userById: [['U']],
    userEmail: [['A', 'E']],
    verifyCode: [['U']],
    resetCode: [['E']],
    revokedToken: [['<jti>']],
    service: [['A', 'S']],
    accountServices: [['A']],
    runningService: [['<type>', 'A', 'S']],
    runningServices: [['<type>']],
    connectionRecord: [
      ['A', 'S', '<channel>', '<KIND>'],
      ['A', 'S', '<channel>', '<KIND>', '<id>'],
    ],
    connectionRecords: [['A', 'S', '<channel>', '<KIND>']],
    channelRecord: [['<channel>', '<KIND>', '<id>']],
    channelClaim: [['<channel>', '<KIND>', '<id>']],
    outsideEvent: [['stripe', '<event id>']],
    billingCustomer: [['<customer id>']],
    billingProducts: [[]],
    sessionLease: [['S']],
    workerBeat: [['W']],
    workerBeats: [[]],
    contact: [['A', 'C']],
    accountContacts: [['A']],
    contactChange: [['A', '<table time>', 'C']],
    contactChanges: [['A']],
    contactTombstone: [['A', 'C']],
    channelContact: [['A', 'S', '<idFromService>']],
    sendDay: [['A', 'S', '<day>']],
    messageTemplate: [['A', 'S', '<template id>']],
    connectionTemplates: [['A', 'S']],
    message: [['A', 'C', 'M']],
    contactMessages: [['A', 'C']],
    conversationTimer: [['A', 'C', '<name>']],
    dueTimer: [[3, '<due>', 'A', 'C', '<name>']],
    dueTimers: [[3]],
    scheduledMessage: [['A', 'C', '<id>']],
    contactScheduledMessages: [['A', 'C']],
    dueScheduledMessage: [[3, '<due>', 'A', 'C', '<id>']],
    dueScheduledMessages: [[3]],
    accountScheduledMessage: [['A', 'C', '<id>']],
    accountScheduledMessages: [['A']],
    conversationRating: [['A', '<protocol>']],
    conversationEvent: [['A', '2026-11-27T12:00:00.000Z', 'C', '<kind>']],
    conversationEventsOf: [['A', '2026-11']],
    reportDay: [['A', '2026-11-27']],
    reportDaysOf: [['A']],
    openAssignment: [['A', 'U', 'C']],
    openAssignments: [['A', 'U']],
    roundRobinTurn: [
      ['A', 'D'],
      ['A', null],
    ],
    roundRobinLedger: [['A']],
    campaign: [['A', 'K']],
    accountCampaigns: [['A']],
    campaignRecipient: [
      ['A', 'K', 'S', false, 'C'],
      ['A', 'K', 'S', true, 'C'],
    ],
    campaignLaneRecipients: [['A', 'K', 'S']],
    campaignRecipients: [['A', 'K']],
    campaignLane: [['A', 'K', 'S']],
    campaignLanes: [['A', 'K']],
    dueLane: [[3, '<next>', 'A', 'K', 'S']],
    dueLanes: [[3]],
    webhookSubscription: [['A', 'W']],
    accountWebhookSubscriptions: [['A']],
    webhookDelivery: [['A', 'W', 'D']],
    webhookDeliveries: [['A', 'W']],
    dueWebhookDelivery: [[3, '<due>', 'A', 'W', 'D']],
    dueWebhookDeliveries: [[3]],
    preparingCampaign: [['<createdAt>', 'A', 'K']],
    preparingCampaigns: [[]],
    channelMessage: [['A', 'S', '<channelMessageId>']],
    file: [['A', 'F']],
    accountConnection: [['A', '<connectionId>']],
    accountConnections: [['A']],
    connection: [['<connectionId>']],
    wsTicket: [['<sha256 of the ticket>']],
    apiToken: [['A', 'T']],
    accountApiTokens: [['A']],
    apiTokenLookup: [['<sha256 of the secret>']],
    apiTokenCall: [['A', 'T', '<at>', '<call id>']],
    apiTokenCalls: [['A', 'T']],
    rate: [['<scope>', '<subject>']],
    signupEmail: [['<email>']],
    accountDeletion: [['A']],
    accountExport: [['A', 'X']],
    pendingAccountExport: [['<createdAt>', 'A', 'X']],
    pendingAccountExports: [[]],
    contactImport: [['A', 'I']],
    accountContactImports: [['A']],
    pendingContactImport: [['<createdAt>', 'A', 'I']],
    pendingContactImports: [[]],
    pendingContactPurge: [['<deletedAt>', 'A', 'C']],
    pendingContactPurges: [[]],
    pendingAccountDeletion: [['<requestedAt>', 'A']],
    pendingAccountDeletions: [[]],
    accountPartition: [['A']],
    contactPartition: [['A', 'C']],
    servicePartition: [['A', 'S']],
    catalogueItem: [
      ['department', 'A', 'D'],
      ['tag', 'A', 'T'],
      ['quickReply', 'A', 'Q'],
    ],
    catalogue: [
      ['department', 'A'],
      ['tag', 'A'],
      ['quickReply', 'A'],
    ],
    catalogueName: [
      ['department', 'A', '<folded name>'],
      ['tag', 'A', '<folded name>'],
      ['quickReply', 'A', '<folded name>'],
    ],
  };

  it('shows every key that keys.ts writes, as keys.ts writes it', () => {
    const page = readFileSync(join(import.meta.dirname, 'ACCESS_PATTERNS.md'), 'utf8');
    expect(Object.keys(examples).sort()).toEqual(Object.keys(keys).sort());
    const missing = Object.entries(examples).flatMap(([name, calls]) =>
      calls.flatMap((args) => {
        const key = (keys[name as keyof typeof keys] as (...a: unknown[]) => Record<string, string>)(...args);
        return Object.values(key)
          .filter((value) => !page.includes(`\`${value}\``))
          .map((value) => `keys.${name}: ${value}`);
      }),
    );
    expect(missing).toEqual([]);
  });
});
