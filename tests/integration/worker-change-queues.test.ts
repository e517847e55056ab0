/**
 * One slow connection holds up no other (ADR-0182): each connection's changes have their
 * own queue in the worker, so a change of connection A that never ends (its session's close hangs)
 * neither delays connection B's start nor makes the liveness check fail. The liveness check reports
 * a stuck loop of the worker (scan, renewal timer, event loop), not a slow number; the slow change
 * is only noted. No real two-minute wait: the report is read as it would be 121 s later, with the
 * scan and the renewal timer still turning.
 */
import { describe, expect, it } from 'vitest';
import { writeServiceStatus } from '#db/services.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import { changeStallMs, livenessOf } from '#connectors/liveness.ts';
import { type ChannelWorkerOptions, startChannelWorker } from '#connectors/worker.ts';
import { call, proTeam } from './api.ts';
import { eventually, tellChanged, workerPorts } from './worker.ts';

const quick: ChannelWorkerOptions = { leaseSeconds: 1.5, renewEverySeconds: 0.3, marginSeconds: 0.5, scanEverySeconds: 0.5 };

async function connection(accountId: string, token: string, runId: string | null) {
  const created = await call('POST', '/services', { token, body: { name: 'Zap', type: 'whatsapp' } });
  const service = { accountId, id: created.body.id as string, channelType: 'whatsapp' as const };
  if (runId) await writeServiceStatus(workerPorts().table, service, { status: 'connected', runId, now: new Date().toISOString() });
  return service;
}

describe('per-connection change queues', () => {
  it("a change of connection A that hangs past the liveness threshold neither holds B's start nor fails the liveness check", async () => {
    const { owner } = await proTeam();
    const a = await connection(owner.accountId, owner.token, 'run-1');
    const b = await connection(owner.accountId, owner.token, null);
    const base = workerPorts();
    const opened: string[] = [];
    let letAClose: () => void = () => undefined;
    const aCloses = new Promise<void>((resolve) => (letAClose = resolve));
    const adapter: ChannelAdapter = {
      type: 'whatsapp',
      send: async () => ({ channelMessageId: 'never' }),
      sessions: {
        wants: (item) => [a.id, b.id].includes((item as { id?: string }).id ?? ''),
        open(context) {
          opened.push(`${context.run.serviceId === a.id ? 'A' : 'B'} ${context.run.runId}`);
          // A's first session never finishes closing until the test lets it.
          return { stop: () => (context.run.serviceId === a.id && context.run.runId === 'run-1' ? aCloses : Promise.resolve()) };
        },
      },
    };
    const worker = await startChannelWorker({ ...base, channels: channelRegistry([adapter]) }, { ...quick, workerId: 'queues' });
    try {
      await eventually(async () => opened.includes('A run-1'), 4000);
      // A restart of A: its old session's close hangs, so A's change never ends.
      await writeServiceStatus(base.table, a, { status: 'starting', runId: 'run-2', now: new Date().toISOString() });
      const toldA = tellChanged(worker, a.accountId, a.id);
      await new Promise((r) => setTimeout(r, 300));
      // B starts meanwhile, and goes through.
      await writeServiceStatus(base.table, b, { status: 'starting', runId: 'run-1', now: new Date().toISOString() });
      const toldB = tellChanged(worker, b.accountId, b.id);
      await eventually(async () => opened.includes('B run-1'), 3000);
      expect(await toldB).toEqual({ kind: 'done' });
      expect(opened).not.toContain('A run-2');
      // 121 s on, with the scan and the renewal timer still turning: healthy, A's change only noted.
      const later = Date.now() + changeStallMs + 1000;
      const report = livenessOf({ ...worker.heartbeat, scannedAt: later - 1000, renewedAt: later - 100 }, later);
      expect(report.healthy).toBe(true);
      expect(report.problems).toEqual([]);
      letAClose();
      await toldA;
      await eventually(async () => opened.includes('A run-2'), 3000);
    } finally {
      letAClose();
      await worker.stop();
    }
  });
});
