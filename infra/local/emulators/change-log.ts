/**
 * What keeps the local table whole across a killed process (SIGKILL, a crash): the DynamoDB
 * front's write intent and its stream log, both files under the data folder, written with
 * synchronous calls before the write is answered. They survive the process dying, not the machine
 * losing power (nothing is fsync'd).
 *
 * - The intent (`intent.json`) holds the before-images of the items a write or a transaction is
 *   about to change. It is written before the first change and removed once every change and its
 *   stream records are stored. On start, an intent left behind means the process died half-way:
 *   the items are put back as they were (the caller never had an answer), so a transaction is all
 *   or nothing across crashes too.
 * - The stream log (`records.jsonl`) holds every stream record, in commit order, appended before
 *   the intent is removed. Stream consumers' checkpoints (`checkpoints.json`, written by the stream
 *   emulator in the main thread) say how far each has handled it; on start, the records past the
 *   checkpoints are delivered again (at least once, as Lambda's event source mapping does), and
 *   the log is compacted down to them.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamRecord } from './dynamo-front.ts';

type AttributeMap = Record<string, unknown>;

/** An item a write is about to change, as it was before. */
export interface IntentItem {
  table: string;
  key: AttributeMap;
  before?: AttributeMap;
}

export interface Intent {
  items: IntentItem[];
  /** The stream log's length before the write: records past it belong to the write. */
  logSize: number;
}

/** How far each stream consumer has handled the log (its last handled sequence number). */
export type Checkpoints = Record<string, number>;

const checkpointsName = 'checkpoints.json';
/** Past this size the log is compacted to the records some consumer has not handled yet. */
const compactAboveBytes = 32 * 1024 * 1024;

export function readCheckpoints(dir: string): Checkpoints {
  try {
    return JSON.parse(readFileSync(join(dir, checkpointsName), 'utf8')) as Checkpoints;
  } catch {
    return {};
  }
}

/** Replaces the checkpoints file in one step (a rename), so a reader never sees half of it. */
export function writeCheckpoints(dir: string, checkpoints: Checkpoints): void {
  const temporary = join(dir, `${checkpointsName}.tmp`);
  writeFileSync(temporary, JSON.stringify(checkpoints));
  renameSync(temporary, join(dir, checkpointsName));
}

export const sequenceOf = (record: StreamRecord) => Number(record.dynamodb.SequenceNumber);

export class ChangeLog {
  private readonly logPath: string;
  private readonly intentPath: string;
  private fd = -1;
  private size = 0;
  private sequence = 0;
  private begun = false;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.logPath = join(dir, 'records.jsonl');
    this.intentPath = join(dir, 'intent.json');
  }

  /** The intent a killed process left behind; a half-written one is none (nothing was changed yet). */
  leftIntent(): Intent | null {
    if (!existsSync(this.intentPath)) return null;
    try {
      const intent = JSON.parse(readFileSync(this.intentPath, 'utf8')) as Intent;
      return Array.isArray(intent.items) && Number.isInteger(intent.logSize) ? intent : null;
    } catch {
      return null;
    }
  }

  /** After the items of a left intent are put back: drops its stream records and the intent. */
  discard(intent: Intent | null): void {
    if (intent && existsSync(this.logPath) && statSync(this.logPath).size > intent.logSize) truncateSync(this.logPath, intent.logSize);
    rmSync(this.intentPath, { force: true });
  }

  /**
   * Opens the log for appending; answers the records some consumer has not handled yet and the
   * last sequence number given (the next record's is above it, so checkpoints stay meaningful).
   */
  open(): { pending: StreamRecord[]; lastSequence: number } {
    const records = this.readLog();
    const marks = Object.values(readCheckpoints(this.dir));
    this.sequence = Math.max(records.length ? sequenceOf(records.at(-1)!) : 0, ...marks);
    const pending = this.unhandled(records);
    this.rewrite(pending);
    return { pending, lastSequence: this.sequence };
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  nextSequence(): number {
    return ++this.sequence;
  }

  /** Before a write changes anything: the items as they are. */
  begin(items: IntentItem[]): void {
    writeFileSync(this.intentPath, JSON.stringify({ items, logSize: this.size } satisfies Intent));
    this.begun = true;
  }

  append(record: StreamRecord): void {
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    writeSync(this.fd, line);
    this.size += line.length;
  }

  /** Once the write's changes and records are all stored. */
  commit(): void {
    if (!this.begun) return;
    rmSync(this.intentPath, { force: true });
    this.begun = false;
    if (this.size > compactAboveBytes) this.rewrite(this.unhandled(this.readLog()));
  }

  private readLog(): StreamRecord[] {
    if (!existsSync(this.logPath)) return [];
    const records: StreamRecord[] = [];
    for (const line of readFileSync(this.logPath, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as StreamRecord);
      } catch {
        // A line cut short by the crash: its write was rolled back with the intent.
      }
    }
    return records;
  }

  /** Records past the lowest checkpoint (consumers with none have handled everything so far). */
  private unhandled(records: StreamRecord[]): StreamRecord[] {
    const marks = Object.values(readCheckpoints(this.dir));
    const lowest = marks.length ? Math.min(...marks) : this.sequence;
    return records.filter((record) => sequenceOf(record) > lowest);
  }

  private rewrite(records: StreamRecord[]): void {
    this.close();
    const temporary = `${this.logPath}.tmp`;
    const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
    writeFileSync(temporary, text);
    renameSync(temporary, this.logPath);
    this.size = Buffer.byteLength(text);
    this.fd = openSync(this.logPath, 'a');
  }
}
