/**
 * The channel worker's process in the cloud: the entry of the Fargate service's container
 * (`connectors/Dockerfile` bundles this file). Locally `npm start` hosts its own worker instead
 * (`infra/local/runtime/runtime.ts`); nothing here runs there.
 *
 * It builds the production ports (`defaultPorts()`, as the Lambda functions do: TABLE_NAME,
 * BUCKET_NAME, the data key through DATA_KEY_ARN), starts the generic channel worker (leases in
 * the table, so several tasks never hold one session twice), answers liveness on loopback for the
 * container health check, and on SIGTERM (ECS stopping the task: a deploy, a scale-in, a failed
 * health check) or SIGINT stops gracefully: the queue loop first, then every session, then their
 * leases, so the next task takes them over at its next scan. See ADR-0081.
 */
import { randomUUID } from 'node:crypto';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { count, metrics } from '#lib/observability.ts';
import { defaultPorts, installChannels } from '#lib/ports.ts';
import { secretBytes } from '#lib/signing-secret.ts';
import { livenessOf, serveLiveness } from './liveness.ts';
import { mainConfig } from './main-config.ts';
import type { MainConfig } from './main-config.ts';
import { type ChannelWorker, startChannelWorker, type WorkerEvents } from './worker.ts';
import { workerChannels } from './worker-channels.ts';
import { runWorkerProcess } from './worker-queue.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import type { SessionEvents } from './whatsapp/session.ts';
import { waWebVersionSource } from './whatsapp/version.ts';

/**
 * The worker and its queue loops: this process consumes the worker queue
 * (`functions/queues/worker-queue.ts`, URL in WORKER_QUEUE_URL): connection changes, WhatsApp sends
 * and logouts for the sessions it holds. In a fleet (WORKER_FLEET_PREFIX) it has a queue of its
 * own and routes the shared one (ADR-0203); alone, commands for
 * sessions another task holds are handed back. Without a URL (a process started by hand) it
 * follows the table through its scan only, and says so.
 */
async function startWorker(
  ports: ReturnType<typeof defaultPorts>,
  config: MainConfig,
  workerId: string,
): Promise<{ worker: ChannelWorker; stop(): Promise<void>; oldestCommandSeconds?(now?: number): number }> {
  const options = { workerId, capacity: config.capacity, sendCaps: config.sendCaps, events: countedEvents };
  if (!config.queueUrl) {
    console.warn('[main] WORKER_QUEUE_URL is not set: no commands will reach this worker, only its scan');
    const worker = await startChannelWorker(ports, options);
    return { worker, stop: () => worker.stop() };
  }
  const { fleet } = config;
  return runWorkerProcess(ports, {
    ...options,
    queueUrl: config.queueUrl,
    fleet: fleet && {
      prefix: fleet.prefix,
      visibilityTimeoutSeconds: workerQueue.visibilityTimeoutSeconds,
      deadLetter: fleet.deadLetterArn ? { arn: fleet.deadLetterArn, maxReceiveCount: workerQueue.maxReceiveCount } : undefined,
    },
  });
}

/** The ECS task id (from the task metadata endpoint), so a lease names the task that holds it; a random id elsewhere. */
async function taskWorkerId(): Promise<string> {
  const endpoint = process.env.ECS_CONTAINER_METADATA_URI_V4;
  if (endpoint) {
    try {
      const task = (await (await fetch(`${endpoint}/task`, { signal: AbortSignal.timeout(2000) })).json()) as { TaskARN?: string };
      const taskId = task.TaskARN?.split('/').pop();
      if (taskId) return `task-${taskId}`;
    } catch (error) {
      console.warn('[main] the task metadata endpoint did not answer; using a random worker id', error);
    }
  }
  return `worker-${randomUUID()}`;
}

/**
 * The functions' business metrics, counted here too: Powertools prints each as an EMF line on
 * stdout, and the worker's log group turns those lines into the same metrics with metric filters
 * (CloudWatch extracts EMF by itself only from Lambda; infra/constructs/channel-worker.ts).
 */
const countedEvents: WorkerEvents = {
  sendAnswered: (answer) => count(answer.sent ? 'MessagesSent' : 'MessagesFailed', { channel: answer.channel ?? 'none' }),
  messageStored: (channel) => count('InboundMessages', { channel }),
  // The fleet's load, for the service's autoscaling (infra/constructs/channel-worker.ts, FLEET_LOAD_METRIC).
  fleetCounted: ({ wanted, live, capacity }) => {
    if (capacity === null) return;
    const single = metrics.singleMetric();
    single.addMetric('FleetLoad', MetricUnit.Percent, Math.round((wanted / (Math.max(1, live) * capacity)) * 1000) / 10);
  },
};

/**
 * WhatsApp closes that end a session (banned, locked, a retired WhatsApp Web version…) and every
 * 500, as `WhatsAppDisconnects` by `reason`: the stack alarms on a retired version at once and on
 * bans in numbers (infra/constructs/operations.ts).
 */
const whatsappEvents: SessionEvents = {
  disconnected: (kind) => {
    const single = metrics.singleMetric();
    single.addDimension('reason', kind);
    single.addMetric('WhatsAppDisconnects', MetricUnit.Count, 1);
  },
};

async function main(): Promise<void> {
  const config = mainConfig(process.env);
  // The current WhatsApp Web version, asked for now (in the background, bounded, cached; Baileys' own when it cannot be had).
  const version = waWebVersionSource({ pinned: config.whatsappWebVersion });
  void version.current().then(({ version: v, origin }) => console.log(`[main] WhatsApp Web ${v.join('.')} (${origin})`));
  // The worker's adapters: WhatsApp with its sessions and the sends through their sockets.
  installChannels(workerChannels({ version, events: whatsappEvents }));
  const ports = defaultPorts();
  // Read the data key now: a task that may not read it fails its start, not its first session.
  await secretBytes('DATA_KEY');

  const workerId = await taskWorkerId();
  const running = await startWorker(ports, config, workerId);
  const { worker } = running;
  const liveness = await serveLiveness(() => livenessOf(worker.heartbeat, Date.now()), config.livenessPort);
  // The age of the oldest command this task holds or received in the last minute, as
  // `WorkerCommandAge` (infra/constructs/channel-worker.ts, WORKER_COMMAND_AGE_METRIC): the own
  // queues are made at run time, so CloudWatch has no alarm of the template on their
  // ApproximateAgeOfOldestMessage; the stack alarms on this instead (`WorkerCommandsStuck`).
  const { oldestCommandSeconds } = running;
  if (oldestCommandSeconds) {
    const ageTimer = setInterval(() => {
      const single = metrics.singleMetric();
      single.addMetric('WorkerCommandAge', MetricUnit.Seconds, oldestCommandSeconds());
    }, 60_000);
    ageTimer.unref();
  }
  console.log(
    `[main] channel worker ${workerId} started: ${worker.sessions} sessions, capacity ${config.capacity ?? 'unlimited'}, liveness on 127.0.0.1:${config.livenessPort}`,
  );

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    console.log(`[main] ${signal}: stopping ${worker.sessions} sessions`);
    const giveUp = setTimeout(() => {
      console.error(`[main] the graceful stop took over ${config.stopGraceSeconds} s; exiting with the leases left to expire`);
      process.exit(1);
    }, config.stopGraceSeconds * 1000);
    giveUp.unref();
    try {
      // Nothing new for this process once it is leaving; then the sessions close and their leases go,
      // and in a fleet its own queue is emptied into the other tasks' and deleted.
      await running.stop();
      liveness.close();
      console.log(`[main] stopped in ${Date.now() - started} ms`);
      process.exit(0);
    } catch (error) {
      console.error('[main] the graceful stop failed', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
  // A stray rejection inside one session (Baileys ends sockets noisily) must not drop every other
  // session: log it and go on. The liveness check catches a worker that stalls.
  process.on('unhandledRejection', (reason) => console.error('[main] unhandled rejection', reason));
}

main().catch((error: unknown) => {
  console.error('[main]', error instanceof Error ? error.message : error);
  process.exit(1);
});
