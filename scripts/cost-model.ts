/**
 * `npm run bench:cost`: cost per tenant (ADR-0206). Reads the measured per-message figures from the
 * bench:tenants result files (bench/tenants-*.json), the worker's memory per session from
 * bench/whatsapp.json, the fixed floor and the worker task from the synthesised prod template
 * (infra/cost/model.ts, as `npm run cost` does), prices them for us-east-1 and sa-east-1
 * (infra/cost/prices.ts and the extra prices in infra/cost/tenant-model.ts) for three tenant
 * profiles, and rewrites the `<!-- cost:tenants -->` section of docs/cost.md. Runs no benchmark.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { proFallbackPriceCents, freePlan, proPlanDefaults } from '#contracts/plans.ts';
import { workerCapacity, workerScaling } from '../infra/constructs/channel-worker.ts';
import { costReport, inventoryOf } from '../infra/cost/model.ts';
import { PRICES_AS_OF, prices } from '../infra/cost/prices.ts';
import { synthTemplates } from '../infra/cost/synth.ts';
import {
  extraPrices,
  fleetPrice,
  type MeasuredFigures,
  measuredFrom,
  planMargin,
  profiles,
  type TenantCost,
  type TenantsBenchFile,
  tenantAssumptions,
  tenantCost,
} from '../infra/cost/tenant-model.ts';

const root = new URL('..', import.meta.url).pathname;
const regions = ['us-east-1', 'sa-east-1'] as const;

/** Assumed for the margins, not measured: the exchange rate and the card fee (Stripe Brazil's domestic card price, from memory). */
const money = { brlPerUsd: 5.5, feeShare: 0.0399, feeFixedBrl: 0.39 };
/** Tenants the floor is shared among in the margin table. */
const tenantCounts = [10, 100, 1000];

const benchFiles = readdirSync(join(root, 'bench'))
  .filter((name) => /^tenants-\d+\.json$/.test(name))
  .sort()
  .map((name) => ({ name: `bench/${name}`, data: JSON.parse(readFileSync(join(root, 'bench', name), 'utf8')) as TenantsBenchFile }));
const measured = measuredFrom(benchFiles);
const whatsapp = JSON.parse(readFileSync(join(root, 'bench/whatsapp.json'), 'utf8')) as { date: string; memoryPerSession: { rssMb: number } };

const inventory = inventoryOf(...synthTemplates({ stage: 'prod' }));
const worker = inventory.fargate[0];
if (!worker) throw new Error('The template has no worker service');
const capacity = workerCapacity(worker.memoryGb * 1024);
const sessionsPerTask = (capacity * workerScaling.targetPercent) / 100;

const byRegion = regions.map((region) => {
  const price = prices[region];
  const report = costReport(inventory, price);
  const fleet = fleetPrice(worker, price, sessionsPerTask);
  const costs = profiles.map((profile) => tenantCost(profile, measured, price, extraPrices[region], fleet));
  // The floor's worker task is the fleet's first; per-tenant session shares pay for the fleet, so the margin spreads the rest.
  const floorWithoutWorker = report.floorTotal - fleet.taskMonthUsd * worker.tasks - fleet.ipv4MonthUsd * worker.tasks;
  return { region, price, report, fleet, costs, floorWithoutWorker };
});

const usd = (n: number): string =>
  n < 0 ? `−${usd(-n)}` : n >= 100 ? `$${n.toFixed(0)}` : n >= 1 ? `$${n.toFixed(2)}` : n >= 0.01 ? `$${n.toFixed(3)}` : n > 0 ? `$${n.toFixed(4)}` : '$0';
const per = (n: number, d: number) => (n / d).toFixed(2);

function figuresTable(m: MeasuredFigures): string {
  return [
    '| Figure (pooled over the runs) | Value | Source |',
    '| --- | ---: | --- |',
    `| Messages in the runs (sends + inbound) | ${m.messages} (${m.sends} sends) | bench:tenants |`,
    `| API requests per message (the bench's mix: lists, searches, message pages, the send) | ${per(m.httpRequests, m.messages)} | bench:tenants |`,
    `| DynamoDB read request units per message (everything the front served: API, stream and queue consumers) | ${per(m.readUnits, m.messages)} | capacity meter (ADR-0204) |`,
    `| DynamoDB write request units per message | ${per(m.writeUnits, m.messages)} | capacity meter |`,
    m.signIn
      ? `| A sign-in (measured alone before the clock; the runs' ${m.signIn.takenOut} sign-ins taken out of the lines above) | ${m.signIn.readUnits.toFixed(1)} RRU, ${m.signIn.writeUnits.toFixed(1)} WRU, ${m.signIn.calls.toFixed(1)} calls | capacity meter |`
      : "| A sign-in | not measured: the runs' sign-ins are in the lines above | |",
    `| DynamoDB calls per message | ${per(m.dynamoCalls, m.messages)} | capacity meter |`,
    `| WebSocket posts per message per open tab | ${m.webSocketPostsPerMessagePerTab.toFixed(2)} | ws gateway count |`,
    `| Mean WebSocket post size | ${Math.round(m.webSocketBytesPerPost)} bytes (one 32 KB billing unit) | ws gateway count |`,
    `| Warm API duration, p50 weighted by operation (local runtime, a proxy for billed Lambda ms) | ${m.httpDurationMs.toFixed(1)} ms | bench:tenants |`,
    `| Worker memory per WhatsApp session (double, no real socket) | ${whatsapp.memoryPerSession.rssMb} MB RSS | bench/whatsapp.json (${whatsapp.date.slice(0, 10)}) |`,
    `| Sessions a worker task holds / is filled to | ${capacity} (\`workerCapacity\`, a 40 MiB design budget) / ${sessionsPerTask.toFixed(1)} (autoscaling target ${workerScaling.targetPercent} %) | infra/constructs/channel-worker.ts, ADR-0203 |`,
  ].join('\n');
}

function profileTable(): string {
  return [
    '| Profile | WhatsApp numbers | Agents | Open tabs | Messages a day | Media share | Contacts |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...profiles.map(
      (p) =>
        `| ${p.name} | ${p.whatsappNumbers} | ${p.agents} | ${p.openTabs} | ${p.messagesPerDay.toLocaleString('en-US')} | ${p.mediaShare * 100} % | ${p.contacts.toLocaleString('en-US')} |`,
    ),
  ].join('\n');
}

function breakdown(costs: readonly TenantCost[], region: string): string {
  const first = costs[0]!;
  return [
    `| Service (${region}) | Driver | Basis | ${costs.map((c) => c.profile.name).join(' | ')} |`,
    `| --- | --- | --- | ${costs.map(() => '---:').join(' | ')} |`,
    ...first.lines.map((line, i) => `| ${line.service} | ${line.driver} | ${line.basis} | ${costs.map((c) => usd(c.lines[i]!.usd)).join(' | ')} |`),
    `| **Total a month** | | | ${costs.map((c) => `**${usd(c.total)}**`).join(' | ')} |`,
    `| Per 1,000 messages (total / messages) | | | ${costs.map((c) => usd((c.total / c.messagesPerMonth) * 1000)).join(' | ')} |`,
  ].join('\n');
}

function dominant(cost: TenantCost): string {
  const sorted = [...cost.lines].sort((x, y) => y.usd - x.usd);
  return sorted
    .slice(0, 3)
    .map((l) => `${l.service.replace(/ \(.*\)$/, '')} ${((l.usd / cost.total) * 100).toFixed(0)} %`)
    .join(', ');
}

function marginTable(): string {
  const rows: string[] = [];
  for (const r of byRegion) {
    const small = r.costs[0]!;
    // A Free account: one user, one number, the small profile's traffic with one tab.
    const freeTenant = tenantCost(
      { ...small.profile, name: 'small at Free limits', agents: freePlan.users, openTabs: freePlan.users, contacts: freePlan.contacts },
      measured,
      r.price,
      extraPrices[r.region],
      r.fleet,
    );
    const cases = [
      { plan: 'Free', priceBrl: 0, cost: freeTenant },
      { plan: 'Pro', priceBrl: proFallbackPriceCents / 100, cost: r.costs[0]! },
      { plan: 'Pro', priceBrl: proFallbackPriceCents / 100, cost: r.costs[1]! },
      { plan: 'Pro (over its limits: needs a custom plan)', priceBrl: proFallbackPriceCents / 100, cost: r.costs[2]! },
    ];
    for (const c of cases) {
      const margins = tenantCounts.map((tenants) =>
        planMargin({ ...money, priceBrl: c.priceBrl, variableUsd: c.cost.total, floorUsd: r.floorWithoutWorker, tenants }),
      );
      rows.push(
        `| ${r.region} | ${c.plan} | ${c.cost.profile.name} | ${usd(margins[0]!.revenueUsd)} | ${usd(margins[0]!.feeUsd)} | ${usd(c.cost.total)} | ${margins.map((m) => usd(m.marginUsd)).join(' | ')} |`,
      );
    }
  }
  return [
    `| Region | Plan | Tenant | Price | Card fee | Variable cost | ${tenantCounts.map((n) => `Margin, ${n.toLocaleString('en-US')} tenants`).join(' | ')} |`,
    `| --- | --- | --- | ---: | ---: | ---: | ${tenantCounts.map(() => '---:').join(' | ')} |`,
    ...rows,
  ].join('\n');
}

/**
 * The goal's small tenant (docs/product.md#performance-goals: 500 contacts, 200 messages a day, 2
 * agents) priced as the profiles are, with one connected WhatsApp QR number and with none (Telegram
 * or the official API, which need no worker session), and what dominates it.
 */
function goalParagraph(): string {
  const goal = { name: 'goal small', whatsappNumbers: 1, agents: 2, openTabs: 2, messagesPerDay: 200, mediaShare: 0.15, contacts: 500 };
  const lines = byRegion.map((r) => {
    const withQr = tenantCost(goal, measured, r.price, extraPrices[r.region], r.fleet);
    const session = withQr.lines.find((l) => l.service.startsWith('WhatsApp worker fleet'))?.usd ?? 0;
    const without = withQr.total - session;
    return { region: r.region, withQr, without, session };
  });
  const us = lines[0]!;
  const met = us.without < 0.25;
  return [
    `500 contacts, 200 messages a day (${us.withQr.messagesPerMonth.toLocaleString('en-US')} a month), 2 agents with a tab each, media as the small profile: `,
    lines
      .map(
        (l) =>
          `${l.region} **${usd(l.without)}** without a WhatsApp QR session (Telegram or the official API), ${usd(l.withQr.total)} with one (its session share ${usd(l.session)})`,
      )
      .join('; '),
    `. The goal is ${met ? 'met' : '**missed**'} in us-east-1 without a QR number${us.withQr.total < 0.25 ? ' and with one' : ', and missed with one: a QR number holds a slice of an always-on Fargate task, which no per-message saving reaches'}. Without the session, what dominates (us-east-1): ${dominant({ ...us.withQr, lines: us.withQr.lines.filter((l) => !l.service.startsWith('WhatsApp worker fleet')), total: us.without })}; the API's share follows the staff's reads, ${(measured.httpRequests / measured.messages).toFixed(2)} requests a message in the bench's mix.`,
  ].join('');
}

const us = byRegion[0]!;
const sa = byRegion[1]!;
const a = tenantAssumptions;
const body = [
  `Generated by \`npm run bench:cost\` (\`scripts/cost-model.ts\`, arithmetic in \`infra/cost/tenant-model.ts\`, tested by \`tests/unit/cost-tenant-model.test.ts\`) on ${new Date().toISOString().slice(0, 10)}. Prices: ${PRICES_AS_OF}, plus data transfer out and Logs storage from the same memory (\`extraPrices\`); sa-east-1 prices are marked \`check\` there. USD a month, free tiers not subtracted.`,
  '',
  `**Measured** figures, read from ${measured.sources.join(' and ')} (\`npm run bench:tenants\` on the local runtime, dynalite behind the capacity meter) and the template:`,
  '',
  figuresTable(measured),
  '',
  '**Profiles** (assumed: no customer data exists yet):',
  '',
  profileTable(),
  '',
  `**Assumed** (in \`tenantAssumptions\`): messages ${a.messageDaysPerMonth} days a month, ${a.inboundShare * 100} % inbound; tabs open ${a.openHoursPerDay} h × ${a.openDaysPerMonth} days; ${a.signInsPerAgentPerMonth} sign-ins an agent a month (one a working day: an upper bound); staff read at the bench's mix (the API requests per message above); a WhatsApp outbound message gets one more receipt than the bench's double acked (${a.extraReceiptWriteUnits} WRU, ${a.extraReceiptReadUnits} RRU, ${a.extraReceiptPostsPerTab} posts a tab, one router call, counted from the code in infra/cost/model.ts); router invocations ${a.routerMs} ms + ${a.routerMsPerPost} ms per WebSocket post (not measured in the cloud); ${a.sqsRequestsPerOutbound} SQS FIFO requests per outbound message; ${a.logBytesPerInvocation} log bytes an invocation; X-Ray ${a.xraySampledShare * 100} % sampled; stored ${a.messageItemBytes} bytes a message and ${a.contactItemBytes} a contact, kept ${a.retentionMonths} months; media ${a.mediaKb} KB each, downloaded out of AWS ${a.mediaDownloadsPerMedia} times and read from S3 ${a.mediaGetsPerMedia} times. *Basis* in the tables: **measured** = the quantity comes from the bench files (the price does not); **mixed** = a measured count times an assumed duration or capacity; **assumed** = no measurement behind the quantity.`,
  '',
  '### Fixed monthly floor (no tenant)',
  '',
  `${usd(us.report.floorTotal)} in us-east-1, ${usd(sa.report.floorTotal)} in sa-east-1 (the table above, from the template): it does not move with tenants until the worker fleet needs a second task. Of it, the first worker task and its address (${usd(us.fleet.taskMonthUsd + us.fleet.ipv4MonthUsd)} / ${usd(sa.fleet.taskMonthUsd + sa.fleet.ipv4MonthUsd)}) are the fleet, paid below per session; the rest (${usd(us.floorWithoutWorker)} / ${usd(sa.floorWithoutWorker)}: WAF, alarms, dashboard, secrets, metrics, key) is shared by all tenants in the margins.`,
  '',
  '### WhatsApp worker fleet, per session',
  '',
  `A task (${worker.vcpu} vCPU, ${worker.memoryGb} GB arm64, public IPv4) costs ${usd(us.fleet.taskMonthUsd + us.fleet.ipv4MonthUsd)} a month in us-east-1 and ${usd(sa.fleet.taskMonthUsd + sa.fleet.ipv4MonthUsd)} in sa-east-1; filled to ${sessionsPerTask.toFixed(1)} sessions (capacity ${capacity} at the ${workerScaling.targetPercent} % scaling target), a connected number costs **${usd((us.fleet.taskMonthUsd + us.fleet.ipv4MonthUsd) / sessionsPerTask)}** (us-east-1) / **${usd((sa.fleet.taskMonthUsd + sa.fleet.ipv4MonthUsd) / sessionsPerTask)}** (sa-east-1) a month. The capacity is a design budget of 40 MiB a session; the only measurement (${whatsapp.memoryPerSession.rssMb} MB RSS a session on a socketless double) says memory would allow many more, so this share is an upper bound until real sockets are measured.`,
  '',
  '### Variable cost per tenant, by service',
  '',
  breakdown(us.costs, 'us-east-1'),
  '',
  breakdown(sa.costs, 'sa-east-1'),
  '',
  `**What dominates** (us-east-1): ${us.costs.map((c) => `${c.profile.name}: ${dominant(c)}`).join('; ')}. In sa-east-1: ${sa.costs.map((c) => `${c.profile.name}: ${dominant(c)}`).join('; ')}.`,
  '',
  '### Against the goal: a small tenant under $0.25 a month beyond the floor',
  '',
  goalParagraph(),
  '',
  '### What the plans leave',
  '',
  `Free: R$ 0 (${freePlan.users} user, ${freePlan.connections} connection, ${freePlan.contacts.toLocaleString('en-US')} contacts). Pro: R$ ${(proFallbackPriceCents / 100).toFixed(2)} a month (the fallback price in shared/contracts/plans.ts; ${proPlanDefaults.users} users, ${proPlanDefaults.connections} connections, ${proPlanDefaults.contacts.toLocaleString('en-US')} contacts). Assumed: R$ ${money.brlPerUsd.toFixed(2)} to the dollar, a card fee of ${(money.feeShare * 100).toFixed(2)} % + R$ ${money.feeFixedBrl.toFixed(2)} (Stripe Brazil, from memory), taxes on revenue (ISS, PIS/COFINS) not subtracted. Margin = price − fee − variable cost − the floor without the worker task shared by that many tenants.`,
  '',
  marginTable(),
].join('\n');

const start = '<!-- cost:tenants -->';
const end = '<!-- /cost:tenants -->';
const path = join(root, 'docs/cost.md');
const doc = readFileSync(path, 'utf8');
const from = doc.indexOf(start);
const to = doc.indexOf(end);
if (from < 0 || to < from) throw new Error(`docs/cost.md has no ${start} … ${end} section`);
writeFileSync(path, `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`);
console.log(body);
