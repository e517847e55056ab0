/**
 * Sessions shared out across the worker fleet (ADR-0203): three
 * workers even out the sessions one of them held alone, then a fourth joins and gets its share;
 * the counts settle and stay settled (no session moves back and forth), and no connection is ever
 * held twice. Workers run in this process against a local runtime of this file's own (which runs
 * no worker of its own), with light session doubles.
 */
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
const quick = { leaseSeconds: 3, renewEverySeconds: 0.4, marginSeconds: 1, scanEverySeconds: 0.5 };

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

describe('sessions shared out across the fleet', () => {
  it('three workers even out what one held; a fourth joins and gets its share; the counts settle and stay', async () => {
    const connections: string[] = [];
    for (let i = 0; i < 12; i++) {
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
      connections.push(team.serviceId);
    }
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
    const settled = await eventually(async () => {
      const before = counts().join();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return counts().join() === before ? counts() : undefined;
    }, 30_000);

    // Settled: through a dozen more scans of each, no session changes hands.
    const owners = async () => Promise.all(connections.map(async (id) => (await readLease(own.ports().table, id))?.ownerId));
    const ownersBefore = await owners();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(counts()).toEqual(settled);
    expect(await owners()).toEqual(ownersBefore);
    expect(settled.reduce((a, b) => a + b, 0)).toBe(12);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...settled)).toBeLessThanOrEqual(4);
    expect(heldTwice).toBe(0);
  }, 120_000);
});
