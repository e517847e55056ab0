/**
 * dynalite and its front in a worker thread, so the database work runs on a core of its own while
 * the main thread runs the gateways and handlers. Stream records go to the main thread as messages.
 * The front calls dynalite's store in-process (infra/local/emulators/dynalite-direct.ts): dynalite runs no
 * server of its own.
 *
 * With a `streamsDir`, writes are journaled there (infra/local/emulators/change-log.ts): a write a killed
 * process left half-done is rolled back before the front listens, and the stream records that
 * consumers had not handled yet are handed to the main thread with `ready`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ChangeLog } from './change-log.ts';
import { closeDynaliteStore, dynaliteCaller, openDynaliteStore } from './dynalite-direct.ts';
import { DynamoFront, type StreamRecord, ttlIndexFileName } from './dynamo-front.ts';
import { closeDynaliteIterators } from './level-iterators.ts';
import { CapacityMeter } from './capacity-meter.ts';
import { tableShape } from '#db/table-definition.ts';
import type { TableAnswer, TableCall } from '../runtime/table-port.ts';

closeDynaliteIterators();

const { path, ttlAttribute, streamsDir } = workerData as { path: string; ttlAttribute: string; streamsDir?: string };
// dynalite's store, called in-process by the front (no server of its own, no second HTTP hop).
const store = openDynaliteStore({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
const log = streamsDir ? new ChangeLog(streamsDir) : undefined;
// A write's records (a transaction's several) go to the main thread in one message, so the stream
// hands them to a consumer in one batch, as Lambda does with the records a shard has ready: the
// fan-out then reads the account's connections once for a send's message and its contact, rather
// than once for each in two batches one after the other.
let outgoing: StreamRecord[] = [];
const postRecords = () => {
  parentPort!.postMessage({ type: 'records', records: outgoing });
  outgoing = [];
};
// `npm run bench:tenants` only: the calls and the capacity units they would cost, with this
// thread's heap, written to the file it names every second and at the stop (capacity-meter.ts).
const meterFile = process.env.BENCH_DYNAMO_METER;
const meter = meterFile ? new CapacityMeter(tableShape.globalIndexes) : undefined;
const writeMeter = () => {
  const { heapUsed, heapTotal, external } = process.memoryUsage();
  writeFileSync(meterFile!, JSON.stringify({ at: Date.now(), heapUsed, heapTotal, external, ...meter!.snapshot() }));
};
if (meter) setInterval(writeMeter, 1000).unref();
const front = new DynamoFront({
  meter,
  backend: dynaliteCaller(store),
  ttlAttribute,
  onRecord: (record) => {
    // The front hands a write's records one after the other, in one go.
    if (!outgoing.length) queueMicrotask(postRecords);
    outgoing.push(record);
  },
  journal: log,
});
let resumed: ReturnType<ChangeLog['open']> | undefined;
if (log) {
  const intent = log.leftIntent();
  if (intent) await front.recover(intent.items);
  log.discard(intent);
  resumed = log.open();
}
const url = await front.listen();

// The TTL index of the last clean stop, beside the database (the data folder).
const ttlIndexFile = join(dirname(path), ttlIndexFileName);

const encoder = new TextEncoder();

/**
 * A table port's call (infra/local/runtime/table-port.ts) answered as the front's server would; the
 * answer's bytes encoded here and moved, not copied.
 */
async function answer(call: TableCall): Promise<void> {
  const { status, text, requestId } = await front.answer(call.target, call.body);
  const body = encoder.encode(text);
  parentPort!.postMessage({ type: 'answer', id: call.id, status, requestId, body } satisfies TableAnswer, [body.buffer]);
}

type FromMain = { type: 'seedTtl'; table: string } | { type: 'stop' } | TableCall;

parentPort!.on('message', async (message: FromMain) => {
  if (message.type === 'call') {
    await answer(message);
  } else if (message.type === 'seedTtl') {
    if (!(await front.loadTtlIndex(ttlIndexFile))) await front.seedTtlIndex(message.table);
    parentPort!.postMessage({ type: 'seeded' });
  } else if (message.type === 'stop') {
    await front.close();
    await front.saveTtlIndex(ttlIndexFile);
    log?.close();
    await closeDynaliteStore(store);
    if (meter) writeMeter();
    parentPort!.postMessage({ type: 'stopped' });
  }
});
parentPort!.postMessage({ type: 'ready', url, resumed });
