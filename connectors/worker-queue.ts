/**
 * The channel worker's side of its queue (`functions/queues/worker-queue.ts`, SQS FIFO, one group
 * per connection): long-polls ReceiveMessage, runs each command through the worker (`worker.run`)
 * and answers SQS as the send queue's consumer answers Lambda:
 *
 * - done: DeleteMessage.
 * - `later` (the channel asked to wait) or a failure (2, 4, 8 ... s by receive count, at most
 *   5 minutes, `backoffSeconds`): ChangeMessageVisibility to that wait; the rest of the group's
 *   commands in this batch are not run and wait as long, so the group keeps its order.
 * - `elsewhere` (another live worker holds the session): in a fleet (`fleet`), routed again to the
 *   holder's own queue (`connectors/fleet-queues.ts`) and deleted here; alone, ChangeMessageVisibility
 *   to `handBackSeconds` (1 s), with the rest of the group, so the holder receives them next.
 *
 * In a fleet a process runs two such loops (`runWorkerProcess`): one on its own queue, running the
 * commands, and one on the shared queue, only routing each command to the queue of the worker that
 * should run it (the holder of its connection's lease, or the live worker with the most room), so
 * no worker receives the commands of the others (ADR-0203).
 *
 * Groups of one batch run side by side, a group's commands one after another; SQS delivers nothing
 * more of a group while one of its commands is in flight, so a connection's commands never overlap.
 *
 * Visibility (ADR-0205): commands are received for
 * `visibilitySeconds` (30 s, not the queue's 120 s), and while a group's commands of a batch are
 * still unanswered, a heartbeat pushes their visibility out again every third of that
 * (ChangeMessageVisibility), so a command that runs long (a large media send) is never received a
 * second time, and one held by a process that died comes back to another within 30 s. A command's
 * heartbeat stops before it is answered (deleted, or hidden for its backoff or hand-back), so it
 * never overrides that answer.
 * The loop keeps receiving while commands run (up to `maxGroups` groups at once), so a connection
 * whose sends wait for their pace holds up no other connection.
 */
import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { backoffSeconds } from '#domain/messages/dispatch.ts';
import type { Ports } from '#domain/ports.ts';
import { type FleetQueues, fleetAttributes, fleetQueues, readCommand } from './fleet-queues.ts';
import { type ChannelWorker, type ChannelWorkerOptions, type CommandOutcome, startChannelWorker } from './worker.ts';

export interface WorkerQueueOptions {
  queueUrl: string;
  /** @default an SQS client from the environment (AWS_ENDPOINT_URL_SQS locally) */
  client?: SQSClient;
  /** Long polling: how long one ReceiveMessage waits for commands. @default 20 (the longest SQS allows) */
  waitTimeSeconds?: number;
  /** How long a command for a session another worker holds stays out of sight before it is received again. @default 1 */
  handBackSeconds?: number;
  /** Groups (connections) whose commands run at once, at most. @default 40 */
  maxGroups?: number;
  /** The fleet's queues: commands for a session another worker holds are routed to it, not handed back. */
  fleet?: FleetQueues;
  /**
   * How long a received command stays out of sight at first, and again at each heartbeat (every
   * third of it) while it is unanswered. @default `commandVisibilitySeconds` (30)
   */
  visibilitySeconds?: number;
}

/**
 * A received command's visibility, renewed by the heartbeat while it runs: the time within which a
 * command held by a process that died comes back. 30 s, the leases' and beats' expiry: a dead
 * worker's queue is drained only once its beat has expired, so a shorter visibility would bring
 * nothing back sooner; a heartbeat every 10 s may fail twice before the command is at risk.
 */
export const commandVisibilitySeconds = 30;

/** How long a command with no live worker to go to (none has room) waits before it is routed again. */
const nowhereSeconds = 5;

/**
 * Routes a command, logging a failure as `[fleet] routing failed` (the stack counts those lines and
 * alarms on them: docs/runbooks/taking-a-worker-out.md); answers the wait before it is tried again (null: routed).
 */
async function routeOrWait(fleet: FleetQueues, message: Message, sourceUrl: string, exclude?: ReadonlySet<string>): Promise<number | null> {
  try {
    const routed = await fleet.route(message, sourceUrl, exclude);
    if (routed.kind === 'forwarded') return null;
    console.error(`[fleet] routing failed: command ${message.MessageId} has no live worker with room to go to; again in ${nowhereSeconds} s`);
    return nowhereSeconds;
  } catch (error) {
    console.error(`[fleet] routing failed: command ${message.MessageId}`, error);
    return backoffSeconds(receiveCountOf(message));
  }
}

export interface WorkerQueueLoop {
  /** Stops receiving, then waits for the commands under way to finish. */
  stop(): Promise<void>;
  /**
   * How long the oldest command this loop holds (received, not yet answered) has been in its queue,
   * in seconds, or how long one received since the last call had been there when it was received,
   * if that is longer; 0 when none.
   * Published as `WorkerCommandAge` (connectors/main.ts), alarmed on as `WorkerCommandsStuck`.
   */
  oldestCommandSeconds(now?: number): number;
}

const receiveCountOf = (message: Message) => Number(message.Attributes?.ApproximateReceiveCount) || 1;

export function startWorkerQueue(worker: ChannelWorker, options: WorkerQueueOptions): WorkerQueueLoop {
  const sqs = options.client ?? new SQSClient({});
  const { queueUrl, fleet } = options;
  const handBackSeconds = options.handBackSeconds ?? 1;
  /** A command for a session another worker holds (or for which this one has no room): to that worker's queue, deleted here. */
  const elsewhere = async (message: Message): Promise<number | null> => {
    if (!fleet) return handBackSeconds;
    return routeOrWait(fleet, message, queueUrl, new Set([worker.workerId]));
  };

  /** One command: what the worker made of it, as a wait in seconds (null: done). */
  const runOne = async (message: Message): Promise<number | null> => {
    const received = readCommand(message);
    if (!received) {
      // A body no worker can read never gets better; keeping it would hold its connection's group.
      console.error(`[worker-queue] command ${message.MessageId} is malformed and is dropped`, message.Body);
      return null;
    }
    const receiveCount = receiveCountOf(message);
    let outcome: CommandOutcome;
    try {
      outcome = await worker.run(received.command, { receiveCount, enqueuedAt: new Date(received.sentAt) });
    } catch (error) {
      console.error(`[worker-queue] command ${message.MessageId} (${received.command.kind}) failed`, error);
      return backoffSeconds(receiveCount);
    }
    if (outcome.kind === 'later') return outcome.seconds;
    if (outcome.kind === 'elsewhere') return elsewhere(message);
    return null;
  };
  return pollQueue({ ...options, sqs, runOne, onMissing: fleet ? () => fleet.create(worker.workerId).then(() => undefined) : undefined });
}

/**
 * The shared queue's loop in a fleet: every command goes to the queue of the worker that should run
 * it, in its group's order; none runs here. With no live worker to take it, the group waits 5 s.
 */
export function startRouterQueue(fleet: FleetQueues, options: Omit<WorkerQueueOptions, 'fleet' | 'handBackSeconds'>): WorkerQueueLoop {
  const sqs = options.client ?? new SQSClient({});
  const runOne = async (message: Message): Promise<number | null> => {
    if (!readCommand(message)) {
      console.error(`[worker-queue] command ${message.MessageId} is malformed and is dropped`, message.Body);
      return null;
    }
    return routeOrWait(fleet, message, options.queueUrl);
  };
  return pollQueue({ ...options, sqs, runOne });
}

interface PollOptions extends Omit<WorkerQueueOptions, 'client' | 'fleet' | 'handBackSeconds'> {
  sqs: SQSClient;
  /** What became of one message, as a wait in seconds (null: delete it); a throw counts as a failure (backoff). */
  runOne(message: Message): Promise<number | null>;
  /** The queue is gone (deleted under a worker thought dead): make it again. */
  onMissing?: () => Promise<void>;
}

/** Long-polls a queue and answers SQS for each message as `runOne` says, groups side by side, a group's messages in order. */
function pollQueue(options: PollOptions): WorkerQueueLoop {
  const { sqs, queueUrl, runOne } = options;
  const waitTimeSeconds = options.waitTimeSeconds ?? 20;
  const maxGroups = options.maxGroups ?? 40;
  const visibilitySeconds = options.visibilitySeconds ?? commandVisibilitySeconds;
  if (!Number.isInteger(visibilitySeconds) || visibilitySeconds < 1)
    throw new Error(`visibilitySeconds must be a whole number of seconds, at least 1, not ${visibilitySeconds}`);
  const abort = new AbortController();
  const running = new Set<Promise<void>>();
  let stopping = false;
  /** Commands received and not yet answered, by message id: when each was sent to this queue (epoch ms). */
  const held = new Map<string, number>();
  /** The longest a command received since `oldestCommandSeconds` last answered had been in the queue when it was received (ms). */
  let oldestReceivedMs = 0;

  const hide = (message: Message, seconds: number) =>
    sqs.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: Math.max(0, Math.ceil(seconds)) }),
    );

  /**
   * Keeps a group's unanswered commands out of sight while they wait or run: every third of the
   * visibility, their visibility is set to the whole of it again. A command is taken off (`release`)
   * before it is answered, and the answer waits for a renewal under way, so a late renewal never
   * undoes a deletion's or a backoff's visibility.
   */
  const heartbeat = (messages: Message[]) => {
    const pending = new Map(messages.map((m) => [m.ReceiptHandle ?? '', m]));
    let beating: Promise<unknown> = Promise.resolve();
    const beat = () => {
      beating = Promise.all(
        [...pending.values()].map((message) =>
          hide(message, visibilitySeconds).catch((error) => {
            // ReceiptHandleIsInvalid, MessageNotInflight: its visibility ended before this renewal
            // (the process stalled) and it may be running elsewhere; nothing more to renew.
            if (!pending.delete(message.ReceiptHandle ?? '')) return;
            console.error(`[worker-queue] could not keep command ${message.MessageId} in flight; it may be received again`, error);
          }),
        ),
      );
    };
    const timer = setInterval(beat, (visibilitySeconds * 1000) / 3);
    return {
      /** Takes commands off the heartbeat; resolves once no renewal of theirs is under way. */
      async release(done: Message[]) {
        for (const m of done) {
          pending.delete(m.ReceiptHandle ?? '');
          held.delete(m.MessageId ?? '');
        }
        if (!pending.size) clearInterval(timer);
        await beating;
      },
      stop() {
        pending.clear();
        clearInterval(timer);
      },
    };
  };

  /** A group's commands of one batch, in order; after the first that must wait, the rest wait as long. */
  const runGroup = async (messages: Message[]) => {
    const beats = heartbeat(messages);
    try {
      for (const [i, message] of messages.entries()) {
        let wait: number | null;
        try {
          wait = await runOne(message);
        } catch (error) {
          console.error(`[worker-queue] command ${message.MessageId} could not be handled`, error);
          wait = backoffSeconds(receiveCountOf(message));
        }
        try {
          if (wait === null) {
            await beats.release([message]);
            await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
            continue;
          }
          const seconds = wait;
          const rest = messages.slice(i);
          await beats.release(rest);
          await Promise.all(rest.map((m) => hide(m, seconds)));
        } catch (error) {
          // Not fatal: the command comes back when its visibility timeout ends (a done one runs again, and finds nothing left to do).
          console.error(`[worker-queue] could not answer SQS for command ${message.MessageId}`, error);
        }
        return;
      }
    } finally {
      beats.stop();
      for (const m of messages) held.delete(m.MessageId ?? '');
    }
  };

  const receive = async (): Promise<Message[]> => {
    const { Messages } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: waitTimeSeconds,
        VisibilityTimeout: visibilitySeconds,
        MessageSystemAttributeNames: [...fleetAttributes],
      }),
      { abortSignal: abort.signal },
    );
    return Messages ?? [];
  };

  const loop = async () => {
    let failures = 0;
    while (!stopping) {
      if (running.size >= maxGroups) {
        await Promise.race(running);
        continue;
      }
      let messages: Message[];
      try {
        messages = await receive();
        failures = 0;
      } catch (error) {
        if (stopping) break;
        failures++;
        const missing = (error as { name?: string }).name === 'QueueDoesNotExist';
        if (missing && options.onMissing) {
          console.warn(`[worker-queue] ${queueUrl} is gone; making it again`);
          await options.onMissing().catch((e) => console.error('[worker-queue] making the queue again failed', e));
        } else console.error('[worker-queue] ReceiveMessage failed', error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** failures, 30_000)));
        continue;
      }
      const groups = new Map<string, Message[]>();
      for (const message of messages) {
        const sentAt = Number(message.Attributes?.SentTimestamp) || Date.now();
        held.set(message.MessageId ?? '', sentAt);
        oldestReceivedMs = Math.max(oldestReceivedMs, Date.now() - sentAt);
        const group = message.Attributes?.MessageGroupId ?? '';
        groups.set(group, [...(groups.get(group) ?? []), message]);
      }
      for (const group of groups.values()) {
        const run: Promise<void> = runGroup(group).finally(() => running.delete(run));
        running.add(run);
      }
    }
  };
  const looping = loop();

  return {
    async stop() {
      stopping = true;
      abort.abort();
      await looping;
      await Promise.allSettled([...running]);
    },
    oldestCommandSeconds(now = Date.now()) {
      const oldestHeld = Math.min(now, ...held.values());
      const ms = Math.max(oldestReceivedMs, now - oldestHeld);
      oldestReceivedMs = 0;
      return Math.max(0, Math.round(ms / 1000));
    },
  };
}

export interface WorkerProcessOptions extends ChannelWorkerOptions, Omit<WorkerQueueOptions, 'queueUrl' | 'fleet'> {
  /** The worker queue's URL (`WORKER_QUEUE_URL`). */
  queueUrl: string;
  /** Run as one worker of a fleet: a queue of its own, the shared queue routed (ADR-0203). Without it, the shared queue is run with hand-backs. */
  fleet?: FleetSettings;
}

export interface FleetSettings {
  /** Own queues are named `<prefix><worker id>.fifo`. */
  prefix: string;
  /** Own queues' visibility timeout (the shared queue's). */
  visibilityTimeoutSeconds: number;
  /** Own queues' redrive (the shared queue's dead-letter queue), when there is one. */
  deadLetter?: { arn: string; maxReceiveCount: number };
  /** How often dead workers' queues are looked for and drained. @default 15 */
  drainEverySeconds?: number;
  /**
   * At a graceful stop, how long after the leases are released this worker waits before emptying
   * its own queue: a command routed here just before the release lands first. @default 1000
   */
  settleMs?: number;
}

export interface WorkerProcess {
  worker: ChannelWorker;
  /** The oldest command its loops hold or received since the last call, in seconds (`WorkerQueueLoop.oldestCommandSeconds`). */
  oldestCommandSeconds(now?: number): number;
  /** Graceful stop (SIGTERM): stops receiving, finishes the commands under way, then stops every session and releases its lease; in a fleet, then empties its own queue into the others' and deletes it. */
  stop(): Promise<void>;
}

/**
 * The channel worker of a process (the Fargate task, the local runtime): sessions, leases and scan
 * (`startChannelWorker`), plus the loops that run the worker queue's commands. `ports` must carry
 * the worker's channel adapters (`installChannels(workerChannels())` before `defaultPorts()`).
 */
export async function runWorkerProcess(ports: Ports, options: WorkerProcessOptions): Promise<WorkerProcess> {
  const settings = options.fleet;
  if (!settings) {
    const worker = await startChannelWorker(ports, options);
    const queue = startWorkerQueue(worker, { ...options, fleet: undefined });
    let stopped: Promise<void> | undefined;
    return {
      worker,
      oldestCommandSeconds: (now) => queue.oldestCommandSeconds(now),
      stop() {
        stopped ??= (async () => {
          await queue.stop();
          await worker.stop();
        })();
        return stopped;
      },
    };
  }
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const client = options.client ?? new SQSClient({});
  const fleet = fleetQueues({ sqs: client, table: ports.table, sharedUrl: options.queueUrl, ...settings });
  // The queue before the first beat: a command placed on this worker has somewhere to land.
  const ownUrl = await fleet.create(workerId);
  const worker = await startChannelWorker(ports, { ...options, workerId });
  const own = startWorkerQueue(worker, { ...options, client, queueUrl: ownUrl, fleet });
  const router = startRouterQueue(fleet, { ...options, client });
  const drainMs = (settings.drainEverySeconds ?? 15) * 1000;
  let draining = Promise.resolve();
  const drainTimer = setInterval(() => {
    draining = draining
      .then(() => fleet.drainDead(workerId))
      .then(
        () => undefined,
        (error) => console.error('[fleet] routing failed: draining a dead worker’s queue', error),
      );
  }, drainMs);
  drainTimer.unref();
  let stopped: Promise<void> | undefined;
  return {
    worker,
    oldestCommandSeconds: (now) => Math.max(own.oldestCommandSeconds(now), router.oldestCommandSeconds(now)),
    stop() {
      stopped ??= (async () => {
        clearInterval(drainTimer);
        await router.stop();
        await own.stop();
        await draining;
        await worker.stop(async () => {
          await new Promise((resolve) => setTimeout(resolve, settings.settleMs ?? 1000));
          const { moved, inFlight } = await fleet.drain(workerId);
          // Nothing is in flight once the loops have stopped; should something be, the queue stays for another worker's drain.
          if (inFlight) throw new Error(`${inFlight} commands are still in flight in ${workerId}'s queue`);
          await fleet.remove(workerId);
          if (moved) console.log(`[fleet] ${workerId}: ${moved} commands of its queue routed to the other workers`);
        });
      })();
      return stopped;
    },
  };
}
