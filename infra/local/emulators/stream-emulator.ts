/**
 * DynamoDB Streams on this machine: the table's one shard, its records in commit order, handed to
 * its readers. The readers are Lambda's event source mappings (infra/local/pollers/stream-poller.ts),
 * which filter, batch and invoke; this module only stores and hands out.
 *
 * Like DynamoDB Streams, it takes at most two readers: AWS throttles more than two processes
 * reading one shard, so a third reader is refused here rather than working only on this machine.
 * The product's consumers reach it through two routers (functions/streams/stream-router.ts).
 *
 * With a checkpoints folder (the local runtime's), each reader's progress is stored as it reports
 * it, and `resume` hands each reader the records of the stream log (infra/local/emulators/change-log.ts)
 * it had not handled when the process died: at least once, like Lambda after a crash, so consumers
 * are idempotent.
 */
import type { StreamRecord } from './dynamo-front.ts';
import { type Checkpoints, readCheckpoints, sequenceOf, writeCheckpoints } from './change-log.ts';

/** How long handled batches' checkpoints may wait to be stored together. */
const saveEveryMs = 200;

/** DynamoDB Streams: "no more than two processes should be reading from the same stream shard at the same time". */
export const maxReadersPerShard = 2;

/** A reader of the shard (an event source mapping). */
export interface StreamReader {
  name: string;
  /**
   * Readers whose work this one took over (the consumers that read the stream themselves before
   * the routers): without a checkpoint of its own, it starts at the earliest of theirs, so records
   * they had not handled when the last process stopped are not lost.
   */
  formerNames?: readonly string[];
  /** The shard's next record for this reader, in commit order. */
  deliver(record: StreamRecord): void;
}

export class StreamEmulator {
  private readers: StreamReader[] = [];
  /** Per reader: every record up to this sequence number is handled (or not its business). */
  private checkpoints: Checkpoints = {};
  /** The highest sequence number pushed so far. */
  private seen = 0;
  private saveTimer?: NodeJS.Timeout;

  /** `checkpointsDir`: where readers' progress is kept across restarts (none: in memory only). */
  constructor(private readonly checkpointsDir?: string) {}

  attach(reader: StreamReader): void {
    if (this.readers.length >= maxReadersPerShard) {
      throw new Error(
        `Stream reader "${reader.name}" refused: DynamoDB Streams throttles more than ${maxReadersPerShard} readers of a shard (already: ${this.readers.map((r) => r.name).join(', ')}); add a consumer to a router instead`,
      );
    }
    this.readers.push(reader);
  }

  /**
   * After a restart, once every reader is attached: each reader gets the records past its stored
   * checkpoint; one without a checkpoint (new) starts after `lastSequence`.
   */
  resume(records: readonly StreamRecord[], lastSequence: number): void {
    const stored = this.checkpointsDir ? readCheckpoints(this.checkpointsDir) : {};
    for (const reader of this.readers) {
      const former = (reader.formerNames ?? []).map((name) => stored[name]).filter((n) => n !== undefined);
      this.checkpoints[reader.name] = stored[reader.name] ?? (former.length ? Math.min(...former) : lastSequence);
    }
    this.seen = Math.max(this.seen, lastSequence);
    this.save();
    for (const record of records) {
      for (const reader of this.readers) {
        if (sequenceOf(record) <= this.checkpoints[reader.name]!) continue;
        this.seen = Math.max(this.seen, sequenceOf(record));
        reader.deliver(record);
      }
    }
  }

  push(record: StreamRecord): void {
    for (const reader of this.readers) {
      this.seen = Math.max(this.seen, sequenceOf(record));
      reader.deliver(record);
    }
  }

  /** The highest sequence number pushed so far. */
  lastSequence(): number {
    return this.seen;
  }

  /** A reader with nothing waiting let the record at `sequence` pass (not its business): its checkpoint moves up to it. */
  passed(readerName: string, sequence: number): void {
    this.checkpoints[readerName] = Math.max(this.checkpoints[readerName] ?? 0, sequence);
  }

  /** A reader handled every record up to `sequence`: stored within `saveEveryMs`. */
  handled(readerName: string, sequence: number): void {
    this.checkpoints[readerName] = sequence;
    this.saveSoon();
  }

  /** Stores the checkpoints now. */
  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.save();
  }

  private save(): void {
    if (this.checkpointsDir) writeCheckpoints(this.checkpointsDir, this.checkpoints);
  }

  /**
   * Stores the checkpoints within `saveEveryMs`, once for every batch handled meanwhile: a file
   * write and a rename per batch of every reader held the main thread under load. A killed process
   * hands the records of that last moment again (at least once, which consumers allow).
   */
  private saveSoon(): void {
    if (!this.checkpointsDir || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), saveEveryMs);
  }
}
