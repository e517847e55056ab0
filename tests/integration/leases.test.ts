/**
 * Session leases over the runtime's table: the lease repository's conditions, and workers sharing
 * one connection (a session-holding test adapter per worker, one log): exactly one session opens,
 * a worker cut off from the table stops its session before another takes over within the bound,
 * a graceful stop hands over at once, a stolen lease stops the session, and a new run keeps the lease.
 * Leases and scans are short here (about a second) so takeovers are quick.
 */
import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { keys } from '#db/keys.ts';
import { acquireLease, readLease, releaseLease, renewLease } from '#db/leases.ts';
import { writeServiceStatus } from '#db/services.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import type { Ports } from '#domain/ports.ts';
import { type ChannelWorker, type ChannelWorkerOptions, startChannelWorker } from '#connectors/worker.ts';
import { call, proTeam } from './api.ts';
import { eventually, workerPorts, tellChanged } from './worker.ts';

type Event = { worker: string; kind: 'open' | 'close'; runId: string; at: number };

/** What every worker's sessions did, in order, and the most sessions ever open at once. */
function sessionLog() {
  const events: Event[] = [];
  let live = 0;
  let most = 0;
  return {
    events,
    most: () => most,
    opened: (worker?: string) => events.filter((e) => e.kind === 'open' && (!worker || e.worker === worker)),
    closed: (worker?: string) => events.filter((e) => e.kind === 'close' && (!worker || e.worker === worker)),
    adapter(worker: string, serviceId: string): ChannelAdapter {
      return {
        type: 'whatsapp',
        send: async () => ({ channelMessageId: 'never' }),
        sessions: {
          wants: (connection) => (connection as { id?: string }).id === serviceId,
          open(context) {
            live++;
            most = Math.max(most, live);
            events.push({ worker, kind: 'open', runId: context.run.runId, at: Date.now() });
            return {
              stop: async () => {
                live--;
                events.push({ worker, kind: 'close', runId: context.run.runId, at: Date.now() });
              },
            };
          },
        },
      };
    },
  };
}

/** Ports whose table can be cut off (every call fails as a network error would), for a worker that loses the table. */
function partitionable(base: Ports) {
  let cut = false;
  const doc = new Proxy(base.table.doc, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver);
      return (command: unknown) =>
        cut
          ? Promise.reject(Object.assign(new Error('network down (test)'), { name: 'TimeoutError' }))
          : (target.send as (c: unknown) => Promise<unknown>)(command);
    },
  });
  return {
    ports: { ...base, table: { ...base.table, doc } },
    cut: (value: boolean) => {
      cut = value;
    },
  };
}

const quick: ChannelWorkerOptions = { leaseSeconds: 1.5, renewEverySeconds: 0.3, marginSeconds: 0.5, scanEverySeconds: 0.5 };
/** Takeover after a dead owner: its lease expires (≤ lease after its last renewal), then the next scan (≤ 1.2 × scan) takes it; plus slack for a busy machine. */
const takeoverBoundMs = (1.5 + 1.2 * 0.5) * 1000 + 1500;

async function runningConnection(runId: string) {
  const { owner } = await proTeam();
  const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
  const service = { accountId: owner.accountId, id: created.body.id as string, channelType: 'whatsapp' as const };
  await writeServiceStatus(workerPorts().table, service, { status: 'connected', runId, now: new Date().toISOString() });
  return service;
}

/**
 * Waits until each worker has ended `n` more scans of the running index and renewed `n` more times
 * (its heartbeat): what "a while later" means to a lease, counted in the loops that could change
 * it rather than guessed in seconds.
 */
async function loopsPass(workers: ChannelWorker[], n = 2) {
  for (let i = 0; i < n; i++) {
    const after = Date.now();
    await eventually(async () => workers.every((w) => w.heartbeat.scannedAt > after && w.heartbeat.renewedAt > after));
  }
}

async function stopAll(workers: ChannelWorker[]) {
  await Promise.all(workers.map((w) => w.stop()));
}

describe('the lease repository', () => {
  it('acquires a free or expired lease, refuses a live one of another owner, renews and releases only for its owner', async () => {
    const { table } = workerPorts();
    const serviceId = ulid();
    const now = Date.now();
    const claim = { serviceId, accountId: 'A', runId: 'r1', now, leaseMs: 1000 };
    expect(await acquireLease(table, { ...claim, ownerId: 'w1' })).toMatchObject({ ...keys.sessionLease(serviceId), ownerId: 'w1', expiresAt: now + 1000 });
    expect((await readLease(table, serviceId))!.ttl).toBeGreaterThan((now + 1000) / 1000);
    expect(await acquireLease(table, { ...claim, ownerId: 'w2' })).toBeUndefined();
    expect(await acquireLease(table, { ...claim, ownerId: 'w1', runId: 'r2' })).toBeDefined();
    expect(await renewLease(table, { ...claim, ownerId: 'w2', now: now + 500 })).toBe(false);
    expect(await renewLease(table, { ...claim, ownerId: 'w1', runId: 'r3', now: now + 500 })).toBe(true);
    expect(await readLease(table, serviceId)).toMatchObject({ ownerId: 'w1', runId: 'r3', expiresAt: now + 1500 });
    // At its expiry the lease is still held; a moment after, another owner takes it.
    expect(await acquireLease(table, { ...claim, ownerId: 'w2', now: now + 1500 })).toBeUndefined();
    expect(await acquireLease(table, { ...claim, ownerId: 'w2', now: now + 1501 })).toBeDefined();
    expect(await renewLease(table, { ...claim, ownerId: 'w1', now: now + 1502 })).toBe(false);
    expect(await releaseLease(table, serviceId, 'w1')).toBe(false);
    expect(await releaseLease(table, serviceId, 'w2')).toBe(true);
    expect(await readLease(table, serviceId)).toBeUndefined();
    expect(await renewLease(table, { ...claim, ownerId: 'w2' })).toBe(false);
  });
});

describe('workers sharing a connection', () => {
  it('open exactly one session between them', async () => {
    const service = await runningConnection('run-1');
    const log = sessionLog();
    const base = workerPorts();
    const workers = await Promise.all(
      ['a', 'b'].map((name) => startChannelWorker({ ...base, channels: channelRegistry([log.adapter(name, service.id)]) }, { ...quick, workerId: name })),
    );
    try {
      await eventually(async () => log.opened().length === 1);
      for (const worker of workers) await tellChanged(worker, service.accountId, service.id);
      await loopsPass(workers);
      expect(log.opened()).toHaveLength(1);
      expect(log.closed()).toHaveLength(0);
      const holder = log.opened()[0]!.worker;
      expect((await readLease(base.table, service.id))!.ownerId).toBe(holder);
      expect(workers.map((w) => w.sessions).sort()).toEqual([0, 1]);
    } finally {
      await stopAll(workers);
    }
    expect(log.most()).toBe(1);
  });

  it('when the holder loses the table, it stops its session itself before another takes over within the bound, and does not reopen', async () => {
    const service = await runningConnection('run-1');
    const log = sessionLog();
    const base = workerPorts();
    const cutOff = partitionable(base);
    const a = await startChannelWorker({ ...cutOff.ports, channels: channelRegistry([log.adapter('a', service.id)]) }, { ...quick, workerId: 'a' });
    const workers = [a];
    try {
      await eventually(async () => log.opened('a').length === 1);
      workers.push(await startChannelWorker({ ...base, channels: channelRegistry([log.adapter('b', service.id)]) }, { ...quick, workerId: 'b' }));
      const cutAt = Date.now();
      cutOff.cut(true); // as good as dead to the others: no renewal, no release
      await eventually(async () => log.opened('b').length === 1, takeoverBoundMs + 1000);
      const closedA = log.closed('a')[0]!;
      const openedB = log.opened('b')[0]!;
      expect(closedA.at).toBeLessThanOrEqual(openedB.at);
      expect(log.events.indexOf(closedA)).toBeLessThan(log.events.indexOf(openedB));
      expect(openedB.at - cutAt).toBeLessThan(takeoverBoundMs);
      expect((await readLease(base.table, service.id))!.ownerId).toBe('b');

      cutOff.cut(false); // back: the lease is b's, so a keeps away
      await loopsPass(workers);
      expect(log.opened('a')).toHaveLength(1);
      expect(a.sessions).toBe(0);
    } finally {
      cutOff.cut(false);
      await stopAll(workers);
    }
    expect(log.most()).toBe(1);
  });

  it('a graceful stop releases the lease and another worker takes over on its next scan, long before the lease would expire', async () => {
    const service = await runningConnection('run-1');
    const log = sessionLog();
    const base = workerPorts();
    const slowLease = { leaseSeconds: 20, renewEverySeconds: 5, marginSeconds: 5, scanEverySeconds: 0.5 };
    const a = await startChannelWorker({ ...base, channels: channelRegistry([log.adapter('a', service.id)]) }, { ...slowLease, workerId: 'a' });
    await eventually(async () => log.opened('a').length === 1);
    const b = await startChannelWorker({ ...base, channels: channelRegistry([log.adapter('b', service.id)]) }, { ...slowLease, workerId: 'b' });
    try {
      await a.stop();
      const stoppedAt = Date.now();
      expect(log.closed('a')).toHaveLength(1);
      await eventually(async () => log.opened('b').length === 1, 3000);
      expect(log.opened('b')[0]!.at - stoppedAt).toBeLessThan(2000);
      expect((await readLease(base.table, service.id))!.ownerId).toBe('b');
    } finally {
      await stopAll([a, b]);
    }
    expect(await readLease(base.table, service.id)).toBeUndefined();
    expect(log.most()).toBe(1);
  });

  it('a worker whose renewal is refused (the lease was taken over in the table) stops its session at once', async () => {
    const service = await runningConnection('run-1');
    const log = sessionLog();
    const base = workerPorts();
    const a = await startChannelWorker({ ...base, channels: channelRegistry([log.adapter('a', service.id)]) }, { ...quick, workerId: 'a' });
    try {
      await eventually(async () => log.opened('a').length === 1);
      const stolenAt = Date.now();
      const lease = (await readLease(base.table, service.id))!;
      await base.table.doc.send(new PutCommand({ TableName: base.table.name, Item: { ...lease, ownerId: 'thief', expiresAt: stolenAt + 60_000 } }));
      await eventually(async () => log.closed('a').length === 1, 2000);
      // At the next renewal (every 0.3 s), not at the lease's end.
      expect(log.closed('a')[0]!.at - stolenAt).toBeLessThan(1000);
      expect(a.sessions).toBe(0);
      await loopsPass([a]); // scans see the thief's live lease
      expect(log.opened('a')).toHaveLength(1);
    } finally {
      await a.stop();
    }
    // A graceful stop releases only its own leases.
    expect((await readLease(base.table, service.id))!.ownerId).toBe('thief');
  });

  it('a restart (a new run) replaces the session in the worker that holds the lease, keeping the lease', async () => {
    const service = await runningConnection('run-1');
    const log = sessionLog();
    const base = workerPorts();
    const a = await startChannelWorker({ ...base, channels: channelRegistry([log.adapter('a', service.id)]) }, { ...quick, workerId: 'a' });
    await eventually(async () => log.opened('a').length === 1);
    const b = await startChannelWorker({ ...base, channels: channelRegistry([log.adapter('b', service.id)]) }, { ...quick, workerId: 'b' });
    try {
      await writeServiceStatus(base.table, service, { status: 'starting', runId: 'run-2', now: new Date().toISOString() });
      await Promise.all([tellChanged(a, service.accountId, service.id), tellChanged(b, service.accountId, service.id)]);
      await eventually(async () => log.opened().length === 2);
      await loopsPass([a, b]);
      expect(log.events.map((e) => `${e.worker} ${e.kind} ${e.runId}`)).toEqual(['a open run-1', 'a close run-1', 'a open run-2']);
      expect(await readLease(base.table, service.id)).toMatchObject({ ownerId: 'a', runId: 'run-2' });
    } finally {
      await stopAll([a, b]);
    }
  });

  it('a worker holds at most its capacity; the rest go to a worker with room', async () => {
    const services = await Promise.all([runningConnection('run-1'), runningConnection('run-1')]);
    const log = sessionLog();
    const base = workerPorts();
    const adapter = (name: string): ChannelAdapter => {
      const each = services.map((s) => log.adapter(name, s.id));
      return { ...each[0]!, sessions: { wants: (c) => each.some((a) => a.sessions!.wants(c)), open: (context) => each[0]!.sessions!.open(context) } };
    };
    const a = await startChannelWorker({ ...base, channels: channelRegistry([adapter('a')]) }, { ...quick, workerId: 'a', capacity: 1 });
    const b = await startChannelWorker({ ...base, channels: channelRegistry([adapter('b')]) }, { ...quick, workerId: 'b', capacity: 1 });
    try {
      await eventually(async () => a.sessions === 1 && b.sessions === 1, 4000);
      expect(log.opened()).toHaveLength(2);
    } finally {
      await stopAll([a, b]);
    }
  });

  it('beats while its loops turn, and shows a change that does not finish (what the liveness check reads)', async () => {
    const service = await runningConnection('run-1');
    const base = workerPorts();
    // Sessions do not finish closing until the test lets them.
    let closeSession: () => void = () => undefined;
    const closable = new Promise<void>((resolve) => (closeSession = resolve));
    const hanging: ChannelAdapter = {
      type: 'whatsapp',
      send: async () => ({ channelMessageId: 'never' }),
      sessions: {
        wants: (connection) => (connection as { id?: string }).id === service.id,
        open: () => ({ stop: () => closable }),
      },
    };
    const started = Date.now();
    const worker = await startChannelWorker({ ...base, channels: channelRegistry([hanging]) }, { ...quick, workerId: 'beating' });
    try {
      await eventually(async () => worker.sessions === 1, 4000);
      const first = worker.heartbeat;
      expect(first).toMatchObject({ scanEveryMs: 500, renewEveryMs: 300 });
      expect(first.scannedAt).toBeGreaterThanOrEqual(started);
      await eventually(async () => worker.heartbeat.scannedAt > first.scannedAt && worker.heartbeat.renewedAt > first.renewedAt, 4000);
      // A new run replaces the session; its close never ends, so the change stays under way.
      await writeServiceStatus(base.table, service, { status: 'connected', runId: 'run-2', now: new Date().toISOString() });
      const before = Date.now();
      // Not awaited: the change runs until the session's close ends.
      const told = tellChanged(worker, service.accountId, service.id);
      await eventually(async () => worker.heartbeat.changes.length > 0, 4000);
      expect(worker.heartbeat.changes).toEqual([{ serviceId: service.id, since: expect.any(Number) }]);
      expect(worker.heartbeat.changes[0]!.since).toBeGreaterThanOrEqual(before);
      closeSession();
      await told;
      await eventually(async () => worker.heartbeat.changes.length === 0, 4000);
    } finally {
      closeSession();
      await worker.stop();
    }
  });
});
