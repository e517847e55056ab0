/**
 * The channel worker fleet's routing (ADR-0203), on a local runtime
 * of this file's own with two, three and four worker processes' loops in this process: each worker
 * has a queue of its own, the shared queue's commands are routed to the holder of their
 * connection's lease, and received there once, with no hand-back; a connection's commands keep
 * their order; a command for a connection nobody holds is placed on a live worker with room, which
 * takes the session. Sessions are light doubles (no socket); read receipts, which a worker sends
 * only through a session it holds, show which worker ran each command.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeServiceStatus } from '#db/services.ts';
import { readLease } from '#db/leases.ts';
import { listWorkerBeats, writeWorkerBeat } from '#db/worker-beats.ts';
import { acquireLease } from '#db/leases.ts';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { fleetQueues } from '#connectors/fleet-queues.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import type { WorkerCommand } from '#domain/channels/worker-commands.ts';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import { runWorkerProcess, type WorkerProcess } from '#connectors/worker-queue.ts';
import { sqsWorkerQueue } from '#lib/sqs-worker-queue.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import type { SqsEmulator } from '../../infra/local/emulators/sqs-emulator.ts';
import { SocketDouble } from '../support/whatsapp-double.ts';
import { ownRuntime, whatsappTeam } from './own-runtime.ts';
import { eventually } from './worker.ts';

/** Read receipts run, in order: by which worker, for which connection, which command. */
const ran: { worker: string; serviceId: string; id: string }[] = [];
/** Which connections each worker may hold (its adapter's `wants`). */
const allowed = new Map<string, Set<string>>();

function fleetAdapter(worker: string): ChannelAdapter {
  const base = whatsappWorkerChannel({ socketFactory: () => new SocketDouble() });
  return {
    ...base,
    sessions: {
      ...base.sessions!,
      wants: (connection) => Boolean(allowed.get(worker)?.has((connection as { id?: string }).id ?? '')) && base.sessions!.wants(connection),
      open: () => ({ stop: async () => undefined }),
      markRead: async (connection, read) => {
        ran.push({ worker, serviceId: connection.serviceId, id: read.messages[0]!.channelMessageId });
      },
    },
  };
}

const fleet = { prefix: `${workerQueue.name}-`, visibilityTimeoutSeconds: workerQueue.visibilityTimeoutSeconds, settleMs: 100 };
const quick = { leaseSeconds: 6, renewEverySeconds: 1, marginSeconds: 2, waitTimeSeconds: 1, drainEverySeconds: 1 };

const own = ownRuntime('conversa-fleet-', {
  channels: [fleetAdapter('local-runtime')],
  // Full with one session: the placement test needs every worker but one full.
  worker: { fleet, ...quick, scanEverySeconds: 1, capacity: 1 },
});

/** Every receive of the emulator (queue, body) and every visibility change (a hand-back), from the test's start. */
function spyOn(queues: SqsEmulator) {
  const received: { queue: string; body: string }[] = [];
  const handedBack: string[] = [];
  const inside = queues as any;
  const take = inside.take.bind(queues);
  inside.take = (queue: { name: string }, ...rest: unknown[]) => {
    const batch = take(queue, ...rest) as { body: string }[];
    for (const m of batch) received.push({ queue: queue.name, body: m.body });
    return batch;
  };
  const act = inside.act.bind(queues);
  inside.act = (action: string, input: { QueueUrl?: string }) => {
    if (action === 'ChangeMessageVisibility') handedBack.push(String(input.QueueUrl));
    return act(action, input);
  };
  return { received, handedBack };
}

/** The read command's id in a received body (plain or forwarded), or null for another command. */
const readIdOf = (body: string): string | null => {
  const parsed = JSON.parse(body) as { command?: WorkerCommand } & WorkerCommand;
  const command = parsed.command ?? parsed;
  return command.kind === 'read' ? command.messages[0]!.channelMessageId : null;
};

const workers: WorkerProcess[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
}, 30_000);

async function startWorker(workerId: string, options: { capacity?: number; scanEverySeconds?: number } = {}) {
  allowed.set(workerId, allowed.get(workerId) ?? new Set());
  const worker = await runWorkerProcess(
    { ...own.ports(), channels: channelRegistry([fleetAdapter(workerId)]) },
    { queueUrl: process.env[workerQueue.urlVariable]!, workerId, fleet, ...quick, scanEverySeconds: 1, ...options },
  );
  workers.push(worker);
  return worker;
}

/** A connection, running, that only `worker` may hold; answers once that worker holds its lease. */
async function connectionHeldBy(worker: string) {
  const team = await whatsappTeam(own.call, 'fleet');
  allowed.set(worker, new Set([...(allowed.get(worker) ?? []), team.serviceId]));
  await writeServiceStatus(
    own.ports().table,
    { accountId: team.accountId, id: team.serviceId, channelType: 'whatsapp' },
    {
      status: 'connected',
      runId: `run-${team.serviceId}`,
      now: new Date().toISOString(),
    },
  );
  await eventually(async () => (await readLease(own.ports().table, team.serviceId))?.ownerId === worker, 15_000);
  return team;
}

const readCommand = (team: { accountId: string; serviceId: string }, id: string): WorkerCommand => ({
  kind: 'read',
  accountId: team.accountId,
  serviceId: team.serviceId,
  channelType: 'whatsapp',
  contactId: 'C-1',
  chat: '5511999990000@s.whatsapp.net',
  messages: [{ channelMessageId: id, author: null }],
});

/**
 * Queues `perConnection` read commands for each connection, interleaved, and checks: each ran once,
 * on its holder, in order; each was received once from the shared queue and once from the
 * holder's own queue, nowhere else; no command was handed back.
 */
async function routesToHolders(teams: { team: { accountId: string; serviceId: string }; holder: string }[], perConnection: number) {
  const spy = spyOn(own.runtime().queues);
  const tag = Date.now().toString(36);
  const commands: WorkerCommand[] = [];
  for (let i = 0; i < perConnection; i++)
    for (const { team } of teams) commands.push(readCommand(team, `${tag}-${team.serviceId}-${String(i).padStart(2, '0')}`));
  await sqsWorkerQueue(process.env[workerQueue.urlVariable]).enqueue(commands);
  const ours = () => ran.filter((r) => r.id.startsWith(tag));
  await eventually(async () => ours().length >= commands.length, 20_000);
  // Nothing more arrives late (a duplicate would).
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(ours()).toHaveLength(commands.length);
  for (const { team, holder } of teams) {
    const mine = ours().filter((r) => r.serviceId === team.serviceId);
    expect(new Set(mine.map((r) => r.worker))).toEqual(new Set([holder]));
    expect(mine.map((r) => r.id)).toEqual([...mine.map((r) => r.id)].sort());
    expect(mine).toHaveLength(perConnection);
  }
  const sharedName = `${workerQueue.name}.fifo`;
  for (const { team, holder } of teams) {
    const holderQueue = `${fleet.prefix}${holder}.fifo`;
    for (let i = 0; i < perConnection; i++) {
      const id = `${tag}-${team.serviceId}-${String(i).padStart(2, '0')}`;
      const receives = spy.received.filter((r) => readIdOf(r.body) === id).map((r) => r.queue);
      expect(receives).toEqual([sharedName, holderQueue]);
    }
  }
  expect(spy.handedBack).toEqual([]);
}

describe('the channel worker fleet: commands routed to the holder’s queue', () => {
  let x: Awaited<ReturnType<typeof connectionHeldBy>>;
  let y: Awaited<ReturnType<typeof connectionHeldBy>>;
  let placed: Awaited<ReturnType<typeof connectionHeldBy>>;

  it('with two workers, each command reaches its holder once, with no hand-back, in its connection’s order', async () => {
    await startWorker('worker-b', { capacity: 1 });
    x = await connectionHeldBy('local-runtime');
    y = await connectionHeldBy('worker-b');
    await routesToHolders(
      [
        { team: x, holder: 'local-runtime' },
        { team: y, holder: 'worker-b' },
      ],
      8,
    );
  }, 60_000);

  it('with three workers, the same', async () => {
    await startWorker('worker-c', { capacity: 1 });
    const z = await connectionHeldBy('worker-c');
    await routesToHolders(
      [
        { team: x, holder: 'local-runtime' },
        { team: y, holder: 'worker-b' },
        { team: z, holder: 'worker-c' },
      ],
      6,
    );
  }, 60_000);

  it('a command for a connection nobody holds is placed on the live worker with room, which takes the session', async () => {
    // Every worker so far is full (capacity 1); a fourth has room, and scans too rarely to find the connection itself.
    await startWorker('worker-d', { capacity: 2, scanEverySeconds: 600 });
    const team = await whatsappTeam(own.call, 'fleet');
    for (const worker of allowed.keys()) allowed.get(worker)!.add(team.serviceId);
    // Running: the stream's `changed` command is routed; nobody holds the connection, only worker-d has room.
    await writeServiceStatus(
      own.ports().table,
      { accountId: team.accountId, id: team.serviceId, channelType: 'whatsapp' },
      {
        status: 'connected',
        runId: 'run-placed',
        now: new Date().toISOString(),
      },
    );
    await eventually(async () => (await readLease(own.ports().table, team.serviceId))?.ownerId === 'worker-d', 15_000);
    await routesToHolders([{ team, holder: 'worker-d' }], 3);
    placed = team;
  }, 60_000);

  it('a graceful stop (SIGTERM) hands over well within the stop timeout: sessions closed, leases released, its queue emptied and deleted, its beat gone', async () => {
    const d = workers.at(-1)!;
    const started = Date.now();
    await d.stop();
    const took = Date.now() - started;
    // The process gives up after STOP_GRACE_SECONDS (50 s) and ECS kills it at 60 s (infra/constructs/channel-worker.ts).
    expect(took).toBeLessThan(10_000);
    expect(await readLease(own.ports().table, placed.serviceId)).toBeUndefined();
    expect(() => own.runtime().queues.depth(`${fleet.prefix}worker-d.fifo`)).toThrow(/does not exist/);
    expect((await listWorkerBeats(own.ports().table)).map((b) => b.workerId)).not.toContain('worker-d');
    console.log(`[fleet] worker-d stopped gracefully in ${took} ms`);
  }, 60_000);
});

describe('a holder whose beat expired', () => {
  it('gets no command: one for a connection it still leases waits where it is, so nothing lands in a queue about to be drained and deleted', async () => {
    const { table } = own.ports();
    const sqs = new SQSClient({});
    const sharedUrl = process.env[workerQueue.urlVariable]!;
    const queues = fleetQueues({ sqs, table, sharedUrl, prefix: fleet.prefix, visibilityTimeoutSeconds: fleet.visibilityTimeoutSeconds, beatsCacheMs: 0 });
    const ghost = 'ghost-worker';
    const ghostUrl = await queues.create(ghost);
    const now = Date.now();
    // Its last beat ran out a second ago; the lease it took still runs for a minute.
    await writeWorkerBeat(table, { workerId: ghost, now: now - 16_000, leaseMs: 15_000, sessions: 1, capacity: 10 });
    const serviceId = `svc-ghost-${now}`;
    expect(await acquireLease(table, { serviceId, accountId: 'acc-ghost', ownerId: ghost, runId: 'run-1', now, leaseMs: 60_000 })).toBeDefined();
    const command: WorkerCommand = { kind: 'logout', serviceId, accountId: 'acc-ghost', channelType: 'whatsapp', requestId: `req-${now}` };
    const message = { MessageId: 'ghost-1', Body: JSON.stringify(command), Attributes: { MessageGroupId: serviceId, SentTimestamp: String(now) } };
    expect(await queues.route(message, sharedUrl)).toEqual({ kind: 'nowhere' });
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: ghostUrl, WaitTimeSeconds: 0 }));
    expect(Messages ?? []).toEqual([]);
    // Beating again, it is the holder once more.
    await writeWorkerBeat(table, { workerId: ghost, now: Date.now(), leaseMs: 15_000, sessions: 1, capacity: 10 });
    expect(await queues.route(message, sharedUrl)).toEqual({ kind: 'forwarded', to: ghost });
    await queues.remove(ghost);
  });
});
