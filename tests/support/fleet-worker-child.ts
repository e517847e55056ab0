/**
 * One channel worker process of a fleet, for the kill test and the fleet bench: the Fargate entry's
 * loops (`runWorkerProcess` with a queue of its own) on the light double (`fleet-double.ts`),
 * pointed by its environment at a local runtime (the runtime's AWS_ENDPOINT_URL_*, TABLE_NAME,
 * DATA_KEY, WORKER_QUEUE_URL). FLEET_WORKER_ID names it, FLEET_CAPACITY bounds it, FLEET_SENT_LOG
 * collects its sends. FLEET_LEASE_SECONDS and FLEET_VISIBILITY_SECONDS (30 s each, the
 * production values, unless set), FLEET_SCAN_SECONDS and FLEET_DRAIN_SECONDS shorten periods for a
 * test. It prints `{"ready":…}` once started and `{"sessions":…}` every second;
 * SIGTERM stops it gracefully; SIGKILL is the crash under test.
 */
import { runWorkerProcess } from '#connectors/worker-queue.ts';
import { defaultPorts, installChannels } from '#lib/ports.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { fleetDouble } from './fleet-double.ts';

const workerId = process.env.FLEET_WORKER_ID ?? `fleet-${process.pid}`;
const double = fleetDouble({ worker: workerId, sentLog: process.env.FLEET_SENT_LOG });
installChannels([double.adapter]);
const seconds = (name: string, fallback: number) => Number(process.env[name]) || fallback;

const running = await runWorkerProcess(defaultPorts(), {
  workerId,
  queueUrl: process.env[workerQueue.urlVariable]!,
  fleet: {
    prefix: `${workerQueue.name}-`,
    visibilityTimeoutSeconds: workerQueue.visibilityTimeoutSeconds,
    drainEverySeconds: seconds('FLEET_DRAIN_SECONDS', 5),
  },
  capacity: Number(process.env.FLEET_CAPACITY) || undefined,
  leaseSeconds: seconds('FLEET_LEASE_SECONDS', 30),
  // How long a command received by a process that died stays out of sight (`commandVisibilitySeconds` unless set).
  ...(process.env.FLEET_VISIBILITY_SECONDS ? { visibilitySeconds: seconds('FLEET_VISIBILITY_SECONDS', 30) } : {}),
  scanEverySeconds: seconds('FLEET_SCAN_SECONDS', 15),
  waitTimeSeconds: 2,
  pace: { intervalMs: 50, jitterMs: 0 },
});
console.log(JSON.stringify({ ready: workerId }));
const report = setInterval(() => console.log(JSON.stringify({ worker: workerId, sessions: running.worker.sessions })), 1000);
process.on('SIGTERM', () => {
  clearInterval(report);
  void running.stop().then(() => process.exit(0));
});
