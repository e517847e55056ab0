/**
 * Cost per tenant (ADR-0206): what one business costs the operator a month, from the figures the
 * benchmarks measured (`measuredFrom`, read from bench/tenants-*.json) times a region's prices
 * (`./prices.ts` plus `extraPrices` below), for a tenant profile. Pure arithmetic, no CDK: the
 * floor and the worker task's price come in as numbers (`scripts/cost-model.ts` takes them from the
 * synthesised template through `./model.ts`), so the unit test can feed hand-checked cases.
 */
import type { Price, PriceTable } from './prices.ts';

const HOURS_A_MONTH = 730;

/** The per-message figures one or more `npm run bench:tenants` runs measured, pooled. */
export interface MeasuredFigures {
  /** The files the figures come from, with each run's date. */
  readonly sources: readonly string[];
  /** Messages in the runs (sends and inbound messages). */
  readonly messages: number;
  readonly sends: number;
  /** API requests through the HTTP front (every operation but the inbound calls, which the worker makes straight into the domain). */
  readonly httpRequests: number;
  /** DynamoDB request units and calls billed by the capacity meter over the runs (API, stream consumers, queue consumers). */
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly dynamoCalls: number;
  /** WebSocket posts per message per open client, on the accounts that had clients. */
  readonly webSocketPostsPerMessagePerTab: number;
  /** Mean size of a post (a WebSocket message is billed per 32 KB). */
  readonly webSocketBytesPerPost: number;
  /** Warm p50 of the API operations on the local runtime, weighted by their counts (a proxy for a warm Lambda's billed duration). */
  readonly httpDurationMs: number;
  /**
   * What one sign-in costs in DynamoDB (measured alone on the meter before a run's clock), or null
   * when no run measured it. The sign-ins inside the runs (every account touched for the first
   * time signs in) are taken out of the units and calls above with it: a tenant's staff sign in a
   * few times a month, not once every few messages as in the bench.
   */
  readonly signIn: { readonly readUnits: number; readonly writeUnits: number; readonly calls: number; readonly takenOut: number } | null;
}

/** One bench:tenants result file, only the fields the model reads. */
export interface TenantsBenchFile {
  readonly date: string;
  readonly run: {
    readonly requests: number;
    readonly active: number;
    /** Sign-ins timed; since `signInUnits` was measured, only those inside the run (before, the active accounts' too). */
    readonly signIn: { readonly n: number } | null;
    readonly signInUnits?: { readonly signIns: number; readonly calls: number; readonly readUnits: number; readonly writeUnits: number };
    readonly operations: Record<
      string,
      { readonly warm: { readonly n: number; readonly p50: number }; readonly cold: { readonly n: number; readonly p50: number } }
    >;
    readonly dynamo: { readonly totals: { readonly calls: number; readonly readUnits: number; readonly writeUnits: number } };
    readonly webSocket: {
      readonly clients: number;
      readonly onTenants: number;
      readonly posts: number;
      readonly postBytes: number;
      readonly messages: number;
      readonly messagesOnSocketTenants: number;
    };
  };
}

const count = (op: { warm: { n: number }; cold: { n: number } } | undefined) => (op ? op.warm.n + op.cold.n : 0);

/** Pools the runs' figures: sums of counts and units, so a longer run weighs more. */
export function measuredFrom(files: readonly { readonly name: string; readonly data: TenantsBenchFile }[]): MeasuredFigures {
  if (files.length === 0) throw new Error('No bench:tenants result file: run `npm run bench:tenants` first');
  let messages = 0;
  let sends = 0;
  let httpRequests = 0;
  let readUnits = 0;
  let writeUnits = 0;
  let dynamoCalls = 0;
  let posts = 0;
  let postBytes = 0;
  let tabMessages = 0;
  let durationWeight = 0;
  let durationSum = 0;
  // What one sign-in costs, pooled over the runs that measured it alone.
  const alone = { signIns: 0, calls: 0, readUnits: 0, writeUnits: 0 };
  for (const { data } of files) {
    const u = data.run.signInUnits;
    if (!u?.signIns) continue;
    alone.signIns += u.signIns;
    alone.calls += u.calls;
    alone.readUnits += u.readUnits;
    alone.writeUnits += u.writeUnits;
  }
  const signIn = alone.signIns
    ? { readUnits: alone.readUnits / alone.signIns, writeUnits: alone.writeUnits / alone.signIns, calls: alone.calls / alone.signIns, takenOut: 0 }
    : null;
  for (const { data } of files) {
    const { run } = data;
    const send = count(run.operations.send);
    const inbound = count(run.operations.inbound);
    messages += send + inbound;
    sends += send;
    httpRequests += run.requests - inbound;
    // The sign-ins inside the run (an older file counted the active accounts', before the clock, too).
    const inRun = signIn ? Math.max(0, (run.signIn?.n ?? 0) - (run.signInUnits ? 0 : run.active)) : 0;
    if (signIn) signIn.takenOut += inRun;
    readUnits += run.dynamo.totals.readUnits - inRun * (signIn?.readUnits ?? 0);
    writeUnits += run.dynamo.totals.writeUnits - inRun * (signIn?.writeUnits ?? 0);
    dynamoCalls += run.dynamo.totals.calls - inRun * (signIn?.calls ?? 0);
    posts += run.webSocket.posts;
    postBytes += run.webSocket.postBytes;
    tabMessages += run.webSocket.messagesOnSocketTenants * (run.webSocket.clients / run.webSocket.onTenants);
    for (const [name, op] of Object.entries(run.operations)) {
      if (name === 'inbound') continue;
      durationWeight += op.warm.n;
      durationSum += op.warm.n * op.warm.p50;
    }
  }
  return {
    sources: files.map((f) => `${f.name} (${f.data.date.slice(0, 16)}Z)`),
    messages,
    sends,
    httpRequests,
    readUnits,
    writeUnits,
    dynamoCalls,
    webSocketPostsPerMessagePerTab: posts / tabMessages,
    webSocketBytesPerPost: postBytes / posts,
    httpDurationMs: durationSum / durationWeight,
    signIn,
  };
}

/** A tenant: what it has and what it does in a month. */
export interface TenantProfile {
  readonly name: string;
  readonly whatsappNumbers: number;
  readonly agents: number;
  /** Browser tabs open on the app during opening hours (agents with the inbox open). */
  readonly openTabs: number;
  readonly messagesPerDay: number;
  /** Share of messages carrying media (image, voice note, document). */
  readonly mediaShare: number;
  readonly contacts: number;
}

export const profiles: readonly TenantProfile[] = [
  { name: 'small', whatsappNumbers: 1, agents: 2, openTabs: 2, messagesPerDay: 100, mediaShare: 0.15, contacts: 1_000 },
  { name: 'medium', whatsappNumbers: 3, agents: 8, openTabs: 8, messagesPerDay: 1_000, mediaShare: 0.2, contacts: 10_000 },
  { name: 'large', whatsappNumbers: 15, agents: 25, openTabs: 25, messagesPerDay: 10_000, mediaShare: 0.25, contacts: 50_000 },
];

/** What the per-tenant figures assume beyond the measurements; every one is named in docs/cost.md. */
export interface TenantAssumptions {
  /** Days a month messages arrive (customers write on weekends too). */
  readonly messageDaysPerMonth: number;
  /** Share of messages that are inbound (the bench ran about half and half). */
  readonly inboundShare: number;
  /** Hours a day and days a month the tabs stay open. */
  readonly openHoursPerDay: number;
  readonly openDaysPerMonth: number;
  /** Sign-ins per agent a month (one each working day: an upper bound, a session outlasts a day). */
  readonly signInsPerAgentPerMonth: number;
  /** Memory of the API and stream functions (the template's 512 MB). */
  readonly functionMemoryMb: number;
  /** Stream-router invocations per message: an inbound message 1; an outbound one 3 (new message, sent mark, hand-over mark). Counted from the code (./model.ts). */
  readonly routerInvocationsPerInbound: number;
  readonly routerInvocationsPerOutbound: number;
  /** Billed ms of a router invocation, plus per WebSocket post it makes (posts are sent one by one). */
  readonly routerMs: number;
  readonly routerMsPerPost: number;
  /** WhatsApp sends a second receipt (read) after the delivery one the bench's channel double acked: extra units, router call and posts per outbound message, counted from the code (./model.ts). */
  readonly extraReceiptReadUnits: number;
  readonly extraReceiptWriteUnits: number;
  readonly extraReceiptPostsPerTab: number;
  /** SQS requests per outbound message on the worker's FIFO queue: send, receive, delete. */
  readonly sqsRequestsPerOutbound: number;
  /** Log bytes per Lambda invocation (Powertools JSON plus START/END/REPORT). */
  readonly logBytesPerInvocation: number;
  /** Share of invocations X-Ray records (the default rule's 5 %; the 1-a-second reservoir is fleet-wide, not per tenant). */
  readonly xraySampledShare: number;
  /** Stored bytes: a message item, a contact with its index entries. Storage is the level after `retentionMonths` of messages. */
  readonly messageItemBytes: number;
  readonly contactItemBytes: number;
  readonly retentionMonths: number;
  /** Mean media size (KB), and how often each is downloaded out of AWS (a browser's view, the upload to WhatsApp for outbound ones). */
  readonly mediaKb: number;
  readonly mediaDownloadsPerMedia: number;
  readonly mediaGetsPerMedia: number;
}

export const tenantAssumptions: TenantAssumptions = {
  messageDaysPerMonth: 30,
  inboundShare: 0.5,
  openHoursPerDay: 10,
  openDaysPerMonth: 26,
  signInsPerAgentPerMonth: 26,
  functionMemoryMb: 512,
  routerInvocationsPerInbound: 1,
  routerInvocationsPerOutbound: 3,
  routerMs: 60,
  routerMsPerPost: 3,
  extraReceiptReadUnits: 3,
  extraReceiptWriteUnits: 4,
  extraReceiptPostsPerTab: 2,
  sqsRequestsPerOutbound: 3,
  logBytesPerInvocation: 1500,
  xraySampledShare: 0.05,
  messageItemBytes: 1024,
  contactItemBytes: 2048,
  retentionMonths: 12,
  mediaKb: 200,
  mediaDownloadsPerMedia: 1.5,
  mediaGetsPerMedia: 2,
};

/** Prices the tenant model needs that ./prices.ts does not have. Not fetched: written from memory, like ./prices.ts. */
export interface ExtraPrices {
  readonly dataTransferOutGb: Price;
  readonly logsStorageGbMonth: Price;
}

const p = (usd: number, unit: string, source: string, confidence: Price['confidence'] = 'list'): Price => ({ usd, unit, source, confidence });

export const extraPrices: Record<'us-east-1' | 'sa-east-1', ExtraPrices> = {
  'us-east-1': {
    dataTransferOutGb: p(0.09, 'GB', 'EC2/S3 data transfer out to the internet, first 10 TB (first 100 GB a month free, not counted)'),
    logsStorageGbMonth: p(0.03, 'GB-month', 'CloudWatch Logs storage (archived)'),
  },
  'sa-east-1': {
    dataTransferOutGb: p(0.15, 'GB', 'EC2/S3 data transfer out to the internet, São Paulo, first 10 TB', 'check'),
    logsStorageGbMonth: p(0.045, 'GB-month', 'CloudWatch Logs storage, São Paulo', 'check'),
  },
};

/** What drives a line: messages (linear in them), tabs (open browsers), stored data, or WhatsApp sessions. */
export type Driver = 'messages' | 'tabs' | 'storage' | 'sessions';

export interface TenantLine {
  readonly service: string;
  readonly quantity: string;
  readonly driver: Driver;
  /** Whether the quantity rests on a bench measurement or on an assumption. */
  readonly basis: 'measured' | 'mixed' | 'assumed';
  readonly usd: number;
}

export interface TenantCost {
  readonly profile: TenantProfile;
  readonly region: string;
  readonly messagesPerMonth: number;
  readonly lines: readonly TenantLine[];
  readonly total: number;
}

/** The worker fleet's price, from the template: one task's month and its public address, and the sessions a task holds. */
export interface FleetPrice {
  readonly taskMonthUsd: number;
  readonly ipv4MonthUsd: number;
  readonly sessionsPerTask: number;
}

/** A tenant's variable monthly cost at a region's prices (the floor excluded). */
export function tenantCost(
  profile: TenantProfile,
  measured: MeasuredFigures,
  price: PriceTable,
  extra: ExtraPrices,
  fleet: FleetPrice,
  a: TenantAssumptions = tenantAssumptions,
): TenantCost {
  const messages = profile.messagesPerDay * a.messageDaysPerMonth;
  const inbound = messages * a.inboundShare;
  const outbound = messages - inbound;
  const perMessage = (n: number) => n / measured.messages;
  const tabs = profile.openTabs;

  // The API requests that come with a message, at the bench's mix (lists, searches, message pages, the send).
  const httpRequests = messages * perMessage(measured.httpRequests);
  // The staff's sign-ins, apart from the messages (their units were taken out of the per-message figures).
  const signIns = profile.agents * a.signInsPerAgentPerMonth;
  const readUnits = messages * perMessage(measured.readUnits) + outbound * a.extraReceiptReadUnits + signIns * (measured.signIn?.readUnits ?? 0);
  const writeUnits = messages * perMessage(measured.writeUnits) + outbound * a.extraReceiptWriteUnits + signIns * (measured.signIn?.writeUnits ?? 0);
  const postsPerTab = messages * measured.webSocketPostsPerMessagePerTab + outbound * a.extraReceiptPostsPerTab;
  const posts = postsPerTab * tabs;
  const postsBilled = posts * Math.max(1, Math.ceil(measured.webSocketBytesPerPost / 32_768));

  // Each outbound message's second receipt is one more router call.
  const routerCalls = inbound * a.routerInvocationsPerInbound + outbound * (a.routerInvocationsPerOutbound + 1);
  const routerPostsPerCall = posts / routerCalls;
  const gbSeconds =
    (a.functionMemoryMb / 1024) *
    ((httpRequests * measured.httpDurationMs) / 1000 + (routerCalls * (a.routerMs + a.routerMsPerPost * routerPostsPerCall)) / 1000);
  const invocations = httpRequests + routerCalls;
  const logGb = (invocations * a.logBytesPerInvocation) / 1e9;

  const mediaMessages = messages * profile.mediaShare;
  const mediaGbMonth = (mediaMessages * a.mediaKb) / 1024 / 1024;
  const tableGb = (messages * a.retentionMonths * a.messageItemBytes + profile.contacts * a.contactItemBytes) / 1024 ** 3;
  const connectionMinutes = tabs * a.openHoursPerDay * 60 * a.openDaysPerMonth;

  const lines: TenantLine[] = [
    {
      service: 'DynamoDB on-demand requests',
      quantity: `${fmt(writeUnits)} WRU, ${fmt(readUnits)} RRU`,
      driver: 'messages',
      basis: 'measured',
      usd: writeUnits * price.dynamoWriteRequestUnit.usd + readUnits * price.dynamoReadRequestUnit.usd,
    },
    {
      service: 'Lambda requests and GB-seconds',
      quantity: `${fmt(invocations)} invocations, ${fmt(gbSeconds)} GB-s`,
      driver: 'messages',
      basis: 'mixed',
      usd: invocations * price.lambdaRequest.usd + gbSeconds * price.lambdaArmGbSecond.usd,
    },
    {
      service: 'API Gateway HTTP API',
      quantity: `${fmt(httpRequests)} requests`,
      driver: 'messages',
      basis: 'measured',
      usd: httpRequests * price.httpApiRequest.usd,
    },
    {
      service: 'CloudFront and WAF requests (the API behind the distribution)',
      quantity: `${fmt(httpRequests)} requests`,
      driver: 'messages',
      basis: 'measured',
      usd: httpRequests * (price.cloudFrontHttpsRequest.usd + price.wafRequest.usd),
    },
    {
      service: 'API Gateway WebSocket messages',
      quantity: `${fmt(posts)} posts (${tabs} tabs)`,
      driver: 'messages',
      basis: 'measured',
      usd: postsBilled * price.webSocketMessage.usd,
    },
    {
      service: 'API Gateway WebSocket connection minutes',
      quantity: `${fmt(connectionMinutes)} min`,
      driver: 'tabs',
      basis: 'assumed',
      usd: connectionMinutes * price.webSocketConnectionMinute.usd,
    },
    {
      service: 'SQS FIFO (worker queue)',
      quantity: `${fmt(outbound * a.sqsRequestsPerOutbound)} requests`,
      driver: 'messages',
      basis: 'assumed',
      usd: outbound * a.sqsRequestsPerOutbound * price.sqsFifoRequest.usd,
    },
    {
      service: 'CloudWatch Logs ingestion and storage (1 month retention)',
      quantity: `${fmt(logGb * 1024)} MB`,
      driver: 'messages',
      basis: 'assumed',
      usd: logGb * (price.logsIngestGb.usd + extra.logsStorageGbMonth.usd),
    },
    {
      service: 'X-Ray traces (5 % sampled)',
      quantity: `${fmt(invocations * a.xraySampledShare)} traces`,
      driver: 'messages',
      basis: 'assumed',
      usd: invocations * a.xraySampledShare * price.xrayTraceRecorded.usd,
    },
    {
      service: 'S3 media requests and transfer out',
      quantity: `${fmt(mediaMessages)} media, ${fmt(mediaGbMonth * a.mediaDownloadsPerMedia)} GB out`,
      driver: 'messages',
      basis: 'assumed',
      usd:
        mediaMessages * (price.s3PutRequest.usd + a.mediaGetsPerMedia * price.s3GetRequest.usd) +
        mediaGbMonth * a.mediaDownloadsPerMedia * extra.dataTransferOutGb.usd,
    },
    {
      service: `DynamoDB storage and PITR (after ${a.retentionMonths} months)`,
      quantity: `${tableGb.toFixed(2)} GB`,
      driver: 'storage',
      basis: 'assumed',
      usd: tableGb * (price.dynamoStorageGbMonth.usd + price.dynamoPitrGbMonth.usd),
    },
    {
      service: `S3 media storage (after ${a.retentionMonths} months)`,
      quantity: `${(mediaGbMonth * a.retentionMonths).toFixed(1)} GB`,
      driver: 'storage',
      basis: 'assumed',
      usd: mediaGbMonth * a.retentionMonths * price.s3StandardGbMonth.usd,
    },
    {
      service: `WhatsApp worker fleet share (${profile.whatsappNumbers} of ${fleet.sessionsPerTask} sessions a task)`,
      quantity: `${profile.whatsappNumbers} session(s)`,
      driver: 'sessions',
      basis: 'mixed',
      usd: (profile.whatsappNumbers * (fleet.taskMonthUsd + fleet.ipv4MonthUsd)) / fleet.sessionsPerTask,
    },
  ];
  return { profile, region: price.region, messagesPerMonth: messages, lines, total: lines.reduce((n, l) => n + l.usd, 0) };
}

/** One worker task's month at a region's prices. */
export function fleetPrice(task: { vcpu: number; memoryGb: number; publicIp: boolean }, price: PriceTable, sessionsPerTask: number): FleetPrice {
  return {
    taskMonthUsd: (task.vcpu * price.fargateArmVcpuHour.usd + task.memoryGb * price.fargateArmGbHour.usd) * HOURS_A_MONTH,
    ipv4MonthUsd: task.publicIp ? price.publicIpv4Hour.usd * HOURS_A_MONTH : 0,
    sessionsPerTask,
  };
}

/** What a plan leaves a month: its price in USD, less the payment fee, the tenant's variable cost and its share of the floor. */
export function planMargin(input: {
  readonly priceBrl: number;
  readonly brlPerUsd: number;
  readonly feeShare: number;
  readonly feeFixedBrl: number;
  readonly variableUsd: number;
  readonly floorUsd: number;
  readonly tenants: number;
}): { readonly revenueUsd: number; readonly feeUsd: number; readonly floorShareUsd: number; readonly marginUsd: number } {
  const revenueUsd = input.priceBrl / input.brlPerUsd;
  const feeUsd = input.priceBrl > 0 ? (input.priceBrl * input.feeShare + input.feeFixedBrl) / input.brlPerUsd : 0;
  const floorShareUsd = input.floorUsd / input.tenants;
  return { revenueUsd, feeUsd, floorShareUsd, marginUsd: revenueUsd - feeUsd - input.variableUsd - floorShareUsd };
}

function fmt(n: number): string {
  if (n >= 100) return Math.round(n).toLocaleString('en-US');
  if (n >= 1) return n.toFixed(1);
  return n.toFixed(2);
}
