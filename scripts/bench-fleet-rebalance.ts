/**
 * `npm run bench:fleet-rebalance`: how long the fleet takes to even out when a task joins a loaded
 * fleet (ADR-0203's rebalancing). A local runtime (no worker of its own) and REBALANCE_WORKERS
 * channel workers in this process, each on its own light WhatsApp double (`tests/support/fleet-double.ts`),
 * share REBALANCE_SESSIONS running connections; once they hold them evenly, one more worker starts.
 *
 * The workers run the cloud's timings scaled down: a scan every REBALANCE_SCAN_SECONDS (the cloud
 * scans every 15 s), the lease and its renewals in the cloud's proportions (30 s, every 10 s), the
 * pace of session starts by the same factor. The figures are given in scans (elapsed time over the
 * scan period) and in the cloud's seconds (scans times 15 s):
 *
 * - until evened out: every worker within the slack of the share (most minus fewest at most 2);
 * - sessions that changed hands after the join (the least is what the newcomer ends with);
 * - the newcomer's session starts: most in any cloud-second and any five (logins WhatsApp sees from
 *   the fleet; at this scale a second is a fifth of one, so the table calls between a takeover's
 *   turn and its start bunch a few);
 * - whether anything still moves during 10 more scans (thrashing).
 *
 * REBALANCE_WORKER_MODULE loads another build of the worker (a copy of an earlier
 * `connectors/worker.ts` beside it) to measure it the same way; one that has no `rebalance` option
 * ignores it (the header still prints the settings). Prints the figures;
 * bench/notes/worker-fleet.md keeps them by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { defaultPorts } from '#lib/ports.ts';
import { writeServiceStatus } from '#db/services.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { defaultRebalance } from '#connectors/fleet-placement.ts';
import type { ChannelWorker, ChannelWorkerOptions } from '#connectors/worker.ts';
import { startLocalRuntime } from '../infra/local/runtime/runtime.ts';
import { fleetDouble } from '../tests/support/fleet-double.ts';

const sessions = Number(process.env.REBALANCE_SESSIONS) || 180;
const workerCount = Number(process.env.REBALANCE_WORKERS) || 3;
const scanSeconds = Number(process.env.REBALANCE_SCAN_SECONDS) || 3;
/** The cloud's scan period, which the figures are scaled back to. */
const cloudScanSeconds = 15;
const scale = scanSeconds / cloudScanSeconds;

/** REBALANCE_WORKER_MODULE: another build of the worker to measure (a copy of an earlier `connectors/worker.ts` beside it). */
const { startChannelWorker } = (await import(process.env.REBALANCE_WORKER_MODULE ?? '#connectors/worker.ts')) as typeof import('#connectors/worker.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'bench-rebalance-'));
const runtime = await startLocalRuntime({ port: 0, dataDir, quiet: true, worker: false, channels: [fleetDouble({ worker: 'api' }).adapter] });
const ports = defaultPorts();

/** Session starts, by worker: when each started (ms). */
const starts = new Map<string, number[]>();
const counted = (workerId: string): ChannelAdapter => {
  const { adapter } = fleetDouble({ worker: workerId });
  const list: number[] = [];
  starts.set(workerId, list);
  return {
    ...adapter,
    sessions: {
      ...adapter.sessions!,
      open: (context) => {
        list.push(Date.now());
        return adapter.sessions!.open(context);
      },
    },
  };
};

const workers: ChannelWorker[] = [];
const timing: ChannelWorkerOptions = {
  leaseSeconds: 30 * scale,
  renewEverySeconds: 10 * scale,
  marginSeconds: 10 * scale,
  scanEverySeconds: scanSeconds,
};
/** The takeovers' pace scaled like the scans (REBALANCE_START_EVERY_MS in the cloud's ms; REBALANCE_LET_GO_FRACTION, REBALANCE_LET_GO_PER_SCAN). */
const rebalance = {
  startEveryMs: (Number(process.env.REBALANCE_START_EVERY_MS ?? defaultRebalance.startEveryMs) || 0) * scale,
  letGoFraction: Number(process.env.REBALANCE_LET_GO_FRACTION) || defaultRebalance.letGoFraction,
  letGoPerScan: Number(process.env.REBALANCE_LET_GO_PER_SCAN) || defaultRebalance.letGoPerScan,
};
const paceOf = (options: ChannelWorkerOptions): ChannelWorkerOptions => ({ ...options, rebalance });
/** Each worker may hold what the first ones hold evenly (as the cloud's tasks have a capacity): they start evened out. */
const capacity = Math.ceil(sessions / workerCount);
const start = async (workerId: string) => {
  const worker = await startChannelWorker({ ...ports, channels: channelRegistry([counted(workerId)]) }, paceOf({ ...timing, capacity, workerId }));
  workers.push(worker);
  return worker;
};
const counts = () => workers.map((w) => w.sessions);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitFor = async (check: () => boolean, ms: number): Promise<boolean> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
};
const even = () => {
  const c = counts();
  return c.reduce((a, b) => a + b, 0) === sessions && Math.max(...c) - Math.min(...c) <= 2;
};

try {
  const now = new Date().toISOString();
  const makeOne = async (i: number) => {
    const accountId = `BENCHREBAL${String(i).padStart(6, '0')}`;
    const id = ulid();
    await ports.table.doc.send(
      new PutCommand({
        TableName: ports.table.name,
        Item: {
          ...keys.service(accountId, id),
          type: entityTypes.service,
          id,
          accountId,
          name: `Número ${i + 1}`,
          channelType: 'whatsapp',
          status: 'disconnected',
          statusReason: null,
          tokenSealed: null,
          tokenHint: null,
          createdAt: now,
          updatedAt: now,
        },
      }),
    );
    await writeServiceStatus(ports.table, { accountId, id, channelType: 'whatsapp' }, { status: 'connected', runId: `run-${i}`, now });
  };
  for (let i = 0; i < sessions; i += 25) await Promise.all(Array.from({ length: Math.min(25, sessions - i) }, (_, k) => makeOne(i + k)));

  // The loaded fleet: all started together, then evened out.
  await Promise.all(Array.from({ length: workerCount }, (_, i) => start(`rebal-${i + 1}`)));
  if (!(await waitFor(even, 600_000))) throw new Error(`the first ${workerCount} workers did not even out: ${counts().join(' ')}`);
  await sleep(3 * scanSeconds * 1000);
  const before = counts();
  const startsBefore = [...starts.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(`${workerCount} workers hold ${sessions} sessions: ${before.join(' ')}`);

  const joined = Date.now();
  const newcomer = `rebal-${workerCount + 1}`;
  await start(newcomer);
  const evened = await waitFor(even, 600_000);
  const evenMs = Date.now() - joined;
  const after = counts();
  // Ten more scans: nothing should change hands.
  const startsAtEven = [...starts.values()].reduce((sum, list) => sum + list.length, 0);
  await sleep(10 * scanSeconds * 1000);
  const startsLater = [...starts.values()].reduce((sum, list) => sum + list.length, 0);
  const settled = counts();

  const theirs = starts.get(newcomer)!;
  const cloudSecondMs = 1000 * scale;
  const most = (windowMs: number) => Math.max(0, ...theirs.map((t, i) => theirs.slice(i).filter((u) => u < t + windowMs).length));
  const scans = evenMs / (scanSeconds * 1000);
  const lines = [
    `${workerCount} workers holding ${sessions} sessions (${before.join(', ')}); a worker joins (scan every ${scanSeconds} s here, figures scaled to the cloud's 15 s; let go ${rebalance.letGoFraction} of the excess, at most ${rebalance.letGoPerScan} a scan; takeovers ${Math.round(rebalance.startEveryMs / scale)} cloud-ms apart):`,
    `- evened out: ${evened ? `${scans.toFixed(1)} scans (${(evenMs / 1000).toFixed(1)} s here, about ${Math.round(scans * cloudScanSeconds)} s in the cloud)` : `not within 10 min (${after.join(', ')})`}: ${after.join(', ')}`,
    `- sessions that changed hands: ${startsAtEven - startsBefore} (the newcomer holds ${after.at(-1)})`,
    `- the newcomer's session starts: ${theirs.length}, at most ${most(cloudSecondMs)} in one cloud-second and ${most(5 * cloudSecondMs)} in five, the last ${((theirs.at(-1)! - joined) / 1000 / scale).toFixed(0)} cloud-seconds after the join`,
    `- during 10 more scans: ${startsLater - startsAtEven} more changed hands; counts ${settled.join(', ')}`,
  ];
  console.log(lines.join('\n'));
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
