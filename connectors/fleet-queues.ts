/**
 * The fleet's queues (ADR-0203): besides the shared worker queue
 * that the producers write to, each worker process has a FIFO queue of its own, made when it
 * starts (named from the fleet's prefix and its worker id), deleted when it stops, and drained by
 * another worker when it died. A command reaches the worker that runs it through `route`: to the
 * holder of its connection's live lease, or, when nobody holds it, to the live worker with the most
 * room (`placement`), in the same message group, so a connection's commands stay in order within
 * each queue.
 *
 * A forwarded command is wrapped (`{ forwarded: { sentAt }, command }`): the time it was first
 * queued rides with it, so dispatch's bounds count from there and not from the last hop. Its
 * deduplication id on the next queue is derived from the copy it came from (its queue and
 * sequence number), so a forward repeated after a crash is queued once, and a command routed back
 * to a queue it once passed through is not taken for a repeat.
 */
import { createHash } from 'node:crypto';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { z } from 'zod';
import type { Table } from '#db/client.ts';
import { readLease } from '#db/leases.ts';
import { claimDrain, deleteWorkerBeat, listWorkerBeats, releaseDrain, type WorkerBeatItem } from '#db/worker-beats.ts';
import { commandConnection, type WorkerCommand, workerCommandSchema } from '#domain/channels/worker-commands.ts';
import { placement } from './fleet-placement.ts';

/** The system attributes every fleet receive asks for. */
export const fleetAttributes = ['ApproximateReceiveCount', 'SentTimestamp', 'MessageGroupId', 'MessageDeduplicationId', 'SequenceNumber'] as const;

/** The longest own-queue name part before `.fifo` (SQS: 80 characters with the suffix). */
const maxStem = 75;

/** A worker's own queue name: the fleet's prefix and its worker id, in the characters SQS allows. */
export function ownQueueName(prefix: string, workerId: string): string {
  return `${`${prefix}${workerId}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, maxStem)}.fifo`;
}

const forwardedSchema = z.object({ forwarded: z.object({ sentAt: z.number().int().nonnegative() }), command: workerCommandSchema });

/** A received command: what it asks, and when it was first queued (epoch ms). */
export interface ReceivedCommand {
  command: WorkerCommand;
  sentAt: number;
}

/** Reads a body of the shared queue (a command) or of an own queue (a forwarded command); undefined when it is neither. */
export function readCommand(message: Message): ReceivedCommand | undefined {
  let body: unknown;
  try {
    body = JSON.parse(message.Body ?? 'null');
  } catch {
    return undefined;
  }
  const forwarded = forwardedSchema.safeParse(body);
  if (forwarded.success) return { command: forwarded.data.command, sentAt: forwarded.data.forwarded.sentAt };
  const plain = workerCommandSchema.safeParse(body);
  return plain.success ? { command: plain.data, sentAt: Number(message.Attributes?.SentTimestamp) || Date.now() } : undefined;
}

const isMissingQueue = (error: unknown) => {
  const name = (error as { name?: string })?.name;
  return name === 'QueueDoesNotExist' || name === 'AWS.SimpleQueueService.NonExistentQueue';
};

export interface FleetQueuesOptions {
  sqs: SQSClient;
  table: Table;
  /** The shared worker queue's URL; own queues live beside it (same account and region). */
  sharedUrl: string;
  /** Own queues are named `<prefix><worker id>.fifo` (the cloud's IAM allows CreateQueue and DeleteQueue on that prefix only). */
  prefix: string;
  /** Own queues' visibility timeout (the shared queue's). */
  visibilityTimeoutSeconds: number;
  /** Own queues' redrive: the dead-letter queue's ARN and receives before it, when there is one. */
  deadLetter?: { arn: string; maxReceiveCount: number };
  /** How long a read of the beats serves routing decisions. @default 2000 */
  beatsCacheMs?: number;
}

/** What became of a command given to `route`: sent to a worker's queue, or nowhere to go yet (no live worker with room; try again soon). */
export type RouteOutcome = { kind: 'forwarded'; to: string } | { kind: 'nowhere' };

export interface FleetQueues {
  urlOf(workerId: string): string;
  /** Makes a worker's own queue (again, if it was deleted); answers its URL. */
  create(workerId: string): Promise<string>;
  /** Deletes a worker's own queue; a queue already gone is not an error. */
  remove(workerId: string): Promise<void>;
  /** Sends a received command to the queue of the worker that should run it; `exclude`: workers not to place it on (the one giving it up). */
  route(message: Message, sourceUrl: string, exclude?: ReadonlySet<string>): Promise<RouteOutcome>;
  /**
   * Moves every command of a queue through `route` (its worker is gone), in each group's order;
   * answers how many, and how many are still in flight (received by the dead worker: they come back
   * when their visibility timeout ends, so the queue is not empty yet and must not be deleted).
   */
  drain(workerId: string, exclude?: ReadonlySet<string>): Promise<{ moved: number; inFlight: number }>;
  /** Drains the queues of workers whose beats expired (one claimant each), then deletes their queues and items; answers the workers drained. */
  drainDead(self: string, now?: number): Promise<string[]>;
}

export function fleetQueues(options: FleetQueuesOptions): FleetQueues {
  const { sqs, table, sharedUrl, prefix } = options;
  const base = sharedUrl.slice(0, sharedUrl.lastIndexOf('/') + 1);
  const urlOf = (workerId: string) => `${base}${ownQueueName(prefix, workerId)}`;
  const cacheMs = options.beatsCacheMs ?? 2000;
  let beats: { at: number; items: Promise<WorkerBeatItem[]> } | undefined;
  const currentBeats = () => {
    if (!beats || Date.now() - beats.at > cacheMs) {
      const items = listWorkerBeats(table);
      beats = { at: Date.now(), items };
      items.catch(() => {
        if (beats?.items === items) beats = undefined;
      });
    }
    return beats.items;
  };

  const create = async (workerId: string) => {
    const attributes: Record<string, string> = {
      FifoQueue: 'true',
      ContentBasedDeduplication: 'false',
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      VisibilityTimeout: String(options.visibilityTimeoutSeconds),
      SqsManagedSseEnabled: 'true',
    };
    if (options.deadLetter)
      attributes.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: options.deadLetter.arn, maxReceiveCount: options.deadLetter.maxReceiveCount });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: ownQueueName(prefix, workerId), Attributes: attributes }));
    return QueueUrl ?? urlOf(workerId);
  };

  const remove = async (workerId: string) => {
    try {
      await sqs.send(new DeleteQueueCommand({ QueueUrl: urlOf(workerId) }));
    } catch (error) {
      if (!isMissingQueue(error)) throw error;
    }
  };

  const deduplicationOf = (message: Message, sourceUrl: string) =>
    createHash('sha256')
      .update(`${message.Attributes?.MessageDeduplicationId ?? message.MessageId}|${sourceUrl.split('/').pop()}|${message.Attributes?.SequenceNumber ?? ''}`)
      .digest('hex');

  const route = async (message: Message, sourceUrl: string, exclude: ReadonlySet<string> = new Set()): Promise<RouteOutcome> => {
    const received = readCommand(message);
    if (!received) throw new Error(`command ${message.MessageId} is malformed`);
    const { serviceId } = commandConnection(received.command);
    const skip = new Set(exclude);
    const body = JSON.stringify({ forwarded: { sentAt: received.sentAt }, command: received.command });
    const group = message.Attributes?.MessageGroupId ?? serviceId;
    const deduplicationId = deduplicationOf(message, sourceUrl);
    for (let tries = 0; tries < 3; tries++) {
      const lease = await readLease(table, serviceId);
      const now = Date.now();
      const holder = lease && lease.expiresAt >= now && !skip.has(lease.ownerId) ? lease.ownerId : undefined;
      // A holder whose beat expired is dead or leaving: its queue may be drained and deleted at any
      // moment, and a command sent there after the drain's last look is lost with it. Nothing goes
      // there; the command waits where it is until the lease expires (then it is placed) or the
      // holder beats again.
      // The cached beats (up to `beatsCacheMs` old) only raise the doubt; a fresh read settles it, so a
      // live holder whose cached beat ran out meanwhile is not taken for a dead one.
      const beating = (items: WorkerBeatItem[]) => items.some((beat) => beat.workerId === holder && beat.expiresAt >= now);
      if (holder && !beating(await currentBeats()) && !beating(await listWorkerBeats(table))) return { kind: 'nowhere' };
      const to = holder ?? placement(await currentBeats(), now, skip);
      if (!to) return { kind: 'nowhere' };
      try {
        await sqs.send(new SendMessageCommand({ QueueUrl: urlOf(to), MessageBody: body, MessageGroupId: group, MessageDeduplicationId: deduplicationId }));
        return { kind: 'forwarded', to };
      } catch (error) {
        if (!isMissingQueue(error)) throw error;
        // The holder's queue is gone (it is stopping, or being made again): wait for its lease to go or its queue to come back.
        if (holder) return { kind: 'nowhere' };
        skip.add(to);
        beats = undefined;
      }
    }
    return { kind: 'nowhere' };
  };

  const drain = async (workerId: string, exclude: ReadonlySet<string> = new Set([workerId])) => {
    const url = urlOf(workerId);
    let moved = 0;
    for (;;) {
      let messages: Message[];
      try {
        ({ Messages: messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 0,
            VisibilityTimeout: 60,
            MessageSystemAttributeNames: [...fleetAttributes],
          }),
        ));
      } catch (error) {
        if (isMissingQueue(error)) return { moved, inFlight: 0 };
        throw error;
      }
      if (!messages.length) {
        const { Attributes } = await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
        );
        const inFlight = Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(Attributes?.ApproximateNumberOfMessages ?? 0);
        return { moved, inFlight };
      }
      // In each group's order; a group that has nowhere to go yet stays (its next receive is after its visibility).
      const groups = new Map<string, Message[]>();
      for (const m of messages) groups.set(m.Attributes?.MessageGroupId ?? '', [...(groups.get(m.Attributes?.MessageGroupId ?? '') ?? []), m]);
      await Promise.all(
        [...groups.values()].map(async (group) => {
          for (const message of group) {
            const outcome = readCommand(message) ? await route(message, url, exclude) : ({ kind: 'forwarded', to: '' } as const);
            if (outcome.kind === 'nowhere') throw new Error(`a command of ${workerId}'s queue has no live worker to go to`);
            await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
            moved++;
          }
        }),
      );
    }
  };

  const drainDead = async (self: string, now = Date.now()) => {
    const dead = (await listWorkerBeats(table)).filter((beat) => beat.expiresAt < now && beat.workerId && beat.workerId !== self);
    const drained: string[] = [];
    for (const beat of dead) {
      // A drain takes seconds; a claimant that dies leaves it to another after this.
      if (!(await claimDrain(table, { workerId: beat.workerId, by: self, now, until: now + 120_000 }))) continue;
      const { moved, inFlight } = await drain(beat.workerId);
      if (inFlight) {
        // Commands the dead worker had received come back when their visibility ends: look again then (any worker may).
        console.log(
          `[fleet] worker ${beat.workerId} is gone: ${moved} commands routed again, ${inFlight} still in flight; its queue is kept until they come back`,
        );
        await releaseDrain(table, { workerId: beat.workerId, by: self });
        continue;
      }
      await remove(beat.workerId);
      await deleteWorkerBeat(table, beat.workerId);
      console.log(`[fleet] worker ${beat.workerId} is gone: ${moved} commands of its queue routed again, its queue deleted`);
      drained.push(beat.workerId);
    }
    return drained;
  };

  return { urlOf, create, remove, route, drain, drainDead };
}
