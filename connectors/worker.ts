/**
 * The channel worker: hosts a session for every connection whose adapter holds sessions
 * (`ports.channels`, each adapter's `sessions`: Telegram long polling where no webhook reaches,
 * WhatsApp's socket). It reconciles: the desired state of each connection is in the table (its
 * status and run), learnt from the running index (at start and on a periodic scan) and from the
 * table's stream; the worker opens, replaces or closes the connection's session until what runs
 * matches it. Changes of one connection are applied one at a time, in order, in a queue of its own:
 * a slow change of one connection never delays another's.
 *
 * Several workers may run: each session is owned by one worker at a time through the connection's
 * lease in the table (`shared/db/leases.ts`). A worker opens a session only after acquiring the
 * lease, renews its leases on a timer, stops a session at once when its lease is refused or could
 * not be renewed before `expiresAt - margin`, and releases its leases on a graceful stop. The scan
 * takes over connections whose lease is free or expired (a dead worker's). The timing argument,
 * the takeover bound and how sessions spread are in ADR-0064.
 *
 * In a fleet, each scan also shares the sessions out (ADR-0203): the
 * workers' beats say how many live, so each knows its fair share of the sessions wanted; a worker
 * over its share plus a slack lets part of its excess go per scan (closed, lease released) and
 * takes none, and a worker takes free sessions only up to its share, its takeovers paced.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceType } from '#contracts/services.ts';
import { acquireLease, type LeaseItem, readLease, releaseLease, renewLease } from '#db/leases.ts';
import { deleteWorkerBeat, listWorkerBeats, markLeaving, writeWorkerBeat } from '#db/worker-beats.ts';
import { getServiceItem, isRunningStatus, runningServices, type ServiceItem } from '#db/services.ts';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import { ChannelSendError, type ChannelSession, type ContactCheck, type InboundSink } from '#domain/channels/port.ts';
import { sessionReport } from '#domain/channels/session-report.ts';
import type { WorkerCommand } from '#domain/channels/worker-commands.ts';
import { applyContactCheck } from '#domain/contacts/contact-check.ts';
import { dispatchQueued } from '#domain/messages/dispatch.ts';
import type { DispatchDelivery } from '#domain/messages/outbound-queue.ts';
import type { Ports } from '#domain/ports.ts';
import { defaultRebalance, fairShare, type RebalanceOptions, sessionsToLetGo, sessionsToTake } from './fleet-placement.ts';
import { defaultSendCaps, type SendCapOptions, sendCaps } from './send-caps.ts';
import { changeStallMs } from './liveness.ts';
import { defaultPace, type PaceOptions, sendPacer } from './send-pace.ts';

/** How often read receipts wait for a reconnecting session before they are dropped. */
const readTries = 6;

/**
 * What became of a command: done (delete it), `later` (the connection's group waits that long: the
 * channel asked, as on the send queue), or `elsewhere` (another live worker holds the session:
 * give the command back at once so the holder receives it).
 */
export type CommandOutcome = { kind: 'done' } | { kind: 'later'; seconds: number } | { kind: 'elsewhere' };

export interface ChannelWorker {
  /** Runs a command of the worker queue; `delivery` says how often it was received and since when it waits. */
  run(command: WorkerCommand, delivery: DispatchDelivery): Promise<CommandOutcome>;
  /** How many sessions are held. */
  readonly sessions: number;
  /** The id this worker holds leases under. */
  readonly workerId: string;
  /** When its loops last turned, for a liveness check (`connectors/liveness.ts`). */
  readonly heartbeat: WorkerHeartbeat;
  /**
   * Graceful stop (a deploy's SIGTERM): the beat counts as gone at once (nothing more is placed
   * here), every session stops, then its lease is released so another worker takes it over at
   * once; then `handOver` (the process empties its own queue) and the beat is deleted. Should
   * `handOver` fail, the beat stays claimed for a while, then another worker drains the queue.
   */
  stop(handOver?: () => Promise<void>): Promise<void>;
}

/** Times in epoch ms (this process's clock). */
export interface WorkerHeartbeat {
  /** When the last scan of the running index ended, whether it succeeded or failed. */
  readonly scannedAt: number;
  /** The scan's period (each scan is due within 1.2 times it, with jitter). */
  readonly scanEveryMs: number;
  /** When the renewal timer last fired. */
  readonly renewedAt: number;
  readonly renewEveryMs: number;
  /** The changes being applied now, at most one per connection (each has its own queue), with when each started. */
  readonly changes: readonly { serviceId: string; since: number }[];
}

export interface ChannelWorkerOptions {
  /** The owner id written on leases; a random id per process unless given (the local runtime, one process per data folder, gives a fixed one). */
  workerId?: string;
  /** How long a lease lasts without renewal. */
  leaseSeconds?: number;
  /** How often held leases are renewed (default a third of the lease). */
  renewEverySeconds?: number;
  /**
   * How long before `expiresAt` (by this worker's clock) a lease that could not be renewed counts
   * as lost and its session stops (default a third of the lease). It must cover the clock skew
   * between workers, a late timer and the session's close.
   */
  marginSeconds?: number;
  /** How often the running index is scanned for connections whose lease is free or expired (±20% jitter). */
  scanEverySeconds?: number;
  /** The most sessions this worker holds (default unlimited). */
  capacity?: number;
  /** Pacing of sends per connection (default about one a second). */
  pace?: PaceOptions;
  /** Daily caps per connection: sends, and chats opened (default `defaultSendCaps`). */
  sendCaps?: SendCapOptions;
  /** How fast sessions are let go over the fair share and taken over by the scan (default `defaultRebalance`). */
  rebalance?: Partial<RebalanceOptions>;
  /** Told of what the worker did, for metrics (the Fargate entry counts them; the local runtime does not). */
  events?: WorkerEvents;
}

/** What the worker reports as it works: the same events the Lambda functions count. */
export interface WorkerEvents {
  /** A send was answered by its channel (recorded as sent, or as failed with its reason). */
  sendAnswered?(answer: { sent: boolean; channel: ServiceType | null }): void;
  /** An inbound message was stored (a new one, not a repeat). */
  messageStored?(channel: ServiceType): void;
  /** A scan counted the fleet: sessions wanted, live workers, sessions held here, this worker's capacity (null: unlimited). */
  fleetCounted?(fleet: FleetCount): void;
}

export interface FleetCount {
  wanted: number;
  live: number;
  held: number;
  capacity: number | null;
}

interface Held {
  accountId: string;
  runId: string;
  session: ChannelSession;
  /** Stops the session when the lease could not be renewed in time. */
  deadline?: NodeJS.Timeout;
  renewing: boolean;
}

export async function startChannelWorker(ports: Ports, options: ChannelWorkerOptions = {}): Promise<ChannelWorker> {
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const leaseMs = (options.leaseSeconds ?? 30) * 1000;
  const renewMs = (options.renewEverySeconds ?? leaseMs / 3000) * 1000;
  const marginMs = (options.marginSeconds ?? leaseMs / 3000) * 1000;
  const scanMs = (options.scanEverySeconds ?? 15) * 1000;
  const capacity = options.capacity ?? Number.POSITIVE_INFINITY;
  const rebalance: RebalanceOptions = { ...defaultRebalance, ...options.rebalance };
  if (renewMs >= leaseMs - marginMs) throw new Error('the lease must be renewed more often than it is held (renewEverySeconds < leaseSeconds - marginSeconds)');

  const { table } = ports;
  const consistent = true;
  const pacer = sendPacer(options.pace ?? defaultPace);
  const caps = sendCaps(ports, options.sendCaps ?? defaultSendCaps);
  /** Sends a daily cap let go after holding them: when, and at which receive (dispatch's bounds count from there). */
  const released = new Map<string, { at: number; receiveCount: number }>();
  const holders = ports.channels.all().filter((adapter) => adapter.sessions);
  const held = new Map<string, Held>();
  /** Sessions closing (replaced, or their lease lost): a new session of the connection opens only after. */
  const closing = new Map<string, Promise<void>>();
  /** Connections whose session is being opened (their changes run side by side): they count against the capacity before they are held. */
  const opening = new Set<string>();
  let stopped = false;
  // One change of a connection at a time, in order (a stop never overtakes the start before it); each connection has its own queue.
  const queues = new Map<string, Promise<void>>();
  /** The change under way of each connection, since when. */
  const changing = new Map<string, number>();
  const beat = { scannedAt: 0, renewedAt: Date.now() };

  const wanted = (item: ServiceItem | undefined): ServiceItem | undefined => {
    if (stopped || !item || !item.runId || !isRunningStatus(item.status)) return undefined;
    return ports.channels.get(item.channelType)?.sessions?.wants(item) ? item : undefined;
  };

  /** Ends a session (`end`: how; a plain stop unless told), so that a new session of the connection opens only after. */
  const close = (serviceId: string, entry: Held, end = () => entry.session.stop()): Promise<void> => {
    clearTimeout(entry.deadline);
    if (held.get(serviceId) === entry) held.delete(serviceId);
    const done = end().catch((error) => console.error(`[worker] connection ${serviceId}: closing the session`, error));
    const waited = Promise.all([closing.get(serviceId), done]).then(() => undefined);
    closing.set(serviceId, waited);
    void waited.then(() => {
      if (closing.get(serviceId) === waited) closing.delete(serviceId);
    });
    return done;
  };

  /** The lease is gone or may be: the session stops now, whatever else is under way. */
  const lose = (serviceId: string, entry: Held, why: string) => {
    if (held.get(serviceId) !== entry) return;
    console.warn(`[worker] connection ${serviceId}: ${why}; its session stops`);
    void close(serviceId, entry);
  };

  /** The lease counts as ours until `until` (this worker's clock): past it, the session stops. */
  const armDeadline = (serviceId: string, entry: Held, until: number) => {
    clearTimeout(entry.deadline);
    entry.deadline = setTimeout(() => lose(serviceId, entry, 'its lease could not be renewed in time'), Math.max(0, until - Date.now()));
    entry.deadline.unref();
  };

  const reconcile = async (serviceId: string, item: ServiceItem | undefined) => {
    try {
      await reconcileOnce(serviceId, item);
    } finally {
      opening.delete(serviceId);
    }
  };
  const reconcileOnce = async (serviceId: string, item: ServiceItem | undefined) => {
    const current = held.get(serviceId);
    const want = wanted(item);
    if (current && want && current.runId === want.runId) return;
    if (current) {
      await close(serviceId, current);
      // Not wanted any more: give the lease up. A new run keeps it (renewed below for that run).
      if (!want) await releaseLease(table, serviceId, workerId);
    }
    if (!want) return;
    if (!current && held.size + opening.size >= capacity) return;
    if (!current) opening.add(serviceId);
    const now = Date.now();
    const claim = { serviceId, accountId: want.accountId, ownerId: workerId, runId: want.runId!, now, leaseMs };
    const ours = current ? await renewLease(table, claim) : Boolean(await acquireLease(table, claim));
    if (!ours) return; // another worker holds the session
    const sessions = ports.channels.get(want.channelType)!.sessions!;
    const run = {
      accountId: want.accountId,
      serviceId: want.id,
      type: want.channelType,
      token: want.tokenSealed ? await ports.vault.open(want.tokenSealed) : null,
      runId: want.runId!,
      pairingPhone: want.pairingPhone ?? null,
    };
    await closing.get(serviceId);
    const until = now + leaseMs - marginMs;
    if (Date.now() >= until) return; // too slow to trust the lease: the next scan tries again
    const sink = inboundSink(ports, run);
    const stored = options.events?.messageStored;
    const inbound: InboundSink = stored
      ? {
          ...sink,
          message: async (input) => {
            const isNew = await sink.message(input);
            if (isNew) stored(run.type);
            return isNew;
          },
        }
      : sink;
    const session = sessions.open({ ports, run, report: sessionReport(ports, run), inbound, leaseOwner: workerId });
    const entry: Held = { accountId: want.accountId, runId: run.runId, session, renewing: false };
    opening.delete(serviceId);
    held.set(serviceId, entry);
    armDeadline(serviceId, entry, until);
  };
  const enqueue = <T>(serviceId: string, job: () => Promise<T>): Promise<T> => {
    const next = (queues.get(serviceId) ?? Promise.resolve()).then(async () => {
      changing.set(serviceId, Date.now());
      // Logged, not fatal: the connection's later changes wait for it, other connections go on.
      const slow = setTimeout(
        () => console.warn(`[worker] connection ${serviceId}: a change has been running for over ${changeStallMs / 1000} s`),
        changeStallMs,
      );
      slow.unref();
      try {
        return await job();
      } finally {
        clearTimeout(slow);
        changing.delete(serviceId);
      }
    });
    const tail = next.then(
      () => undefined,
      (error) => console.error(`[worker] connection ${serviceId}`, error),
    );
    queues.set(serviceId, tail);
    void tail.then(() => {
      if (queues.get(serviceId) === tail) queues.delete(serviceId);
    });
    return next;
  };

  /** This process's heartbeat in the table (the health route counts live workers by it); a failed write is retried at the next tick. */
  let beating: Promise<void> = Promise.resolve();
  const beatInTable = () => {
    beating = writeWorkerBeat(table, { workerId, now: Date.now(), leaseMs, sessions: held.size, capacity }).catch((error) =>
      console.error('[worker] writing the heartbeat', error),
    );
    return beating;
  };

  const renewAll = () => {
    beat.renewedAt = Date.now();
    if (!stopped) void beatInTable();
    for (const [serviceId, entry] of held) {
      if (entry.renewing) continue;
      entry.renewing = true;
      const now = Date.now();
      renewLease(table, { serviceId, ownerId: workerId, runId: entry.runId, now, leaseMs })
        .then(
          (ours) => {
            if (!ours) lose(serviceId, entry, 'its lease is held by another worker');
            else if (held.get(serviceId) === entry) armDeadline(serviceId, entry, now + leaseMs - marginMs);
          },
          // The deadline stops the session if renewals keep failing.
          (error) => console.error(`[worker] connection ${serviceId}: renewing the lease`, error),
        )
        .finally(() => {
          entry.renewing = false;
        });
    }
  };

  /** Whether another worker holds the lease and it has not expired. */
  const heldElsewhere = (lease: LeaseItem | undefined) => Boolean(lease && lease.ownerId !== workerId && lease.expiresAt >= Date.now());

  const done: CommandOutcome = { kind: 'done' };
  const elsewhere: CommandOutcome = { kind: 'elsewhere' };

  /** Another live worker holds the connection's session (this one does not): the command is for it. */
  const forAnother = async (serviceId: string) => !held.has(serviceId) && heldElsewhere(await readLease(table, serviceId));

  const hasRoom = () => held.size + opening.size < capacity;

  /**
   * A command placed here for a connection nobody holds (the fleet puts it on the worker with the
   * most room): this worker takes the session now, so the connection's next commands find a
   * holder. With no room left, it is for another worker.
   */
  const adopt = async (accountId: string, serviceId: string): Promise<boolean> => {
    if (held.has(serviceId) || stopped) return true;
    if (!hasRoom()) return false;
    await enqueue(serviceId, async () => {
      if (!held.has(serviceId) && hasRoom()) await reconcile(serviceId, await getServiceItem(table, accountId, serviceId, { consistent }));
    });
    return true;
  };

  const run = async (command: WorkerCommand, delivery: DispatchDelivery): Promise<CommandOutcome> => {
    switch (command.kind) {
      case 'changed': {
        const { accountId, serviceId } = command;
        if (await forAnother(serviceId)) return elsewhere;
        if (!held.has(serviceId) && !hasRoom()) return elsewhere;
        await enqueue(serviceId, async () => reconcile(serviceId, await getServiceItem(table, accountId, serviceId, { consistent })));
        return done;
      }
      case 'send': {
        const { request } = command;
        if (await forAnother(request.serviceId)) return elsewhere;
        if (!(await adopt(request.accountId, request.serviceId))) return elsewhere;
        // One send of a connection at a time, whichever group it comes from (a held send waits in its conversation's group): the caps count between them.
        return inTurn(request.serviceId, () => sendOne(command, delivery));
      }
      case 'logout':
        return logout(command);
      case 'read':
        return read(command, delivery);
      case 'check':
        return check(command, delivery);
    }
  };

  /**
   * A contact made by hand, checked on the channel through the session this worker holds. With no
   * session held anywhere it is dropped (the first send checks); a held session reconnecting gets
   * it 5 s later, a few times, like read receipts.
   */
  const check = async (command: Extract<WorkerCommand, { kind: 'check' }>, delivery: DispatchDelivery): Promise<CommandOutcome> => {
    const { accountId, serviceId, channelType } = command;
    if (await forAnother(serviceId)) return elsewhere;
    const checkContact = ports.channels.get(channelType)?.sessions?.checkContact;
    if (!checkContact || !held.has(serviceId)) return done;
    let answer: ContactCheck;
    try {
      answer = await checkContact({ accountId, serviceId, type: channelType, token: null }, command.id);
    } catch (error) {
      const wait = error instanceof ChannelSendError ? error.options.retryAfterSeconds : undefined;
      if (wait !== undefined && delivery.receiveCount < readTries) return { kind: 'later', seconds: wait };
      console.warn(`[worker] connection ${serviceId}: contact ${command.contactId} not checked`, (error as Error).message);
      return done;
    }
    await applyContactCheck(ports, command, answer);
    return done;
  };

  /** Each connection's sends, one after another (a chain per connection, forgotten when idle). */
  const sendTurns = new Map<string, Promise<unknown>>();
  const inTurn = <T>(serviceId: string, job: () => Promise<T>): Promise<T> => {
    const next = (sendTurns.get(serviceId) ?? Promise.resolve()).then(job, job);
    const tail = next.catch(() => undefined);
    sendTurns.set(serviceId, tail);
    void tail.then(() => {
      if (sendTurns.get(serviceId) === tail) sendTurns.delete(serviceId);
    });
    return next;
  };

  const sendOne = async (command: Extract<WorkerCommand, { kind: 'send' }>, delivery: DispatchDelivery): Promise<CommandOutcome> => {
    const { request } = command;
    // The number's daily cap reached: the group waits (the message says why), and the send goes on the next day.
    const verdict = await caps.gate(request);
    if (verdict.kind === 'wait') return { kind: 'later', seconds: verdict.seconds };
    // The cap on new chats: the send waits in its conversation's own group, so the connection's other sends go on.
    if (verdict.kind === 'hold') {
      if (command.held) return { kind: 'later', seconds: verdict.seconds };
      await ports.workerQueue.enqueue([{ ...command, held: true }]);
      return done;
    }
    // Dispatch's bounds (15 minutes, 10 hand-overs) count from the moment a cap let the send go, not from its queueing.
    const attempt = `${request.messageId}#${request.sendAttempt}`;
    if (verdict.waited) released.set(attempt, { at: Date.now(), receiveCount: delivery.receiveCount });
    const since = released.get(attempt);
    const bounds = since
      ? {
          receiveCount: Math.max(1, delivery.receiveCount - since.receiveCount + 1),
          enqueuedAt: new Date(Math.max(since.at, delivery.enqueuedAt.getTime())),
        }
      : delivery;
    // Held here, or by nobody (then the channel asks to come back, until dispatch's bounds fail the message).
    const outcome = await dispatchQueued(ports, request, bounds, {
      pace: () => pacer.turn(request.serviceId),
      started: () => pacer.started(request.serviceId),
    });
    if (outcome.kind === 'done') released.delete(attempt);
    if (outcome.kind === 'done' && outcome.answer?.sent) {
      await caps.sent(request, verdict.newChat).catch((error) => console.error(`[worker] connection ${request.serviceId}: a send was not counted`, error));
    }
    if (outcome.kind === 'done' && outcome.answer) options.events?.sendAnswered?.(outcome.answer);
    return outcome.kind === 'later' ? outcome : done;
  };

  /**
   * Read receipts go through the session this worker holds. With no session held anywhere they are
   * dropped (the conversation is read in the inbox all the same; a receipt is not worth opening a
   * session); a held session without a live socket (reconnecting) gets them 5 s later, a few times.
   */
  const read = async (command: Extract<WorkerCommand, { kind: 'read' }>, delivery: DispatchDelivery): Promise<CommandOutcome> => {
    const { accountId, serviceId, channelType } = command;
    if (await forAnother(serviceId)) return elsewhere;
    const markRead = ports.channels.get(channelType)?.sessions?.markRead;
    if (!markRead || !held.has(serviceId)) return done;
    try {
      await markRead({ accountId, serviceId, type: channelType, token: null }, { chat: command.chat, messages: command.messages });
    } catch (error) {
      const wait = error instanceof ChannelSendError ? error.options.retryAfterSeconds : undefined;
      if (wait !== undefined && delivery.receiveCount < readTries) return { kind: 'later', seconds: wait };
      console.warn(`[worker] connection ${serviceId}: read receipts not sent`, (error as Error).message);
    }
    return done;
  };

  const logout = async ({ accountId, serviceId, channelType }: Extract<WorkerCommand, { kind: 'logout' }>): Promise<CommandOutcome> => {
    if (await forAnother(serviceId)) return elsewhere;
    // In the order of the connection's changes; the unpairing itself (up to the session's timeout) runs outside that order.
    const heldHere = await enqueue(serviceId, async () => {
      const entry = held.get(serviceId);
      const end = async () => {
        await entry?.session.logout?.();
        await entry?.session.stop();
      };
      return entry ? { closed: close(serviceId, entry, end) } : null;
    });
    if (heldHere) {
      // Through the live session; it ends, and the lease goes with it (a connection still running gets a new session at the next scan).
      await heldHere.closed;
      await releaseLease(table, serviceId, workerId);
      return done;
    }
    // Nobody holds a session: take the lease for the time of the logout, so none opens meanwhile.
    const claim = { serviceId, accountId, ownerId: workerId, runId: 'logout', now: Date.now(), leaseMs: Math.max(leaseMs, logoutLeaseMs) };
    if (held.has(serviceId) || !(await acquireLease(table, claim))) return elsewhere;
    try {
      await ports.channels.get(channelType)?.sessions?.logoutWithoutSession?.(ports, { accountId, serviceId, type: channelType, token: null });
    } finally {
      await releaseLease(table, serviceId, workerId);
    }
    return done;
  };

  /**
   * This worker's fair share of the sessions wanted, from the workers that beat within two renewal
   * periods (a dead worker drops out of the count before its leases expire); Infinity when the
   * beats cannot be read (the capacity alone bounds the scan, as before the fleet shared out).
   */
  const shareOf = async (wantedCount: number): Promise<{ share: number; over: number; live: number; least: number }> => {
    try {
      const since = Date.now() - 2 * renewMs;
      const others = (await listWorkerBeats(table)).filter((b) => b.beatAt >= since && b.expiresAt >= Date.now() && b.workerId !== workerId);
      const live = others.length + 1;
      // The fewest sessions another live worker holds (as of its last beat): a worker well under its share can take more.
      const least = Math.min(...others.map((b) => b.sessions ?? 0));
      return { ...fairShare(wantedCount, live, capacity), live, least };
    } catch (error) {
      console.error('[worker] reading the fleet’s beats', error);
      return { share: capacity, over: Number.POSITIVE_INFINITY, live: 1, least: Number.POSITIVE_INFINITY };
    }
  };

  /**
   * Lets go of up to `count` sessions (over the fair share): closed, lease released, so a worker
   * under its share takes them at its scan. Those with changes or sends under way stay, and one
   * whose send started meanwhile is not closed under it.
   */
  const letGo = (count: number) => {
    const idle = [...held.keys()].filter((id) => !queues.has(id) && !sendTurns.has(id));
    for (const serviceId of shuffled(idle).slice(0, count)) {
      void enqueue(serviceId, async () => {
        const entry = held.get(serviceId);
        if (!entry || stopped || sendTurns.has(serviceId)) return;
        console.log(`[worker] connection ${serviceId}: let go to share the sessions out`);
        await close(serviceId, entry);
        await releaseLease(table, serviceId, workerId);
      });
    }
  };

  /**
   * The turn of a session the scan takes over: each waits until `startEveryMs` after the one
   * before, so a scan taking many (a task joining, a dead task's sessions, a start) logs them in
   * to WhatsApp a few a second rather than all at once.
   */
  let lastStart = 0;
  let turns: Promise<void> = Promise.resolve();
  /** Turns being waited for: a stop ends the waits at once. */
  const waitingTurns = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        waitingTurns.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      waitingTurns.add(end);
    });
  // One turn after another, each `startEveryMs` after the previous one was given (a late timer does not bunch the next ones).
  const startTurn = () => {
    const turn = turns.then(async () => {
      const wait = lastStart + rebalance.startEveryMs - Date.now();
      if (wait > 0 && !stopped) await pause(wait);
      lastStart = Date.now();
    });
    turns = turn;
    return turn;
  };
  /** Connections the scan is taking over (waiting for their turn, or opening). */
  const taking = new Set<string>();

  /** Connections that should run but that no live worker holds: tries up to the room under the share, in random order so workers scanning together split them. */
  const scan = async () => {
    const running = new Map<string, ServiceItem>();
    for (const adapter of holders) {
      for (const item of await runningServices(table, adapter.type)) if (wanted(item)) running.set(item.id, item);
    }
    const { share, over, live, least } = await shareOf(running.size);
    options.events?.fleetCounted?.({ wanted: running.size, live, held: held.size, capacity: Number.isFinite(capacity) ? capacity : null });
    // Over the share plus the slack, or over the share while another worker is more than the slack
    // under it (a worker that just joined): part of the excess goes, down to the share at most, and
    // none are taken here (the scans of workers under their share take them). Nobody takes past
    // the share, nobody lets go under it: the counts only move towards the share, so they settle.
    letGo(sessionsToLetGo(held.size, { share, over }, least, rebalance));
    const free: ServiceItem[] = [];
    /**
     * Held sessions whose item changed without this worker being told (a stream record it missed):
     * queued as the `changed` command the stream would have queued, never reconciled here. In the
     * connection's group it comes after the commands queued before the change, as the stream's
     * would: a logout queued before its status was written still finds the live session (ADR-0087;
     * ADR-0240).
     */
    const missed: WorkerCommand[] = [];
    for (const item of shuffled([...running.values()])) {
      // A connection with changes under way or queued reconciles on its item then; the next scan looks again (a hung change does not pile up scans).
      if (queues.has(item.id)) continue;
      const entry = held.get(item.id);
      if (!entry) free.push(item);
      // A new run while the status stayed running (a restart whose change this worker missed).
      else if (entry.runId !== item.runId) missed.push({ kind: 'changed', accountId: item.accountId, serviceId: item.id, change: `scan:run:${item.runId}` });
    }
    // Sessions nobody holds, taken up to the room under the share (leases read a few at a time, only
    // while there is room), each opened at its turn (`startTurn`).
    let room = sessionsToTake(held.size, new Set([...opening, ...taking]).size, share, capacity);
    for (let i = 0; i < free.length && room > 0; i += takeReadsAtOnce) {
      const batch = free.slice(i, i + takeReadsAtOnce);
      const leases = await Promise.all(
        batch.map((item) =>
          readLease(table, item.id).then(
            (lease) => ({ item, lease }),
            (error: unknown) => ({ item, error }),
          ),
        ),
      );
      for (const read of leases) {
        if (room <= 0 || stopped) break;
        const { item } = read;
        if ('error' in read) {
          console.error(`[worker] connection ${item.id}: reading the lease`, read.error);
          continue;
        }
        if (heldElsewhere(read.lease) || held.has(item.id) || queues.has(item.id)) continue;
        room--;
        taking.add(item.id);
        void enqueue(item.id, async () => {
          try {
            const full = () => stopped || held.has(item.id) || held.size + opening.size >= Math.min(capacity, share);
            if (full()) return;
            await startTurn();
            if (full() || heldElsewhere(await readLease(table, item.id))) return;
            // The index lags behind the item: reconcile on the item as it is now.
            await reconcile(item.id, await getServiceItem(table, item.accountId, item.id, { consistent }));
          } finally {
            taking.delete(item.id);
          }
        });
      }
    }
    // Held sessions whose connection left the index (stopped, logged out, deleted).
    for (const [serviceId, entry] of held) {
      if (!running.has(serviceId) && !queues.has(serviceId))
        missed.push({ kind: 'changed', accountId: entry.accountId, serviceId, change: `scan:left:${entry.runId}` });
    }
    // One command per run and kind within SQS's deduplication window, however many scans see it; a failure is tried at the next scan.
    if (missed.length) await ports.workerQueue.enqueue(missed).catch((error) => console.error('[worker] queueing the changes the scan found', error));
  };

  let scanTimer: NodeJS.Timeout | undefined;
  const scheduleScan = () => {
    scanTimer = setTimeout(
      () => {
        scan()
          .catch((error) => console.error('[worker] scan', error))
          .finally(() => {
            beat.scannedAt = Date.now();
            if (!stopped) scheduleScan();
          });
      },
      scanMs * (0.8 + Math.random() * 0.4),
    );
    scanTimer.unref();
  };
  const renewTimer = setInterval(renewAll, renewMs);
  renewTimer.unref();

  await beatInTable();
  await scan();
  beat.scannedAt = Date.now();
  scheduleScan();

  return {
    run,
    get sessions() {
      return held.size;
    },
    workerId,
    get heartbeat() {
      return { ...beat, scanEveryMs: scanMs, renewEveryMs: renewMs, changes: [...changing].map(([serviceId, since]) => ({ serviceId, since })) };
    },
    async stop(handOver) {
      stopped = true;
      for (const end of [...waitingTurns]) end();
      clearTimeout(scanTimer);
      clearInterval(renewTimer);
      // Nothing more is placed here, and the health route stops counting this worker; its drain is claimed by itself.
      await beating;
      await markLeaving(table, { workerId, now: Date.now(), until: Date.now() + leavingClaimMs }).catch((error) =>
        console.error('[worker] marking the heartbeat as leaving', error),
      );
      await Promise.all(queues.values());
      const all = [...held];
      await Promise.all(
        all.map(async ([serviceId, entry]) => {
          await close(serviceId, entry);
          // Released only once the session is closed: the next holder never overlaps it.
          await releaseLease(table, serviceId, workerId).catch((error) => console.error(`[worker] connection ${serviceId}: releasing the lease`, error));
        }),
      );
      await Promise.all(closing.values());
      if (handOver) {
        try {
          await handOver();
        } catch (error) {
          console.error('[fleet] routing failed: handing over at the stop failed; another worker will drain this one’s queue', error);
          return;
        }
      }
      await deleteWorkerBeat(table, workerId).catch((error) => console.error('[worker] removing the heartbeat', error));
    },
  };
}

/** Leases a scan reads at once while it looks for sessions nobody holds. */
const takeReadsAtOnce = 25;

/** How long a leaving worker's claim on draining its own queue lasts before another worker may drain it. */
const leavingClaimMs = 120_000;

/** How long a worker holds the lease of a connection it logs out with no session: past the adapter's bounds (WhatsApp: 15 s to open, 10 s to unpair). */
const logoutLeaseMs = 60_000;

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
