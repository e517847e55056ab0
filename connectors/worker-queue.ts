/**
 * The channel worker's side of its queue (`functions/queues/worker-queue.ts`, SQS FIFO, one group
 * per connection): long-polls ReceiveMessage, runs each command through the worker (`worker.run`)
 * and answers SQS as the send queue's consumer answers Lambda:
 *
 * - done: DeleteMessage.
 * - `later` (the channel asked to wait) or a failure (2, 4, 8 ... s by receive count, at most
 *   5 minutes, `backoffSeconds`): ChangeMessageVisibility to that wait; the rest of the group's
 *   commands in this batch are not run and wait as long, so the group keeps its order.
 * - `elsewhere` (another live worker holds the session): ChangeMessageVisibility to `handBackSeconds`
 *   (1 s), with the rest of the group, so the holder receives them next.
 *
 * Groups of one batch run side by side, a group's commands one after another; SQS delivers nothing
 * more of a group while one of its commands is in flight, so a connection's commands never overlap.
 * The loop keeps receiving while commands run (up to `maxGroups` groups at once), so a connection
 * whose sends wait for their pace holds up no other connection.
 */
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { workerCommandSchema } from '#domain/channels/worker-commands.ts';
import { backoffSeconds } from '#domain/messages/dispatch.ts';
import type { Ports } from '#domain/ports.ts';
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
}

export interface WorkerQueueLoop {
  /** Stops receiving, then waits for the commands under way to finish. */
  stop(): Promise<void>;
}

const receiveCountOf = (message: Message) => Number(message.Attributes?.ApproximateReceiveCount) || 1;

export function startWorkerQueue(worker: ChannelWorker, options: WorkerQueueOptions): WorkerQueueLoop {
  const sqs = options.client ?? new SQSClient({});
  const { queueUrl } = options;
  const waitTimeSeconds = options.waitTimeSeconds ?? 20;
  const handBackSeconds = options.handBackSeconds ?? 1;
  const maxGroups = options.maxGroups ?? 40;
  const abort = new AbortController();
  const running = new Set<Promise<void>>();
  let stopping = false;

  const hide = (message: Message, seconds: number) =>
    sqs.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: Math.max(0, Math.ceil(seconds)) }),
    );

  /** One command: what the worker made of it, as a wait in seconds (null: done). */
  const runOne = async (message: Message): Promise<number | null> => {
    const parsed = workerCommandSchema.safeParse(JSON.parse(message.Body ?? 'null'));
    if (!parsed.success) {
      // A body no worker can read never gets better; keeping it would hold its connection's group.
      console.error(`[worker-queue] command ${message.MessageId} is malformed and is dropped`, message.Body, parsed.error.issues);
      return null;
    }
    const receiveCount = receiveCountOf(message);
    let outcome: CommandOutcome;
    try {
      outcome = await worker.run(parsed.data, { receiveCount, enqueuedAt: new Date(Number(message.Attributes?.SentTimestamp) || Date.now()) });
    } catch (error) {
      console.error(`[worker-queue] command ${message.MessageId} (${parsed.data.kind}) failed`, error);
      return backoffSeconds(receiveCount);
    }
    if (outcome.kind === 'later') return outcome.seconds;
    if (outcome.kind === 'elsewhere') return handBackSeconds;
    return null;
  };

  /** A group's commands of one batch, in order; after the first that must wait, the rest wait as long. */
  const runGroup = async (messages: Message[]) => {
    for (const [i, message] of messages.entries()) {
      let wait: number | null;
      try {
        wait = await runOne(message);
      } catch (error) {
        console.error(`[worker-queue] command ${message.MessageId} could not be read`, error);
        wait = null;
      }
      try {
        if (wait === null) {
          await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
          continue;
        }
        const seconds = wait;
        await Promise.all(messages.slice(i).map((rest) => hide(rest, seconds)));
      } catch (error) {
        // Not fatal: the command comes back when its visibility timeout ends (a done one runs again, and finds nothing left to do).
        console.error(`[worker-queue] could not answer SQS for command ${message.MessageId}`, error);
      }
      return;
    }
  };

  const receive = async (): Promise<Message[]> => {
    const { Messages } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: waitTimeSeconds,
        MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp', 'MessageGroupId'],
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
        console.error('[worker-queue] ReceiveMessage failed', error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** failures, 30_000)));
        continue;
      }
      const groups = new Map<string, Message[]>();
      for (const message of messages) {
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
  };
}

export interface WorkerProcessOptions extends ChannelWorkerOptions, Omit<WorkerQueueOptions, 'queueUrl'> {
  /** The worker queue's URL (`WORKER_QUEUE_URL`). */
  queueUrl: string;
}

export interface WorkerProcess {
  worker: ChannelWorker;
  /** Graceful stop (SIGTERM): stops receiving, finishes the commands under way, then stops every session and releases its lease. */
  stop(): Promise<void>;
}

/**
 * The channel worker of a process (the Fargate task, the local runtime): sessions, leases and scan
 * (`startChannelWorker`), plus the loop that runs the worker queue's commands. `ports` must carry
 * the worker's channel adapters (`installChannels(workerChannels())` before `defaultPorts()`).
 */
export async function runWorkerProcess(ports: Ports, options: WorkerProcessOptions): Promise<WorkerProcess> {
  const worker = await startChannelWorker(ports, options);
  const queue = startWorkerQueue(worker, options);
  let stopped: Promise<void> | undefined;
  return {
    worker,
    stop() {
      stopped ??= (async () => {
        await queue.stop();
        await worker.stop();
      })();
      return stopped;
    },
  };
}
