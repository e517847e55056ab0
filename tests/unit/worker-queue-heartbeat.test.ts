/**
 * The worker queue's heartbeat (connectors/worker-queue.ts): received commands are in flight for a
 * short visibility (here 2-3 s, 30 s in production) renewed every third of it while they wait or
 * run. A command that runs for longer than the visibility is not received by another worker; the
 * commands of a worker that is killed reach another within the visibility, not the queue's 120 s;
 * and the backoff a command asks for is not overridden by a renewal. Against the SQS emulator with
 * short configured timeouts.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import type { WorkerCommand } from '#domain/channels/worker-commands.ts';
import type { ChannelWorker, CommandOutcome } from '#connectors/worker.ts';
import { startWorkerQueue, type WorkerQueueLoop } from '#connectors/worker-queue.ts';
import { SqsEmulator } from '../../infra/local/emulators/sqs-emulator.ts';

let sqs: SqsEmulator;
let url: string;
const clients: SQSClient[] = [];
const cleanups: (() => Promise<void>)[] = [];

const newClient = () => {
  const client = new SQSClient({ endpoint: sqs.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  clients.push(client);
  return client;
};

beforeEach(async () => {
  sqs = new SqsEmulator();
  await sqs.listen();
  // The queue as the stack makes it: 120 s of visibility unless the receive says otherwise.
  url = sqs.createQueue('worker.fifo', { visibilityTimeoutSeconds: workerQueue.visibilityTimeoutSeconds });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const client of clients.splice(0)) client.destroy();
  await sqs.close();
});

/** A `changed` command of connection `serviceId`, tagged `tag` (in its change id). */
const command = (serviceId: string, tag: string): WorkerCommand => ({ kind: 'changed', accountId: 'acc', serviceId, change: tag }) as WorkerCommand;
const tagOf = (c: WorkerCommand) => (c as { change: string }).change;

async function enqueue(...commands: WorkerCommand[]) {
  const client = newClient();
  for (const c of commands) {
    const serviceId = (c as { serviceId: string }).serviceId;
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(c), MessageGroupId: serviceId, MessageDeduplicationId: tagOf(c) }));
  }
}

/** A worker whose `run` is `run`: only what the queue loop uses of one. */
const fakeWorker = (workerId: string, run: (c: WorkerCommand) => Promise<CommandOutcome>) => ({ workerId, run }) as unknown as ChannelWorker;

/**
 * An SQS client that can be killed as a process is: its requests under way are cut (a long poll
 * receives nothing more) and no request leaves it afterwards, so it renews nothing. `bury` lets
 * the requests it held fail, so its loop can be stopped at the end of the test.
 */
function killableClient() {
  const real = newClient();
  const cut = new AbortController();
  let dead = false;
  let bury!: () => void;
  const buried = new Promise<void>((resolve) => {
    bury = resolve;
  });
  const client = {
    send(cmd: never, options?: { abortSignal?: AbortSignal }) {
      if (dead) return buried.then(() => Promise.reject(new Error('the process is dead')));
      const signal = options?.abortSignal ? AbortSignal.any([options.abortSignal, cut.signal]) : cut.signal;
      return real.send(cmd, { abortSignal: signal });
    },
  } as unknown as SQSClient;
  return {
    client,
    kill() {
      dead = true;
      cut.abort();
    },
    bury,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
};

describe('the worker queue keeps received commands in flight by a heartbeat', () => {
  it('a command running past its visibility is not received again; a killed worker’s commands reach another within the visibility', async () => {
    const visibilitySeconds = 2;
    await enqueue(command('long', 'long-1'), command('killed', 'killed-1'), command('killed', 'killed-2'));

    // Worker A: the long command takes 2.25 visibilities; the other group's first command never finishes (A gets killed in it).
    const ranByA: string[] = [];
    let unblock!: () => void;
    const blocked = new Promise<CommandOutcome>((resolve) => {
      unblock = () => resolve({ kind: 'done' });
    });
    const a = killableClient();
    const loopA = startWorkerQueue(
      fakeWorker('a', async (c) => {
        ranByA.push(tagOf(c));
        if (tagOf(c) === 'long-1') {
          await sleep(visibilitySeconds * 2250);
          return { kind: 'done' };
        }
        return blocked;
      }),
      { queueUrl: url, client: a.client, waitTimeSeconds: 1, visibilitySeconds },
    );
    cleanups.push(async () => {
      const stopped = loopA.stop();
      unblock();
      a.bury();
      await stopped;
    });
    await until(() => ranByA.length === 2, 3000);

    // Worker B polls the same queue all along.
    const ranByB: { tag: string; at: number }[] = [];
    const loopB: WorkerQueueLoop = startWorkerQueue(
      fakeWorker('b', async (c) => {
        ranByB.push({ tag: tagOf(c), at: Date.now() });
        return { kind: 'done' };
      }),
      { queueUrl: url, client: newClient(), waitTimeSeconds: 1, visibilitySeconds },
    );
    cleanups.push(() => loopB.stop());

    // The long command finishes on A, once, and is deleted; B received nothing meanwhile (A renewed both groups).
    await until(() => sqs.depth('worker.fifo') === 2, visibilitySeconds * 2250 + 1500);
    await sleep(300);
    expect(ranByA).toEqual(['long-1', 'killed-1']);
    expect(ranByB).toEqual([]);
    // What the task publishes as WorkerCommandAge: the commands A holds have been queued since the start.
    expect(loopA.oldestCommandSeconds()).toBeGreaterThanOrEqual(4);

    // A dies in the middle of killed-1: B runs both of its group's commands, in order, within the visibility (plus a poll).
    const killedAt = Date.now();
    a.kill();
    await until(() => ranByB.length === 2, visibilitySeconds * 1000 + 2000);
    expect(ranByB.map((r) => r.tag)).toEqual(['killed-1', 'killed-2']);
    expect(ranByB[0]!.at - killedAt).toBeLessThan(visibilitySeconds * 1000 + 1500);
    await until(() => sqs.depth('worker.fifo') === 0, 2000);
    expect(ranByA.filter((t) => t === 'long-1')).toHaveLength(1);
    // B received them that old; once reported, and with nothing held, it reports 0.
    expect(loopB.oldestCommandSeconds()).toBeGreaterThanOrEqual(5);
    expect(loopB.oldestCommandSeconds()).toBe(0);
    console.log(`[heartbeat test] killed worker's command reached another after ${ranByB[0]!.at - killedAt} ms (visibility ${visibilitySeconds} s)`);
  }, 15_000);

  it('a backoff the command asks for is kept: a renewal under way does not push it out to the whole visibility', async () => {
    const visibilitySeconds = 3;
    await enqueue(command('s', 'later-1'));
    const runs: { start: number; end: number }[] = [];
    const loop = startWorkerQueue(
      fakeWorker('a', async () => {
        const start = Date.now();
        if (runs.length === 0) {
          // Runs past one renewal (every second), then asks to be tried again in 1 s.
          await sleep(1300);
          runs.push({ start, end: Date.now() });
          return { kind: 'later', seconds: 1 };
        }
        runs.push({ start, end: Date.now() });
        return { kind: 'done' };
      }),
      { queueUrl: url, client: newClient(), waitTimeSeconds: 1, visibilitySeconds },
    );
    cleanups.push(() => loop.stop());
    await until(() => runs.length === 2, 5000);
    const again = runs[1]!.start - runs[0]!.end;
    expect(again).toBeGreaterThanOrEqual(900);
    expect(again).toBeLessThan(visibilitySeconds * 1000 - 500);
    await until(() => sqs.depth('worker.fifo') === 0, 2000);
  }, 10_000);
});
