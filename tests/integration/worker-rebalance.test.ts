/**
 * Sessions shared out across the worker fleet (ADR-0203): three
 * workers even out the sessions one of them held alone, then a fourth joins and gets its share;
 * the counts settle and stay settled (no session moves back and forth), and no connection is ever
 * held twice. Workers run in this process against a local runtime of this file's own (which runs
 * no worker of its own), with light session doubles.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readLease } from '#db/leases.ts';
import { writeServiceStatus } from '#db/services.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import { type ChannelWorker, startChannelWorker } from '#connectors/worker.ts';
import { SocketDouble } from '../support/whatsapp-double.ts';
import { ownRuntime, whatsappTeam } from './own-runtime.ts';
import { eventually } from './worker.ts';

/** Sessions open now, by connection: more than one would be a connection held twice. */
const open = new Map<string, number>();
let heldTwice = 0;

function lightAdapter(): ChannelAdapter {
  const base = whatsappWorkerChannel({ socketFactory: () => new SocketDouble() });
  return {
    ...base,
    sessions: {
      ...base.sessions!,
      open: ({ run }) => {
        const now = (open.get(run.serviceId) ?? 0) + 1;
        open.set(run.serviceId, now);
        if (now > 1) heldTwice++;
        return {
          stop: async () => {
            open.set(run.serviceId, (open.get(run.serviceId) ?? 1) - 1);
          },
        };
      },
    },
  };
}

const own = ownRuntime('conversa-rebalance-', { channels: [lightAdapter()], worker: false });
/**
 * Production's periods shortened for the test: 3 s leases renewed every 0.4 s, scans every 0.5 s,
 * and takeovers 50 ms apart (production: 250 ms apart with 15 s scans; 250 ms here would make one
 * worker's takeovers span six scans instead of about one).
 */
const quick = { leaseSeconds: 3, renewEverySeconds: 0.4, marginSeconds: 1, scanEverySeconds: 0.5, rebalance: { startEveryMs: 50 } };

const workers: ChannelWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
}, 30_000);

const start = async (workerId: string) => {
  const worker = await startChannelWorker({ ...own.ports(), channels: channelRegistry([lightAdapter()]) }, { ...quick, workerId });
  workers.push(worker);
  return worker;
};

const counts = () => workers.map((w) => w.sessions);
const owners = (connections: readonly string[]) => Promise.all(connections.map(async (id) => (await readLease(own.ports().table, id))?.ownerId));

/**
 * Waits until every worker has run `rounds` whole scans since the call (each started after the one
 * before ended: `rounds + 1` scans ended), then until nothing they decided is still under way (no
 * change running: a session let go is closed and released, one taken over is open). A scan is what
 * would move a session; after these, whatever they were going to move has moved.
 */
async function scanRounds(rounds: number): Promise<void> {
  for (let i = 0; i <= rounds; i++) {
    const since = Date.now();
    await eventually(async () => workers.every((w) => w.heartbeat.scannedAt > since), 15_000);
  }
  await eventually(async () => workers.every((w) => w.heartbeat.changes.length === 0), 15_000);
}

describe('sessions shared out across the fleet', () => {
  it('three workers even out what one held; a fourth joins and gets its share; the counts settle and stay', async () => {
    // Twelve accounts with a running connection each (made side by side: no worker runs yet).
    const connections = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const team = await whatsappTeam(own.call, 'share');
        await writeServiceStatus(
          own.ports().table,
          { accountId: team.accountId, id: team.serviceId, channelType: 'whatsapp' },
          {
            status: 'connected',
            runId: `run-${i}`,
            now: new Date().toISOString(),
          },
        );
        return team.serviceId;
      }),
    );
    // Alone, the first worker takes every session.
    await start('share-a');
    await eventually(async () => workers[0]!.sessions === 12, 15_000);

    // Two more: the first lets a few go per scan, the others take them, up to their share (4).
    await start('share-b');
    await start('share-c');
    await eventually(async () => counts().every((n) => n === 4), 30_000);

    // A fourth: the share is 3; the others, one over it while the newcomer holds nothing, let one go each.
    await start('share-d');
    await eventually(async () => counts()[3]! >= 2 && counts().reduce((a, b) => a + b, 0) === 12 && Math.max(...counts()) - Math.min(...counts()) <= 2, 30_000);
    // Settled: the same holders after two whole scans of every worker.
    const settled = await eventually(async () => {
      const before = { counts: counts(), owners: await owners(connections) };
      await scanRounds(2);
      const after = { counts: counts(), owners: await owners(connections) };
      return isDeepStrictEqual(after, before) ? before.counts : undefined;
    }, 30_000);

    // And it stays: through four more whole scans of every worker (each reads the others' beats,
    // renewed every 0.4 s, afresh: a scan that would let a session go or take one has run), no
    // session changes hands.
    const ownersBefore = await owners(connections);
    await scanRounds(4);
    expect(counts()).toEqual(settled);
    expect(await owners(connections)).toEqual(ownersBefore);
    expect(settled.reduce((a, b) => a + b, 0)).toBe(12);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...settled)).toBeLessThanOrEqual(4);
    expect(heldTwice).toBe(0);
  }, 120_000);
});
