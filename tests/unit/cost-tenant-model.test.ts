/**
 * The per-tenant cost arithmetic (infra/cost/tenant-model.ts): pooling the bench files, which lines
 * scale with messages, tabs and sessions, a hand-checked small case, and the plan margin.
 */
import { describe, expect, it } from 'vitest';
import { prices } from '../../infra/cost/prices.ts';
import {
  extraPrices,
  fleetPrice,
  type MeasuredFigures,
  measuredFrom,
  planMargin,
  type TenantAssumptions,
  type TenantProfile,
  type TenantsBenchFile,
  tenantAssumptions,
  tenantCost,
} from '../../infra/cost/tenant-model.ts';

const op = (n: number, p50: number) => ({ warm: { n, p50 }, cold: { n: 0, p50: 0 } });
const benchFile = (scale: number, p50: number): TenantsBenchFile => ({
  date: '2026-11-27T00:00:00.000Z',
  run: {
    requests: 100 * scale,
    active: 5,
    signIn: { n: 5 },
    operations: { contactList: op(60 * scale, p50), send: op(20 * scale, p50), inbound: op(20 * scale, 999) },
    dynamo: { totals: { calls: 500 * scale, readUnits: 400 * scale, writeUnits: 200 * scale } },
    webSocket: { clients: 6, onTenants: 2, posts: 90 * scale, postBytes: 90_000 * scale, messages: 40 * scale, messagesOnSocketTenants: 10 * scale },
  },
});

const measured: MeasuredFigures = {
  sources: ['test'],
  messages: 1000,
  sends: 500,
  httpRequests: 5000,
  readUnits: 10_000,
  writeUnits: 12_000,
  dynamoCalls: 20_000,
  webSocketPostsPerMessagePerTab: 3,
  webSocketBytesPerPost: 700,
  httpDurationMs: 20,
  signIn: null,
};
const profile: TenantProfile = { name: 't', whatsappNumbers: 2, agents: 2, openTabs: 2, messagesPerDay: 100, mediaShare: 0.1, contacts: 1000 };
const price = prices['us-east-1'];
/** Pinned here so the hand-checked case does not follow edits of the defaults. */
const pinned: TenantAssumptions = {
  ...tenantAssumptions,
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
};
const fleet = { taskMonthUsd: 20, ipv4MonthUsd: 3, sessionsPerTask: 23 };
const line = (cost: ReturnType<typeof tenantCost>, service: string) => {
  const found = cost.lines.find((l) => l.service.startsWith(service));
  if (!found) throw new Error(`no line ${service}`);
  return found.usd;
};

describe('measuredFrom', () => {
  it('pools runs by summing counts, leaves inbound calls out of the HTTP requests and weights durations by count', () => {
    const m = measuredFrom([
      { name: 'a', data: benchFile(1, 10) },
      { name: 'b', data: benchFile(3, 30) },
    ]);
    expect(m.messages).toBe(160);
    expect(m.sends).toBe(80);
    expect(m.httpRequests).toBe(320);
    expect(m.readUnits).toBe(1600);
    expect(m.writeUnits).toBe(800);
    // 360 posts over 40 socket-tenant messages × 3 clients each.
    expect(m.webSocketPostsPerMessagePerTab).toBeCloseTo(3, 10);
    expect(m.webSocketBytesPerPost).toBe(1000);
    // (80 × 10 + 240 × 30) / 320; the inbound's 999 ms is not an API duration.
    expect(m.httpDurationMs).toBeCloseTo(25, 10);
  });

  it("takes the runs' sign-ins out of the per-message units at what one costs alone, older files' active sign-ins aside", () => {
    const measuredAlone = {
      ...benchFile(1, 10),
      run: { ...benchFile(1, 10).run, signIn: { n: 20 }, signInUnits: { signIns: 10, calls: 60, readUnits: 40, writeUnits: 30 } },
    };
    // An older file: 25 sign-ins timed, 5 of them the active accounts' before the clock.
    const older = { ...benchFile(1, 10), run: { ...benchFile(1, 10).run, signIn: { n: 25 } } };
    const m = measuredFrom([
      { name: 'new', data: measuredAlone },
      { name: 'old', data: older },
    ]);
    // One sign-in: 6 calls, 4 RRU, 3 WRU; 20 + 20 sign-ins inside the runs.
    expect(m.signIn).toEqual({ calls: 6, readUnits: 4, writeUnits: 3, takenOut: 40 });
    expect(m.readUnits).toBe(800 - 40 * 4);
    expect(m.writeUnits).toBe(400 - 40 * 3);
    expect(m.dynamoCalls).toBe(1000 - 40 * 6);
    // Without a measurement nothing is taken out.
    expect(measuredFrom([{ name: 'old', data: older }])).toMatchObject({ signIn: null, readUnits: 400, writeUnits: 200 });
  });

  it("prices the staff's sign-ins apart from the messages: an agent's month of them at the measured units", () => {
    const withSignIn = { ...measured, signIn: { readUnits: 4, writeUnits: 3, calls: 6, takenOut: 0 } };
    const a = tenantCost(profile, withSignIn, price, extraPrices['us-east-1'], fleet, pinned);
    const b = tenantCost(profile, measured, price, extraPrices['us-east-1'], fleet, pinned);
    // 2 agents × 26 sign-ins × (3 WRU, 4 RRU).
    expect(line(a, 'DynamoDB on-demand requests') - line(b, 'DynamoDB on-demand requests')).toBeCloseTo(52 * (3 * 0.625e-6 + 4 * 0.125e-6), 12);
  });

  it('refuses to run on no file', () => {
    expect(() => measuredFrom([])).toThrow(/bench:tenants/);
  });
});

describe('tenantCost', () => {
  const base = tenantCost(profile, measured, price, extraPrices['us-east-1'], fleet, pinned);
  const doubled = tenantCost({ ...profile, messagesPerDay: 200 }, measured, price, extraPrices['us-east-1'], fleet, pinned);

  it('doubles every message-driven line when messages double, and leaves tab- and session-driven lines alone', () => {
    base.lines.forEach((l, i) => {
      const other = doubled.lines[i]!;
      if (l.driver === 'messages') expect(other.usd, l.service).toBeCloseTo(2 * l.usd, 12);
      if (l.driver === 'tabs' || l.driver === 'sessions') expect(other.usd, l.service).toBe(l.usd);
    });
    expect(doubled.total).toBeGreaterThan(base.total);
    expect(doubled.total).toBeLessThan(2 * base.total);
  });

  it('charges each WhatsApp number a task share: twice the numbers, twice the fleet line, nothing else moves', () => {
    const more = tenantCost({ ...profile, whatsappNumbers: 4 }, measured, price, extraPrices['us-east-1'], fleet, pinned);
    expect(line(base, 'WhatsApp worker fleet share')).toBeCloseTo((2 * 23) / 23, 12);
    expect(line(more, 'WhatsApp worker fleet share')).toBeCloseTo(4, 12);
    expect(more.total - base.total).toBeCloseTo(2, 12);
  });

  it('matches a hand-checked small case', () => {
    // 100 a day × 30 = 3,000 messages, 1,500 outbound. Measured: 12 WRU, 10 RRU, 5 requests, 3 posts a tab per message.
    // DynamoDB: WRU 3,000 × 12 + 1,500 × 4 = 42,000; RRU 3,000 × 10 + 1,500 × 3 = 34,500.
    expect(line(base, 'DynamoDB on-demand requests')).toBeCloseTo(42_000 * 0.625e-6 + 34_500 * 0.125e-6, 12);
    // HTTP API: 15,000 requests at $1 a million.
    expect(line(base, 'API Gateway HTTP API')).toBeCloseTo(0.015, 12);
    // WebSocket: (3,000 × 3 + 1,500 × 2) × 2 tabs = 24,000 posts at $1 a million.
    expect(line(base, 'API Gateway WebSocket messages')).toBeCloseTo(0.024, 12);
    // Connection minutes: 2 tabs × 10 h × 60 × 26 days = 31,200 at $0.25 a million.
    expect(line(base, 'API Gateway WebSocket connection minutes')).toBeCloseTo(31_200 * 0.25e-6, 12);
    // SQS: 1,500 outbound × 3 requests at $0.50 a million.
    expect(line(base, 'SQS FIFO')).toBeCloseTo(4500 * 0.5e-6, 12);
    // Lambda: 15,000 API invocations of 20 ms and 1,500 + 1,500 × 4 = 7,500 router calls of 60 ms + 3 ms × 24,000 / 7,500 posts, at 0.5 GB.
    const gbSeconds = 0.5 * (15_000 * 0.02 + 7_500 * (0.06 + 0.003 * (24_000 / 7_500)));
    expect(line(base, 'Lambda')).toBeCloseTo(22_500 * 0.2e-6 + gbSeconds * 0.0000133334, 12);
    expect(base.messagesPerMonth).toBe(3000);
    expect(base.total).toBeCloseTo(
      base.lines.reduce((n, l) => n + l.usd, 0),
      12,
    );
  });

  it('bills a post over 32 KB as more than one WebSocket message', () => {
    const big = tenantCost(profile, { ...measured, webSocketBytesPerPost: 40_000 }, price, extraPrices['us-east-1'], fleet, pinned);
    expect(line(big, 'API Gateway WebSocket messages')).toBeCloseTo(2 * line(base, 'API Gateway WebSocket messages'), 12);
  });

  it('is dearer in São Paulo for the same tenant', () => {
    const sa = tenantCost(
      profile,
      measured,
      prices['sa-east-1'],
      extraPrices['sa-east-1'],
      fleetPrice({ vcpu: 0.5, memoryGb: 2, publicIp: true }, prices['sa-east-1'], 23),
    );
    const us = tenantCost(profile, measured, price, extraPrices['us-east-1'], fleetPrice({ vcpu: 0.5, memoryGb: 2, publicIp: true }, price, 23));
    expect(sa.total).toBeGreaterThan(us.total);
  });

  it('takes its assumptions as an argument', () => {
    const allInbound: TenantAssumptions = { ...pinned, inboundShare: 1 };
    const cost = tenantCost(profile, measured, price, extraPrices['us-east-1'], fleet, allInbound);
    expect(line(cost, 'SQS FIFO')).toBe(0);
  });
});

describe('fleetPrice and planMargin', () => {
  it("prices a task's month from vCPU and GB hours, and its address only when public", () => {
    const f = fleetPrice({ vcpu: 0.5, memoryGb: 2, publicIp: true }, price, 23.1);
    expect(f.taskMonthUsd).toBeCloseTo((0.5 * 0.03238 + 2 * 0.00356) * 730, 10);
    expect(f.ipv4MonthUsd).toBeCloseTo(3.65, 10);
    expect(fleetPrice({ vcpu: 0.5, memoryGb: 2, publicIp: false }, price, 23.1).ipv4MonthUsd).toBe(0);
  });

  it('shares the floor among tenants without the floor depending on them, and charges no fee on a free plan', () => {
    const input = { priceBrl: 110, brlPerUsd: 5.5, feeShare: 0.05, feeFixedBrl: 0.5, variableUsd: 3, floorUsd: 20 };
    const ten = planMargin({ ...input, tenants: 10 });
    const hundred = planMargin({ ...input, tenants: 100 });
    // $20 revenue, fee (5.5 + 0.5) / 5.5, $3 variable, $2 or $0.20 of the floor.
    expect(ten.revenueUsd).toBeCloseTo(20, 12);
    expect(ten.feeUsd).toBeCloseTo(6 / 5.5, 12);
    expect(ten.marginUsd).toBeCloseTo(20 - 6 / 5.5 - 3 - 2, 12);
    expect(hundred.marginUsd - ten.marginUsd).toBeCloseTo(1.8, 12);
    expect(ten.floorShareUsd * 10).toBeCloseTo(hundred.floorShareUsd * 100, 12);
    const free = planMargin({ ...input, priceBrl: 0, tenants: 10 });
    expect(free.feeUsd).toBe(0);
    expect(free.marginUsd).toBeCloseTo(-5, 12);
  });
});
