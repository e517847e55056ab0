/**
 * The local cost of routing (ADR-0192): the latency of a record
 * from the stream emulator to a consumer's handler, and the CPU of the whole run, with the nine
 * consumers each reading the stream themselves (before: nine readers, each its own queue and
 * filters, as the emulator did) and with the two routers (after: two readers, each consumer's
 * filters applied by its router). The consumers' handlers are stubs that note the time, so only
 * the stream path is measured: the real filters, batch sizes and router code, not the consumers'
 * work. A send's records are pushed as the DynamoDB thread pushes them (a write's records together):
 * the new message (ack 0: dispatch and fanout), its contact (fanout, snapshots), the hand-over mark
 * and the ack (fanout). `npx tsx scripts/bench-stream-router.ts [sends]` (default 2000; a few seconds).
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { consumersOf, routerBatchSize, routerFilters, routerTimeoutSeconds, streamConsumers, streamRouters } from '#functions/streams/consumers.ts';
import { StreamRouter } from '#functions/streams/stream-router.ts';
import type { StreamRecord } from '../infra/local/emulators/dynamo-front.ts';
import { StreamEmulator } from '../infra/local/emulators/stream-emulator.ts';
import { StreamPollers } from '../infra/local/pollers/stream-poller.ts';

const sends = Number(process.argv[2] ?? 2000);
let sequence = 0;

function record(eventName: 'INSERT' | 'MODIFY', next: Record<string, unknown>, previous?: Record<string, unknown>): StreamRecord {
  sequence++;
  return {
    eventID: `e${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/conversa/stream/local',
    dynamodb: {
      ApproximateCreationDateTime: 1,
      Keys: marshall({ pk: next.pk, sk: next.sk }),
      NewImage: marshall(next, { removeUndefinedValues: true }),
      ...(previous ? { OldImage: marshall(previous, { removeUndefinedValues: true }) } : {}),
      SequenceNumber: String(sequence),
      SizeBytes: 300,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  } as StreamRecord;
}

/** One send's writes, each write's records together. */
function sendWrites(i: number): StreamRecord[][] {
  const message = {
    pk: 'ACCOUNT#A#CONTACT#C',
    sk: `MSG#${i}`,
    type: 'Message',
    id: `${i}`,
    accountId: 'A',
    isFromMe: true,
    ack: 0,
    sendAttempt: 1,
    text: 'Oi',
  };
  const contact = { pk: 'ACCOUNT#A', sk: 'CONTACT#C', type: 'Contact', id: 'C', accountId: 'A', lastMessage: `${i}` };
  return [
    [record('INSERT', message), record('MODIFY', contact, { ...contact, lastMessage: `${i - 1}` })],
    [record('MODIFY', { ...message, handedOverAttempt: 1 }, message)],
    [record('MODIFY', { ...message, ack: 1, handedOverAttempt: 1 }, { ...message, handedOverAttempt: 1 })],
  ];
}

type Run = { latencies: number[]; calls: number; cpuMs: number; wallMs: number };

async function run(mode: 'before' | 'after'): Promise<Run> {
  const pushedAt = new Map<string, number>();
  const latencies: number[] = [];
  let calls = 0;
  const stub =
    (name: string): ((event: DynamoDBStreamEvent) => Promise<unknown>) =>
    async (event: DynamoDBStreamEvent) => {
      calls++;
      const now = performance.now();
      // The realtime path: a record reaching the fan-out.
      if (name === 'fanout') for (const r of event.Records) latencies.push(now - pushedAt.get(r.eventID!)!);
    };
  const emulators: { stream: StreamEmulator; pollers: StreamPollers }[] = [];
  if (mode === 'before') {
    // Nine readers, as the runtime subscribed them before the routers (one emulator each: the
    // emulator itself now refuses a third reader, as DynamoDB Streams does).
    for (const c of streamConsumers) {
      const stream = new StreamEmulator();
      const pollers = new StreamPollers(stream);
      pollers.subscribe({ name: c.name, handler: stub(c.name), batchSize: c.batchSize, filters: c.filters });
      emulators.push({ stream, pollers });
    }
  } else {
    const stream = new StreamEmulator();
    const pollers = new StreamPollers(stream);
    for (const { name } of streamRouters) {
      const consumers = consumersOf(name);
      const router = new StreamRouter(
        name,
        consumers.map((c) => ({
          name: c.name,
          batchSize: c.batchSize,
          filters: c.filters,
          timeoutSeconds: c.timeoutSeconds,
          handler: async () => stub(c.name),
        })),
      );
      const filters = routerFilters(consumers);
      pollers.subscribe({
        name: `${name}-router`,
        handler: (event, context) => router.handle(event as DynamoDBStreamEvent, context as never),
        batchSize: routerBatchSize(consumers),
        timeoutSeconds: routerTimeoutSeconds(consumers),
        filters,
      });
    }
    emulators.push({ stream, pollers });
  }
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 1; i <= sends; i++) {
    for (const write of sendWrites(i)) {
      const now = performance.now();
      for (const r of write) pushedAt.set(r.eventID!, now);
      for (const { stream } of emulators) for (const r of write) stream.push(r);
      // A write every so often, as a busy runtime's: the consumers' turns come between them.
      await new Promise((r) => setImmediate(r));
    }
  }
  await Promise.all(emulators.map((e) => e.pollers.idle()));
  const used = process.cpuUsage(cpu);
  return { latencies, calls, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - start };
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const results: Record<string, Run> = {};
// Warm-up, then alternate, twice each.
await run('after');
await run('before');
for (const mode of ['before', 'after', 'before', 'after'] as const) {
  const r = await run(mode);
  const previous = results[mode];
  results[mode] = previous
    ? {
        latencies: [...previous.latencies, ...r.latencies],
        calls: previous.calls + r.calls,
        cpuMs: previous.cpuMs + r.cpuMs,
        wallMs: previous.wallMs + r.wallMs,
      }
    : r;
}
for (const [mode, r] of Object.entries(results)) {
  console.log(
    `${mode.padEnd(6)} ${r.latencies.length} records to fanout: p50 ${pct(r.latencies, 50).toFixed(3)} ms, p95 ${pct(r.latencies, 95).toFixed(3)} ms, p99 ${pct(r.latencies, 99).toFixed(3)} ms; handler calls ${r.calls}; CPU ${r.cpuMs.toFixed(0)} ms, wall ${r.wallMs.toFixed(0)} ms for ${2 * sends} sends`,
  );
}
