/**
 * The cost model: what in a synthesised template costs money (`inventoryOf`), what one message does
 * (`messageModels`, counted from the code paths), and the arithmetic (`costReport`) that multiplies
 * both by a region's prices (`./prices.ts`). Pure functions of template JSON, so the tests can feed a
 * tiny template; `scripts/cost.ts` feeds the real one and writes docs/cost.md.
 */
import { workerCapacity } from '../constructs/channel-worker.ts';
import { httpFunctionDescription } from '../constructs/http-function-groups.ts';
import type { PriceTable } from './prices.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are untyped JSON, read defensively below.
type Resource = { Type: string; Properties?: Record<string, any> };
export type TemplateJson = { Resources: Record<string, Resource> };

const HOURS_A_MONTH = 730;

export interface Inventory {
  /** Our functions (description `http/…`, `ws/…`, `streams/…`, `queues/…`) by description, with memory in MB. */
  readonly functions: ReadonlyMap<string, number>;
  /** CDK's own functions (custom resources that run at deploy time). */
  readonly deployTimeFunctions: number;
  readonly fargate: { readonly tasks: number; readonly vcpu: number; readonly memoryGb: number; readonly publicIp: boolean; readonly arm: boolean }[];
  readonly natGateways: number;
  readonly kmsKeys: number;
  readonly secrets: number;
  /** Alarms and the metrics each reads (1 for a plain alarm, the MetricStat count for metric math). */
  readonly alarms: readonly number[];
  readonly dashboards: number;
  readonly webAcls: number;
  readonly wafRules: number;
  readonly distributions: number;
  readonly sqsQueues: number;
  /** Queues a Lambda event source mapping long-polls (billed even when idle). */
  readonly polledQueues: number;
  readonly tables: number;
  readonly pointInTimeRecovery: boolean;
  readonly httpApis: number;
  readonly webSocketApis: number;
  readonly logGroups: number;
}

const ofType = (templates: readonly TemplateJson[], type: string) => templates.flatMap((t) => Object.values(t.Resources).filter((r) => r.Type === type));

/** Counts what costs money in the given templates (the main stack with nested stacks merged, and the edge stack). */
export function inventoryOf(...templates: TemplateJson[]): Inventory {
  const functions = new Map<string, number>();
  let deployTimeFunctions = 0;
  for (const fn of ofType(templates, 'AWS::Lambda::Function')) {
    const description = String(fn.Properties?.Description ?? '');
    if (/^(http|ws|streams|queues|schedules)\//.test(description)) functions.set(description, Number(fn.Properties?.MemorySize ?? 128));
    else deployTimeFunctions++;
  }
  const tasks = new Map(templates.flatMap((t) => Object.entries(t.Resources).filter(([, r]) => r.Type === 'AWS::ECS::TaskDefinition')) as [string, Resource][]);
  const fargate = ofType(templates, 'AWS::ECS::Service').map((service) => {
    const ref = service.Properties?.TaskDefinition?.Ref as string;
    const task = tasks.get(ref);
    if (!task) throw new Error(`Service's task definition ${ref} is not in the templates`);
    return {
      tasks: Number(service.Properties?.DesiredCount ?? 1),
      vcpu: Number(task.Properties?.Cpu) / 1024,
      memoryGb: Number(task.Properties?.Memory) / 1024,
      publicIp: service.Properties?.NetworkConfiguration?.AwsvpcConfiguration?.AssignPublicIp === 'ENABLED',
      arm: task.Properties?.RuntimePlatform?.CpuArchitecture === 'ARM64',
    };
  });
  const alarms = ofType(templates, 'AWS::CloudWatch::Alarm').map((alarm) =>
    Array.isArray(alarm.Properties?.Metrics) ? alarm.Properties.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).length : 1,
  );
  const webAcls = ofType(templates, 'AWS::WAFv2::WebACL');
  const tables = [...ofType(templates, 'AWS::DynamoDB::GlobalTable'), ...ofType(templates, 'AWS::DynamoDB::Table')];
  const pitr = tables.some((t) =>
    [
      t.Properties?.PointInTimeRecoverySpecification,
      ...(t.Properties?.Replicas ?? []).map((r: { PointInTimeRecoverySpecification?: unknown }) => r.PointInTimeRecoverySpecification),
    ].some((s) => s?.PointInTimeRecoveryEnabled === true),
  );
  return {
    functions,
    deployTimeFunctions,
    fargate,
    natGateways: ofType(templates, 'AWS::EC2::NatGateway').length,
    kmsKeys: ofType(templates, 'AWS::KMS::Key').length,
    secrets: ofType(templates, 'AWS::SecretsManager::Secret').length,
    alarms,
    dashboards: ofType(templates, 'AWS::CloudWatch::Dashboard').length,
    webAcls: webAcls.length,
    wafRules: webAcls.reduce((n, acl) => n + (acl.Properties?.Rules?.length ?? 0), 0),
    distributions: ofType(templates, 'AWS::CloudFront::Distribution').length,
    sqsQueues: ofType(templates, 'AWS::SQS::Queue').length,
    polledQueues: ofType(templates, 'AWS::Lambda::EventSourceMapping').filter((m) => JSON.stringify(m.Properties?.EventSourceArn ?? '').includes('Queue'))
      .length,
    tables: tables.length,
    pointInTimeRecovery: pitr,
    httpApis: ofType(templates, 'AWS::ApiGatewayV2::Api').filter((a) => a.Properties?.ProtocolType === 'HTTP').length,
    webSocketApis: ofType(templates, 'AWS::ApiGatewayV2::Api').filter((a) => a.Properties?.ProtocolType === 'WEBSOCKET').length,
    logGroups: ofType(templates, 'AWS::Logs::LogGroup').length,
  };
}

/** What one message does, in billed units. Counted from the code paths named in `source`. */
export interface MessageModel {
  readonly title: string;
  readonly source: string;
  /** Lambda invocations by function description, each with the assumed billed duration in ms. */
  readonly invocations: readonly { readonly fn: string; readonly ms: number }[];
  readonly httpRequests: number;
  /** Requests through CloudFront (and so the WAF). */
  readonly edgeRequests: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly sqsRequests: number;
  /** WebSocket messages per open browser of the account. */
  readonly webSocketMessagesPerBrowser: number;
}

/** Assumptions the per-message and per-tenant figures rest on; change them here. */
export const assumptions = {
  /** Browsers (staff tabs) open on an account while messages arrive. */
  browsersPerAccount: 2,
  /** Hours a day staff keep the app open, days a month. */
  openHoursPerDay: 9,
  openDaysPerMonth: 22,
  /** A tenant's stored data (account, users, contacts, messages): 1 KB items, 50,000 of them after a year. */
  tenantTableGb: 0.05,
  /** Media a tenant keeps (GB). */
  tenantMediaGb: 1,
  /** Log lines per invocation (Powertools JSON plus Lambda's START/END/REPORT), bytes. */
  logBytesPerInvocation: 1500,
  /** Custom metrics (EMF) that exist once there is traffic: 4 names × channel/source values. */
  customMetrics: 8,
  /** The worker image in ECR, GB. */
  imageGb: 0.1,
  /** Long-poll receives an idle Lambda SQS poller makes: 5 pollers × 3 a minute (20 s waits). */
  idlePollsPerQueueMonth: 5 * 3 * 60 * HOURS_A_MONTH,
  /** The worker's own long polling of its queue: one loop per task, 20 s waits. */
  workerPollsPerTaskMonth: 3 * 60 * HOURS_A_MONTH,
};

/**
 * One message each way on a Telegram connection, text only, an existing contact, one browser per
 * `browsersPerAccount`. Durations are guesses for warm 512 MB functions (no measurement in the cloud
 * yet); DynamoDB units assume items under 1 KB written and 4 KB read, strongly consistent reads.
 */
export const messageModels: readonly MessageModel[] = [
  {
    title: 'Inbound (Telegram webhook)',
    source:
      'functions/webhooks/telegram.ts → shared/domain/messages/inbound.ts receiveMessage → record-message.ts; stream → the realtime router (functions/streams/router.ts) → fanout',
    invocations: [
      { fn: httpFunctionDescription('../webhooks/telegram'), ms: 150 },
      { fn: 'streams/realtime-router', ms: 80 },
    ],
    httpRequests: 1,
    edgeRequests: 0,
    // hook item, update-id guard, channel-id guard, contact by channel id, contact; fanout: the account's connections.
    readUnits: 6,
    // transaction of channel guard + message + contact (2 units each), contact's gsi2 entry moved
    // (delete + put), the update-id event guard.
    writeUnits: 3 * 2 + 2 + 1,
    sqsRequests: 0,
    // message.CREATED and contact.UPDATED.
    webSocketMessagesPerBrowser: 2,
  },
  {
    title: 'Outbound (staff reply, Telegram)',
    source:
      'functions/http/messages/send-message.ts → send-message.ts → record-message.ts; stream → the realtime router: dispatch-outbound (SQS FIFO) and fanout side by side → functions/queues/send-outbound.ts dispatchQueued → claimHandOver, recordSent, refreshLastMessage; the router (fanout) twice more',
    invocations: [
      { fn: httpFunctionDescription('messages/send-message'), ms: 120 },
      // The new message's records: one router call runs the dispatcher and the fan-out side by side.
      { fn: 'streams/realtime-router', ms: 90 },
      { fn: 'queues/send-outbound', ms: 300 },
      { fn: 'streams/realtime-router', ms: 80 },
      // The hand-over mark's change: fanout reads it and posts nothing.
      { fn: 'streams/realtime-router', ms: 20 },
    ],
    httpRequests: 1,
    edgeRequests: 1,
    // session check, contact, service; dispatcher: service; consumer: message, service, contact, message again; fanout: connections twice.
    readUnits: 2 + 2 + 1 + 4 + 2,
    // transaction message + contact (2 each) and gsi2 move; the hand-over mark (1); recordSent (1); refreshLastMessage (1 + gsi2 move).
    writeUnits: 2 * 2 + 2 + 1 + 1 + 1 + 2,
    // SendMessageBatch, DeleteMessageBatch (the receive is the poller's).
    sqsRequests: 2,
    // message.CREATED, contact.UPDATED, then message.UPDATED (ack 1), contact.UPDATED.
    webSocketMessagesPerBrowser: 4,
  },
  {
    title: 'WhatsApp delivery or read receipt (each)',
    source: 'channel worker → inbound.ts receiveAck → moveAck, refreshLastMessage; stream → the realtime router → fanout',
    invocations: [{ fn: 'streams/realtime-router', ms: 80 }],
    httpRequests: 0,
    edgeRequests: 0,
    // channel-id guard, message; fanout: connections.
    readUnits: 3,
    // moveAck (1), contact's last message (1 + gsi2 move).
    writeUnits: 1 + 1 + 2,
    sqsRequests: 0,
    webSocketMessagesPerBrowser: 2,
  },
];

export interface Line {
  readonly item: string;
  readonly quantity: string;
  readonly usd: number;
}

export interface CostReport {
  readonly region: string;
  readonly floor: readonly Line[];
  readonly floorTotal: number;
  readonly idleTenant: readonly Line[];
  readonly idleTenantTotal: number;
  readonly perThousand: readonly { readonly title: string; readonly lines: readonly Line[]; readonly total: number }[];
  readonly perSession: readonly Line[];
  readonly perSessionTotal: number;
}

const sum = (lines: readonly Line[]) => lines.reduce((n, l) => n + l.usd, 0);

/** The monthly figures of an inventory at a region's prices. */
export function costReport(inventory: Inventory, price: PriceTable, a = assumptions): CostReport {
  const tasks = inventory.fargate.reduce((n, s) => n + s.tasks, 0);
  const taskMonth = (s: Inventory['fargate'][number]) => (s.vcpu * price.fargateArmVcpuHour.usd + s.memoryGb * price.fargateArmGbHour.usd) * HOURS_A_MONTH;
  const alarmMetrics = inventory.alarms.reduce((n, m) => n + m, 0);
  const floor: Line[] = [
    ...inventory.fargate.map((s) => ({
      item: `Fargate${s.arm ? ' (arm64)' : ''}: ${s.vcpu} vCPU, ${s.memoryGb} GB`,
      quantity: `${s.tasks} task(s) × ${HOURS_A_MONTH} h`,
      usd: s.tasks * taskMonth(s),
    })),
    {
      item: 'Public IPv4 addresses (worker tasks)',
      quantity: `${inventory.fargate.filter((s) => s.publicIp).reduce((n, s) => n + s.tasks, 0)}`,
      usd: inventory.fargate.filter((s) => s.publicIp).reduce((n, s) => n + s.tasks, 0) * price.publicIpv4Hour.usd * HOURS_A_MONTH,
    },
    { item: 'NAT gateways', quantity: `${inventory.natGateways}`, usd: inventory.natGateways * price.natGatewayHour.usd * HOURS_A_MONTH },
    { item: 'KMS keys', quantity: `${inventory.kmsKeys}`, usd: inventory.kmsKeys * price.kmsKeyMonth.usd },
    { item: 'Secrets Manager secrets', quantity: `${inventory.secrets}`, usd: inventory.secrets * price.secretMonth.usd },
    {
      item: 'CloudWatch alarms (metric math billed per metric)',
      quantity: `${inventory.alarms.length} alarms, ${alarmMetrics} metrics`,
      usd: alarmMetrics * price.alarmMetricMonth.usd,
    },
    { item: 'CloudWatch dashboards', quantity: `${inventory.dashboards}`, usd: inventory.dashboards * price.dashboardMonth.usd },
    {
      item: 'WAF web ACL and rules',
      quantity: `${inventory.webAcls} ACL, ${inventory.wafRules} rules`,
      usd: inventory.webAcls * price.wafWebAclMonth.usd + inventory.wafRules * price.wafRuleMonth.usd,
    },
    {
      item: 'SQS long polling while idle (Lambda pollers, worker loop)',
      quantity: `${inventory.polledQueues} polled queue(s), ${tasks} worker loop(s)`,
      usd: (inventory.polledQueues * a.idlePollsPerQueueMonth + tasks * a.workerPollsPerTaskMonth) * price.sqsFifoRequest.usd,
    },
    { item: 'Custom metrics (EMF), once there is traffic', quantity: `${a.customMetrics}`, usd: a.customMetrics * price.customMetricMonth.usd },
    { item: 'ECR image storage', quantity: `${a.imageGb} GB`, usd: a.imageGb * price.ecrStorageGbMonth.usd },
  ];
  const connectionMinutes = a.browsersPerAccount * a.openHoursPerDay * 60 * a.openDaysPerMonth;
  const idleTenant: Line[] = [
    {
      item: 'WebSocket connection minutes',
      quantity: `${a.browsersPerAccount} browsers × ${a.openHoursPerDay} h × ${a.openDaysPerMonth} days`,
      usd: connectionMinutes * price.webSocketConnectionMinute.usd,
    },
    {
      item: `DynamoDB storage${inventory.pointInTimeRecovery ? ' and PITR' : ''}`,
      quantity: `${a.tenantTableGb} GB`,
      usd: a.tenantTableGb * (price.dynamoStorageGbMonth.usd + (inventory.pointInTimeRecovery ? price.dynamoPitrGbMonth.usd : 0)),
    },
    { item: 'S3 media storage', quantity: `${a.tenantMediaGb} GB`, usd: a.tenantMediaGb * price.s3StandardGbMonth.usd },
  ];
  const perThousand = messageModels.map((model) => {
    const gbSeconds = model.invocations.reduce((n, i) => {
      const memory = inventory.functions.get(i.fn);
      if (memory === undefined) throw new Error(`The message model names function ${i.fn}, which is not in the template`);
      return n + (memory / 1024) * (i.ms / 1000);
    }, 0);
    const n = 1000;
    const invocations = model.invocations.length;
    const lines: Line[] = [
      {
        item: 'Lambda (requests and GB-seconds)',
        quantity: `${invocations * n} invocations, ${(gbSeconds * n).toFixed(0)} GB-s`,
        usd: n * (invocations * price.lambdaRequest.usd + gbSeconds * price.lambdaArmGbSecond.usd),
      },
      { item: 'API Gateway HTTP API', quantity: `${model.httpRequests * n} requests`, usd: n * model.httpRequests * price.httpApiRequest.usd },
      {
        item: 'CloudFront and WAF requests',
        quantity: `${model.edgeRequests * n} requests`,
        usd: n * model.edgeRequests * (price.cloudFrontHttpsRequest.usd + price.wafRequest.usd),
      },
      {
        item: 'DynamoDB on-demand (incl. GSI; stream reads by Lambda are free)',
        quantity: `${model.writeUnits * n} WRU, ${model.readUnits * n} RRU`,
        usd: n * (model.writeUnits * price.dynamoWriteRequestUnit.usd + model.readUnits * price.dynamoReadRequestUnit.usd),
      },
      { item: 'SQS FIFO', quantity: `${model.sqsRequests * n} requests`, usd: n * model.sqsRequests * price.sqsFifoRequest.usd },
      {
        item: 'WebSocket messages',
        quantity: `${model.webSocketMessagesPerBrowser * a.browsersPerAccount * n} messages`,
        usd: n * model.webSocketMessagesPerBrowser * a.browsersPerAccount * price.webSocketMessage.usd,
      },
      {
        item: 'CloudWatch Logs ingestion',
        quantity: `${((invocations * n * a.logBytesPerInvocation) / 1e6).toFixed(1)} MB`,
        usd: ((n * invocations * a.logBytesPerInvocation) / 1e9) * price.logsIngestGb.usd,
      },
      {
        item: 'X-Ray traces (upper bound: every invocation sampled)',
        quantity: `${invocations * n} traces`,
        usd: n * invocations * price.xrayTraceRecorded.usd,
      },
    ];
    return { title: model.title, lines, total: sum(lines) };
  });
  const worker = inventory.fargate[0];
  // Sessions one task holds: the container's WORKER_CAPACITY for the task's memory.
  const sessions = worker ? workerCapacity(worker.memoryGb * 1024) : 1;
  const perSession: Line[] = worker
    ? [
        { item: `Fargate share (1/${sessions} of a task)`, quantity: `${worker.vcpu} vCPU, ${worker.memoryGb} GB`, usd: taskMonth(worker) / sessions },
        {
          item: 'Public IPv4 share',
          quantity: `1/${sessions}`,
          usd: worker.publicIp ? (price.publicIpv4Hour.usd * HOURS_A_MONTH) / sessions : 0,
        },
      ]
    : [];
  return {
    region: price.region,
    floor,
    floorTotal: sum(floor),
    idleTenant,
    idleTenantTotal: sum(idleTenant),
    perThousand,
    perSession,
    perSessionTotal: sum(perSession),
  };
}

const usd = (n: number) => (n >= 1 ? `$${n.toFixed(2)}` : n >= 0.01 ? `$${n.toFixed(3)}` : n > 0 ? `$${n.toFixed(4)}` : '$0');

/** The markdown docs/cost.md embeds: the inventory, then each region's figures side by side. */
export function renderCost(inventory: Inventory, reports: readonly CostReport[], pricesAsOf: string): string {
  const regions = reports.map((r) => r.region);
  const header = `| Item | Quantity | ${regions.join(' | ')} |\n| --- | --- | ${regions.map(() => '---:').join(' | ')} |`;
  const table = (rows: (r: CostReport) => readonly Line[], total: (r: CostReport) => number) => {
    const first = rows(reports[0]!);
    const lines = first.map((line, i) => `| ${line.item} | ${line.quantity} | ${reports.map((r) => usd(rows(r)[i]!.usd)).join(' | ')} |`);
    return [header, ...lines, `| **Total** | | ${reports.map((r) => `**${usd(total(r))}**`).join(' | ')} |`].join('\n');
  };
  const memories = [...new Set(inventory.functions.values())].sort((x, y) => x - y).join(', ');
  const parts = [
    `Prices as of ${pricesAsOf}; USD a month unless said, free tiers not subtracted.`,
    '',
    `**Counted in the synthesised template** (main stack with its nested stack, and the edge stack): ${inventory.functions.size} functions of ours (memory ${memories} MB) and ${inventory.deployTimeFunctions} deploy-time functions of CDK's; ${inventory.fargate.map((s) => `a Fargate service of ${s.tasks} task(s) at ${s.vcpu} vCPU / ${s.memoryGb} GB${s.arm ? ' arm64' : ''}${s.publicIp ? ' with a public IPv4' : ''}`).join(', ')}; ${inventory.natGateways} NAT gateways; ${inventory.kmsKeys} KMS key(s); ${inventory.secrets} secrets; ${inventory.alarms.length} alarms reading ${inventory.alarms.reduce((n, m) => n + m, 0)} metrics; ${inventory.dashboards} dashboard(s); ${inventory.webAcls} web ACL with ${inventory.wafRules} rules; ${inventory.distributions} CloudFront distribution(s); ${inventory.sqsQueues} SQS queues (${inventory.polledQueues} polled by Lambda); ${inventory.tables} DynamoDB table(s)${inventory.pointInTimeRecovery ? ' with PITR' : ''}; ${inventory.httpApis} HTTP API, ${inventory.webSocketApis} WebSocket API; ${inventory.logGroups} log groups.`,
    '',
    '### Fixed monthly floor (zero tenants)',
    '',
    table(
      (r) => r.floor,
      (r) => r.floorTotal,
    ),
    '',
    '### One idle tenant (no messages)',
    '',
    table(
      (r) => r.idleTenant,
      (r) => r.idleTenantTotal,
    ),
    '',
    ...reports[0]!.perThousand.flatMap((model, i) => [
      `### Per 1,000 messages: ${model.title}`,
      '',
      table(
        (r) => r.perThousand[i]!.lines,
        (r) => r.perThousand[i]!.total,
      ),
      '',
    ]),
    '### Per connected WhatsApp session (a month)',
    '',
    table(
      (r) => r.perSession,
      (r) => r.perSessionTotal,
    ),
  ];
  return parts.join('\n');
}

/** Replaces what sits between `<!-- cost:model -->` and `<!-- /cost:model -->` in a document. */
export function replaceSection(document: string, body: string): string {
  const start = '<!-- cost:model -->';
  const end = '<!-- /cost:model -->';
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`The document has no ${start} … ${end} section`);
  return `${document.slice(0, from + start.length)}\n${body}\n${document.slice(to)}`;
}
