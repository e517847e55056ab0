/**
 * The SQS emulator's queues on disk, so a killed runtime loses no queued send: an append-only
 * journal (`journal.jsonl` in the emulator's folder) of what changes a queue, written with a
 * synchronous call before the change is answered (it survives the process dying, not the machine
 * losing power: nothing is fsync'd).
 *
 *   {"op":"send","queue":…,"message":{…}}     a message accepted (its deduplication id with it)
 *   {"op":"receive","queue":…,"id":…,"at":…}  received once more (the count redrive reads)
 *   {"op":"delete","queue":…,"id":…}          deleted, or gone to the dead-letter list
 *   {"op":"dead","queue":…,"id":…}            gone to the dead-letter list
 *   {"op":"drop","queue":…}                   the queue deleted (DeleteQueue), with what it held
 *
 * On start the journal is replayed: the messages not deleted come back visible (the process that
 * had them in flight is gone: it was this one), with their receive counts; deduplication ids seen
 * in the last five minutes are remembered; and the journal is rewritten to just that.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredMessage } from './sqs-emulator.ts';

/**
 * A message as the journal keeps it: the emulator's, without what a restart recomputes (its MD5)
 * or resets (its visibility and receipt: the messages come back visible).
 */
export type JournaledMessage = Pick<
  StoredMessage,
  'id' | 'body' | 'group' | 'deduplicationId' | 'sequenceNumber' | 'sentAt' | 'receiveCount' | 'firstReceiveAt'
>;

type Entry =
  | { op: 'send'; queue: string; message: JournaledMessage }
  | { op: 'receive'; queue: string; id: string; at: number }
  | { op: 'delete' | 'dead'; queue: string; id: string }
  | { op: 'drop'; queue: string };

/** What a queue held when the process stopped. */
export interface JournaledQueue {
  messages: JournaledMessage[];
  /** Messages deleted within the deduplication window: their ids still deduplicate. */
  recentlyDeleted: JournaledMessage[];
  deadLetters: JournaledMessage[];
}

/** Past this many entries since the last rewrite, the journal is rewritten to what is live. */
const rewriteAfterEntries = 20_000;

export class SqsJournal {
  private readonly path: string;
  private fd = -1;
  private entries = 0;
  private state = new Map<string, JournaledQueue>();

  constructor(
    dir: string,
    private readonly deduplicationWindowMs: number,
  ) {
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, 'journal.jsonl');
    this.replay();
    this.rewrite();
  }

  /** What the journal holds for a queue (empty for a new one). */
  queue(name: string): JournaledQueue {
    let queue = this.state.get(name);
    if (!queue) {
      queue = { messages: [], recentlyDeleted: [], deadLetters: [] };
      this.state.set(name, queue);
    }
    return queue;
  }

  /** The highest sequence number given so far. */
  lastSequence(): bigint {
    let last = 0n;
    for (const queue of this.state.values())
      for (const m of [...queue.messages, ...queue.recentlyDeleted, ...queue.deadLetters]) if (BigInt(m.sequenceNumber) > last) last = BigInt(m.sequenceNumber);
    return last;
  }

  sent(queue: string, message: JournaledMessage): void {
    this.write({ op: 'send', queue, message });
  }

  received(queue: string, id: string, at: number): void {
    this.write({ op: 'receive', queue, id, at });
  }

  deleted(queue: string, id: string): void {
    this.write({ op: 'delete', queue, id });
  }

  dead(queue: string, id: string): void {
    this.write({ op: 'dead', queue, id });
  }

  /** The queue was deleted: its messages and deduplication ids go with it. */
  dropped(queue: string): void {
    this.write({ op: 'drop', queue });
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private write(entry: Entry): void {
    this.apply(entry);
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    if (++this.entries > rewriteAfterEntries) this.rewrite();
  }

  private apply(entry: Entry): void {
    if (entry.op === 'drop') {
      this.state.delete(entry.queue);
      return;
    }
    const queue = this.queue(entry.queue);
    if (entry.op === 'send') {
      queue.messages.push({ ...entry.message });
      return;
    }
    const index = queue.messages.findIndex((m) => m.id === entry.id);
    if (index < 0) return;
    const message = queue.messages[index]!;
    if (entry.op === 'receive') {
      message.receiveCount++;
      message.firstReceiveAt ??= entry.at;
      return;
    }
    queue.messages.splice(index, 1);
    if (entry.op === 'dead') queue.deadLetters.push(message);
    else queue.recentlyDeleted.push(message);
  }

  private replay(): void {
    if (!existsSync(this.path)) return;
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        this.apply(JSON.parse(line) as Entry);
      } catch {
        // A line cut short by the crash: the change it records was never answered.
      }
    }
  }

  /** Rewrites the journal to what is live: queued messages, recent deduplication ids, dead letters. */
  private rewrite(): void {
    this.close();
    const since = Date.now() - this.deduplicationWindowMs;
    const lines: Entry[] = [];
    for (const [name, queue] of this.state) {
      queue.recentlyDeleted = queue.recentlyDeleted.filter((m) => m.sentAt > since);
      for (const message of queue.recentlyDeleted) lines.push({ op: 'send', queue: name, message }, { op: 'delete', queue: name, id: message.id });
      for (const message of queue.deadLetters) lines.push({ op: 'send', queue: name, message }, { op: 'dead', queue: name, id: message.id });
      for (const message of queue.messages) lines.push({ op: 'send', queue: name, message });
    }
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    renameSync(temporary, this.path);
    this.entries = 0;
    this.fd = openSync(this.path, 'a');
  }
}
