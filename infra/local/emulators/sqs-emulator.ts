/**
 * An SQS FIFO emulator: the SQS API as SDK v3 speaks it (the JSON protocol,
 * `X-Amz-Target: AmazonSQS.<Action>`) on a loopback port. It stores and hands out messages; Lambda's
 * SQS event source mapping, which invokes the handlers, is infra/local/pollers/queue-poller.ts, and
 * receives through `handOut` and `deleteReceived` under the same rules as ReceiveMessage and
 * DeleteMessage.
 *
 * - SendMessage, SendMessageBatch, ChangeMessageVisibility, GetQueueUrl, GetQueueAttributes (the
 *   message counts, visible and in flight, the visibility timeout, the ARN; whatever names are asked).
 * - ChangeMessageVisibility as SQS answers it: the new timeout counts from now (0 makes the message
 *   visible at once); only the handle of the message's latest receive, while that receive is in
 *   flight, may change it. A handle of an earlier receive (the message was received again since),
 *   of a deleted message or never issued is `ReceiptHandleIsInvalid`; the latest handle once the
 *   visibility has ended (the message is back in the queue, not received again yet) is
 *   `MessageNotInflight`. The channel workers' heartbeat (connectors/worker-queue.ts) relies on it.
 * - CreateQueue and DeleteQueue, as the channel workers call them for their own queues
 *   (connectors/fleet-queues.ts): FIFO only (a name ending in `.fifo`, `FifoQueue` "true"), the
 *   name checked as SQS checks it, creating an existing queue with the same attributes answers its
 *   URL; a deleted queue's messages go with it, and any call on it is `QueueDoesNotExist`.
 * - Clients that consume a queue themselves (the channel worker): ReceiveMessage (up to 10
 *   messages under the same FIFO rules, the system attributes asked for, `VisibilityTimeout`, and
 *   long polling with `WaitTimeSeconds`: the call is answered as soon as a message can be received,
 *   or empty when the wait ends) and DeleteMessage. A receipt handle of an earlier receive deletes
 *   nothing and is not an error (as SQS answers); one this emulator never issued is
 *   `ReceiptHandleIsInvalid`.
 * - FIFO: messages of a group are delivered in the order they were sent; while any message of a
 *   group is in flight (received, not deleted, visibility not expired) no other message of that
 *   group is delivered, while other groups go on; a deduplication id seen in the last five minutes
 *   is accepted and not queued again (answering the first message's id, as SQS does).
 * - Redrive: a message received `maxReceiveCount` times goes to the dead-letter list (logged)
 *   instead of being delivered again.
 *
 * - Durability (with a journal folder, as the local runtime runs it): every accepted message,
 *   receive and deletion is journaled before it is answered (infra/local/emulators/sqs-journal.ts), so a
 *   killed process loses no queued message; on start the messages come back visible.
 *
 * Not emulated: standard queues, DeleteMessageBatch, ReceiveRequestAttemptId, message attributes,
 * delays, high-throughput deduplication scope (per group; our deduplication ids are unique per
 * message, so the scope changes nothing here).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SqsJournal } from './sqs-journal.ts';

export interface QueueOptions {
  /** @default 30 */
  visibilityTimeoutSeconds?: number;
  /** Receives after which a message goes to the dead-letter list. @default none */
  maxReceiveCount?: number;
  /** @default false (a deduplication id is required) */
  contentBasedDeduplication?: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: SQS's JSON wire input, checked field by field where it is read
type WireInput = Record<string, any>;

/** A message as the emulator stores it (the journal keeps a part of it: sqs-journal.ts). */
export interface StoredMessage {
  id: string;
  body: string;
  md5: string;
  group: string;
  deduplicationId: string;
  sequenceNumber: string;
  sentAt: number;
  receiveCount: number;
  firstReceiveAt: number | null;
  /** Epoch ms until which the message is in flight; 0 when it never was. */
  inFlightUntil: number;
  receipt: string | null;
}

/** A message handed out to an event source mapping: what ReceiveMessage answers, with every system attribute. */
export interface ReceivedMessage {
  id: string;
  receipt: string;
  body: string;
  md5: string;
  attributes: ReturnType<typeof systemAttributes>;
}

interface Queue {
  name: string;
  arn: string;
  options: Required<QueueOptions>;
  messages: StoredMessage[];
  deduplication: Map<string, { id: string; sequenceNumber: string; at: number }>;
  deadLetters: StoredMessage[];
  /** Messages accepted since the queue was created (a deduplicated repeat is not counted). */
  accepted: number;
  /** Called on every change that may make a message receivable (the event source mappings' pumps). */
  listeners: Set<() => void>;
  /** Long polls waiting for a message to receive: called on every change that may make one available. */
  waiters: Set<() => void>;
}

const deduplicationWindowMs = 5 * 60 * 1000;
/** The shape of the receipt handles this emulator issues: `<message id>:<random>`. */
const receiptPattern = /^[0-9a-f-]{36}:[A-Za-z0-9_-]{32}$/;
const region = 'us-east-1';
const accountId = '000000000000';

class SqsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

export class SqsEmulator {
  private queues = new Map<string, Queue>();
  private server?: Server;
  private sequence = 0n;
  private closed = false;
  private readonly journal?: SqsJournal;
  url = '';

  /** `journalDir`: where the queues are kept across restarts (none: in memory only). */
  constructor(options: { journalDir?: string } = {}) {
    if (options.journalDir) {
      this.journal = new SqsJournal(options.journalDir, deduplicationWindowMs);
      this.sequence = this.journal.lastSequence();
    }
  }

  /** Starts the API on a loopback port; answers its URL (what AWS_ENDPOINT_URL_SQS is set to). */
  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Creates a FIFO queue (the name must end in `.fifo`); answers its URL. */
  createQueue(name: string, options: QueueOptions = {}): string {
    if (!name.endsWith('.fifo')) throw new Error(`Only FIFO queues are emulated: ${name}`);
    if (!this.queues.has(name)) {
      // What a journal kept of the queue: its messages come back visible (their holder is gone).
      const kept = this.journal?.queue(name) ?? { messages: [], recentlyDeleted: [], deadLetters: [] };
      const stored = (m: (typeof kept.messages)[number]): StoredMessage => ({ ...m, md5: md5(m.body), inFlightUntil: 0, receipt: null });
      const since = Date.now() - deduplicationWindowMs;
      this.queues.set(name, {
        name,
        arn: `arn:aws:sqs:${region}:${accountId}:${name}`,
        options: { visibilityTimeoutSeconds: 30, maxReceiveCount: 0, contentBasedDeduplication: false, ...options },
        messages: kept.messages.map(stored),
        deduplication: new Map(
          [...kept.recentlyDeleted, ...kept.messages]
            .filter((m) => m.sentAt > since)
            .map((m) => [m.deduplicationId, { id: m.id, sequenceNumber: m.sequenceNumber, at: m.sentAt }]),
        ),
        deadLetters: kept.deadLetters.map(stored),
        accepted: kept.messages.length,
        listeners: new Set(),
        waiters: new Set(),
      });
    }
    return this.queueUrl(name);
  }

  /** Deletes a queue with its messages (DeleteQueue); long polls on it are answered empty. */
  deleteQueue(name: string): void {
    const queue = this.queue(name);
    this.queues.delete(name);
    this.journal?.dropped(name);
    queue.listeners.clear();
    this.wakeWaiters(queue);
  }

  /** CreateQueue: a FIFO queue with the attributes SQS takes for one (VisibilityTimeout; the rest are accepted and not emulated). */
  private createQueueByApi(input: WireInput): string {
    const name = input.QueueName;
    if (typeof name !== 'string' || !name) throw new SqsError('MissingParameter', 'The request must contain the parameter QueueName.');
    if (!/^[A-Za-z0-9_-]{1,75}\.fifo$/.test(name) && !/^[A-Za-z0-9_-]{1,80}$/.test(name))
      throw new SqsError(
        'InvalidParameterValue',
        'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length. FIFO queue names end in .fifo',
      );
    const attributes = (input.Attributes ?? {}) as Record<string, string>;
    if (!name.endsWith('.fifo') || attributes.FifoQueue !== 'true')
      throw new SqsError('InvalidParameterValue', `Only FIFO queues are emulated (a .fifo name and FifoQueue "true"): ${name}`);
    const visibility = attributes.VisibilityTimeout === undefined ? 30 : Number(attributes.VisibilityTimeout);
    if (!Number.isInteger(visibility) || visibility < 0 || visibility > 43_200)
      throw new SqsError('InvalidAttributeValue', 'Invalid value for the parameter VisibilityTimeout.');
    const existing = this.queues.get(name);
    if (existing && existing.options.visibilityTimeoutSeconds !== visibility)
      throw new SqsError('QueueNameExists', `A queue already exists with the same name and a different value for attribute VisibilityTimeout`);
    return this.createQueue(name, {
      visibilityTimeoutSeconds: visibility,
      contentBasedDeduplication: attributes.ContentBasedDeduplication === 'true',
    });
  }

  queueUrl(name: string): string {
    if (!this.url) throw new Error('listen() first');
    return `${this.url}/${accountId}/${name}`;
  }

  /** The queue's ARN, as an event source mapping's records name their source. */
  arn(queueName: string): string {
    return this.queue(queueName).arn;
  }

  /** Calls `listener` on every change that may make a message of the queue receivable; answers how to stop. */
  onChange(queueName: string, listener: () => void): () => void {
    const queue = this.queue(queueName);
    queue.listeners.add(listener);
    return () => queue.listeners.delete(listener);
  }

  /** Whether a message could be received now (visible, of a group with nothing in flight). */
  hasReceivable(queueName: string, now = Date.now()): boolean {
    return this.available(this.queue(queueName), now).length > 0;
  }

  /** When the next message in flight becomes visible again (epoch ms), or Infinity when none is in flight. */
  nextVisibilityEnd(queueName: string, now = Date.now()): number {
    return Math.min(
      ...this.queue(queueName)
        .messages.filter((m) => m.inFlightUntil > now)
        .map((m) => m.inFlightUntil),
    );
  }

  /** Receives up to `max` messages under the FIFO rules, for the queue's visibility timeout, as ReceiveMessage does. */
  handOut(queueName: string, max: number, now = Date.now()): ReceivedMessage[] {
    return this.take(this.queue(queueName), max, now).map((message) => ({
      id: message.id,
      receipt: message.receipt!,
      body: message.body,
      md5: message.md5,
      attributes: systemAttributes(message),
    }));
  }

  /** DeleteMessage's rule: the message received with `receipt`, unless it was received again since. */
  deleteReceived(queueName: string, receipt: string): void {
    const queue = this.queue(queueName);
    const index = queue.messages.findIndex((m) => m.receipt === receipt);
    if (index < 0) return;
    this.journal?.deleted(queue.name, queue.messages[index]!.id);
    queue.messages.splice(index, 1);
    this.changed(queue);
  }

  /** Messages not yet deleted (visible or in flight). */
  depth(queueName: string): number {
    return this.queue(queueName).messages.length;
  }

  /** Messages the queue accepted since it was created (deduplicated repeats not counted). */
  accepted(queueName: string): number {
    return this.queue(queueName).accepted;
  }

  /** Messages that went to the dead-letter list, bodies only. */
  deadLetters(queueName: string): string[] {
    return this.queue(queueName).deadLetters.map((m) => m.body);
  }

  /** Stops the API (the event source mappings reading the queues are closed first: queue-poller.ts). */
  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values()) this.wakeWaiters(queue);
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    }
    this.journal?.close();
  }

  // ─── The API ──────────────────────────────────────────────────────────────────────────────────

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': randomUUID() });
      res.end(text);
    };
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    try {
      const target = String(req.headers['x-amz-target'] ?? '');
      if (req.method !== 'POST' || !target.startsWith('AmazonSQS.')) throw new SqsError('InvalidAction', `Unsupported request ${req.method} ${target}`);
      const input = (chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {}) as WireInput;
      const action = target.slice('AmazonSQS.'.length);
      const answer = action === 'ReceiveMessage' ? await this.clientReceive(this.queueOfUrl(input.QueueUrl), input, () => gone) : this.act(action, input);
      if (!gone) reply(200, answer);
    } catch (error) {
      if (error instanceof SqsError) reply(400, { __type: `com.amazonaws.sqs#${error.code}`, message: error.message });
      else reply(500, { __type: 'com.amazonaws.sqs#InternalError', message: String(error) });
    }
  }

  private act(action: string, input: WireInput): unknown {
    switch (action) {
      case 'SendMessage':
        return this.send(this.queueOfUrl(input.QueueUrl), input);
      case 'SendMessageBatch': {
        const queue = this.queueOfUrl(input.QueueUrl);
        const entries = (input.Entries ?? []) as WireInput[];
        if (entries.length === 0) throw new SqsError('EmptyBatchRequest', 'There should be at least one SendMessageBatchRequestEntry in the request.');
        if (entries.length > 10)
          throw new SqsError('TooManyEntriesInBatchRequest', `Maximum number of entries per request are 10. You have sent ${entries.length}.`);
        if (new Set(entries.map((e) => e.Id)).size !== entries.length)
          throw new SqsError('BatchEntryIdsNotDistinct', 'Id of a batch entry in a batch request is not distinct.');
        const Successful: unknown[] = [];
        const Failed: unknown[] = [];
        for (const entry of entries) {
          try {
            Successful.push({ Id: entry.Id, ...this.send(queue, entry) });
          } catch (error) {
            if (!(error instanceof SqsError)) throw error;
            Failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
          }
        }
        return { Successful, Failed };
      }
      case 'ChangeMessageVisibility': {
        const queue = this.queueOfUrl(input.QueueUrl);
        const seconds = Number(input.VisibilityTimeout);
        if (!Number.isInteger(seconds) || seconds < 0 || seconds > 43_200)
          throw new SqsError('InvalidParameterValue', 'VisibilityTimeout must be 0 to 43200 seconds.');
        const handle = input.ReceiptHandle;
        if (typeof handle !== 'string' || !handle) throw new SqsError('MissingParameter', 'The request must contain the parameter ReceiptHandle.');
        // Of an earlier receive, of a deleted message, or never issued: SQS answers the same.
        const message = queue.messages.find((m) => m.receipt !== null && m.receipt === handle);
        if (!message) throw new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${handle}" is not a valid receipt handle.`);
        const now = Date.now();
        if (message.inFlightUntil <= now) throw new SqsError('MessageNotInflight', 'The message is not in flight.');
        message.inFlightUntil = now + seconds * 1000;
        this.changed(queue);
        return {};
      }
      case 'DeleteMessage': {
        const queue = this.queueOfUrl(input.QueueUrl);
        const handle = input.ReceiptHandle;
        if (typeof handle !== 'string' || !handle) throw new SqsError('MissingParameter', 'The request must contain the parameter ReceiptHandle.');
        if (!receiptPattern.test(handle)) throw new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${handle}" is not a valid receipt handle.`);
        // A handle of an earlier receive (the message was received again since) deletes nothing, without an error.
        this.deleteReceived(queue.name, handle);
        return {};
      }
      case 'CreateQueue':
        return { QueueUrl: this.createQueueByApi(input) };
      case 'DeleteQueue': {
        const queue = this.queueOfUrl(input.QueueUrl);
        this.deleteQueue(queue.name);
        return {};
      }
      case 'GetQueueAttributes': {
        const queue = this.queueOfUrl(input.QueueUrl);
        const now = Date.now();
        const inFlight = queue.messages.filter((m) => m.inFlightUntil > now).length;
        return {
          Attributes: {
            ApproximateNumberOfMessages: String(queue.messages.length - inFlight),
            ApproximateNumberOfMessagesNotVisible: String(inFlight),
            VisibilityTimeout: String(queue.options.visibilityTimeoutSeconds),
            FifoQueue: 'true',
            QueueArn: queue.arn,
          },
        };
      }
      case 'GetQueueUrl': {
        this.queue(String(input.QueueName));
        return { QueueUrl: this.queueUrl(String(input.QueueName)) };
      }
      default:
        throw new SqsError('UnsupportedOperation', `${action} is not emulated.`);
    }
  }

  private send(queue: Queue, input: WireInput) {
    const body = input.MessageBody;
    if (typeof body !== 'string' || body.length === 0) throw new SqsError('MissingParameter', 'The request must contain the parameter MessageBody.');
    if (!input.MessageGroupId) throw new SqsError('MissingParameter', 'The request must contain the parameter MessageGroupId.');
    const deduplicationId: string | undefined =
      input.MessageDeduplicationId ?? (queue.options.contentBasedDeduplication ? createHash('sha256').update(body).digest('hex') : undefined);
    if (!deduplicationId) {
      throw new SqsError(
        'InvalidParameterValue',
        'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly',
      );
    }
    const now = Date.now();
    for (const [id, seen] of queue.deduplication) if (now - seen.at >= deduplicationWindowMs) queue.deduplication.delete(id);
    const seen = queue.deduplication.get(deduplicationId);
    if (seen) return { MessageId: seen.id, MD5OfMessageBody: md5(body), SequenceNumber: seen.sequenceNumber };

    const message: StoredMessage = {
      id: randomUUID(),
      body,
      md5: md5(body),
      group: String(input.MessageGroupId),
      deduplicationId,
      sequenceNumber: String(++this.sequence).padStart(20, '0'),
      sentAt: now,
      receiveCount: 0,
      firstReceiveAt: null,
      inFlightUntil: 0,
      receipt: null,
    };
    this.journal?.sent(queue.name, {
      id: message.id,
      body,
      group: message.group,
      deduplicationId,
      sequenceNumber: message.sequenceNumber,
      sentAt: now,
      receiveCount: 0,
      firstReceiveAt: null,
    });
    queue.messages.push(message);
    queue.accepted++;
    queue.deduplication.set(deduplicationId, { id: message.id, sequenceNumber: message.sequenceNumber, at: now });
    this.changed(queue);
    return { MessageId: message.id, MD5OfMessageBody: message.md5, SequenceNumber: message.sequenceNumber };
  }

  private queue(name: string): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new SqsError('QueueDoesNotExist', `The specified queue ${name} does not exist.`);
    return queue;
  }

  private queueOfUrl(url: unknown): Queue {
    const name = typeof url === 'string' ? url.split('/').pop() : undefined;
    if (!name) throw new SqsError('MissingParameter', 'The request must contain the parameter QueueUrl.');
    return this.queue(name);
  }

  /** Visible messages of groups with nothing in flight, in queue order. */
  private available(queue: Queue, now: number): StoredMessage[] {
    const busy = new Set(queue.messages.filter((m) => m.inFlightUntil > now).map((m) => m.group));
    return queue.messages.filter((m) => !busy.has(m.group));
  }

  /** Tells the long polls and the event source mappings that a message may have become receivable. */
  private changed(queue: Queue): void {
    for (const listener of [...queue.listeners]) listener();
    this.wakeWaiters(queue);
  }

  // ─── Clients that receive themselves ──────────────────────────────────────────────────────────

  /** ReceiveMessage: what can be received now, or, with `WaitTimeSeconds`, as soon as something can (or nothing when the wait ends). */
  private async clientReceive(queue: Queue, input: WireInput, gone: () => boolean): Promise<unknown> {
    const max = input.MaxNumberOfMessages ?? 1;
    if (!Number.isInteger(max) || max < 1 || max > 10)
      throw new SqsError('InvalidParameterValue', `Value ${max} for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.`);
    const waitSeconds = input.WaitTimeSeconds ?? 0;
    if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > 20)
      throw new SqsError(
        'InvalidParameterValue',
        `Value ${waitSeconds} for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.`,
      );
    const visibility = input.VisibilityTimeout ?? queue.options.visibilityTimeoutSeconds;
    if (!Number.isInteger(visibility) || visibility < 0 || visibility > 43_200)
      throw new SqsError(
        'InvalidParameterValue',
        `Value ${visibility} for parameter VisibilityTimeout is invalid. Reason: Must be >= 0 and <= 43200, if provided.`,
      );
    const names = new Set<string>([...(input.AttributeNames ?? []), ...(input.MessageSystemAttributeNames ?? [])]);
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      // A client that went away (an aborted long poll) receives nothing: its messages would stay in flight unseen.
      if (this.closed || gone()) return { Messages: [] };
      if (this.queues.get(queue.name) !== queue) throw new SqsError('QueueDoesNotExist', `The specified queue ${queue.name} does not exist.`);
      const batch = this.take(queue, max, Date.now(), visibility);
      if (batch.length || Date.now() >= deadline) return { Messages: batch.map((message) => this.wireMessage(message, names)) };
      await this.changeOf(queue, deadline - Date.now());
    }
  }

  /** Resolves on the next change that may make a message receivable (a send, a delete, a visibility change or end), or after `ms`. */
  private changeOf(queue: Queue, ms: number): Promise<void> {
    const now = Date.now();
    const visibilityEnds = Math.min(...queue.messages.filter((m) => m.inFlightUntil > now).map((m) => m.inFlightUntil - now + 1));
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        queue.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(ms, visibilityEnds)));
      queue.waiters.add(done);
    });
  }

  private wakeWaiters(queue: Queue): void {
    for (const waiter of [...queue.waiters]) waiter();
  }

  /** A received message as ReceiveMessage answers it, with the system attributes asked for (`All` for every one). */
  private wireMessage(message: StoredMessage, names: Set<string>) {
    const all = systemAttributes(message);
    const attributes = Object.fromEntries(Object.entries(all).filter(([name]) => names.has('All') || names.has(name)));
    return {
      MessageId: message.id,
      ReceiptHandle: message.receipt!,
      MD5OfBody: message.md5,
      Body: message.body,
      ...(Object.keys(attributes).length ? { Attributes: attributes } : {}),
    };
  }

  /** Receives up to `max` messages (the dead-letter redrive on the way), in flight for `visibilitySeconds`. */
  private take(queue: Queue, max: number, now: number, visibilitySeconds = queue.options.visibilityTimeoutSeconds): StoredMessage[] {
    const batch: StoredMessage[] = [];
    for (const message of this.available(queue, now)) {
      if (batch.length >= max) break;
      if (queue.options.maxReceiveCount && message.receiveCount >= queue.options.maxReceiveCount) {
        this.journal?.dead(queue.name, message.id);
        queue.messages.splice(queue.messages.indexOf(message), 1);
        queue.deadLetters.push(message);
        console.error(
          `[sqs] ${queue.name}: message ${message.id} (group ${message.group}) went to the dead-letter queue after ${message.receiveCount} receives`,
        );
        continue;
      }
      this.journal?.received(queue.name, message.id, now);
      message.receiveCount++;
      message.firstReceiveAt ??= now;
      message.receipt = `${message.id}:${randomBytes(24).toString('base64url')}`;
      message.inFlightUntil = now + visibilitySeconds * 1000;
      batch.push(message);
    }
    return batch;
  }
}

/** A received message's system attributes, as SQS names them (ReceiveMessage and Lambda's event alike). */
function systemAttributes(message: StoredMessage) {
  return {
    ApproximateReceiveCount: String(message.receiveCount),
    SentTimestamp: String(message.sentAt),
    SenderId: 'AIDALOCALSENDER',
    ApproximateFirstReceiveTimestamp: String(message.firstReceiveAt),
    SequenceNumber: message.sequenceNumber,
    MessageGroupId: message.group,
    MessageDeduplicationId: message.deduplicationId,
  };
}
