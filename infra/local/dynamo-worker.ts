/**
 * dynalite and its front in a worker thread, so the database work runs on a core of its own while
 * the main thread runs the gateways and handlers. Stream records go to the main thread as messages.
 *
 * With a `streamsDir`, writes are journaled there (infra/local/change-log.ts): a write a killed
 * process left half-done is rolled back before the front listens, and the stream records that
 * consumers had not handled yet are handed to the main thread with `ready`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { ChangeLog } from './change-log.ts';
import { inProcessDynalite } from './dynalite-in-process.ts';
import { DynamoFront, ttlIndexFileName } from './dynamo-front.ts';
import { closeDynaliteIterators } from './level-iterators.ts';

closeDynaliteIterators();

const { path, ttlAttribute, streamsDir } = workerData as { path: string; ttlAttribute: string; streamsDir?: string };
// Called in this thread, not over HTTP (dynalite-in-process.ts).
const db = inProcessDynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
const log = streamsDir ? new ChangeLog(streamsDir) : undefined;
const front = new DynamoFront({
  dynalite: db,
  ttlAttribute,
  onRecord: (record) => parentPort!.postMessage({ type: 'record', record }),
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

parentPort!.on('message', async (message: { type: 'seedTtl'; table: string } | { type: 'stop' }) => {
  if (message.type === 'seedTtl') {
    if (!(await front.loadTtlIndex(ttlIndexFile))) await front.seedTtlIndex(message.table);
    parentPort!.postMessage({ type: 'seeded' });
  } else if (message.type === 'stop') {
    await front.close();
    await front.saveTtlIndex(ttlIndexFile);
    log?.close();
    await db.close();
    parentPort!.postMessage({ type: 'stopped' });
  }
});
parentPort!.postMessage({ type: 'ready', url, resumed });
