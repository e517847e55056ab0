/**
 * WhatsApp through the channel worker's queue, on a local runtime of this file's own (in this
 * process, so its worker's sessions run on socket doubles the test drives): the API stores a send,
 * `dispatch-outbound` queues it on the worker queue (never the send queue), the worker that holds
 * the session sends it through its socket, paced, and acks advance; a second worker holding a
 * session gets that session's sends; a logout reaches the live session and clears the auth state,
 * even one that waits behind a send while the worker's scans find the connection stopped.
 * Everything is real (dynalite, the SQS emulator over HTTP, the stream emulator, the handlers)
 * except the WhatsApp network.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { proto, type AnyMessageContent, type MiscMessageGenerationOptions, type WAMessage } from 'baileys';
import { listQueryString } from '#contracts/list-query.ts';
import { connectionRecordsOf } from '#db/channel-records.ts';
import { readLease } from '#db/leases.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import { liveConnections } from '#connectors/whatsapp/live.ts';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import { startChannelWorker } from '#connectors/worker.ts';
import { runWorkerProcess, type WorkerProcess } from '#connectors/worker-queue.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { SocketDouble } from '../support/whatsapp-double.ts';
import { ownRuntime, pairWhatsapp, whatsappTeam } from './own-runtime.ts';
import { eventually } from './worker.ts';

/** The socket double, remembering when each send reached it; while `unanswered` is set, a send waits for it (WhatsApp has not answered yet). */
class TimedSocket extends SocketDouble {
  readonly sentAt: number[] = [];
  unanswered: Promise<void> | null = null;
  /** Sends that reached the socket and wait for WhatsApp's answer. */
  waiting = 0;
  override async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> {
    if (this.unanswered) {
      this.waiting++;
      await this.unanswered;
      this.waiting--;
    }
    this.sentAt.push(Date.now());
    return super.sendMessage(jid, content, options);
  }
}

/**
 * The worker's WhatsApp adapter with its sockets made by the test: `sockets` by connection, the
 * messages its `send` was asked for, and only the connections `wanted` says.
 */
function whatsappOnDoubles(wanted: (serviceId: string) => boolean) {
  const live = liveConnections();
  const sockets = new Map<string, TimedSocket[]>();
  const asked: string[] = [];
  // Sockets the logout of a connection no worker holds would open (none in these tests).
  const unpairing: SocketDouble[] = [];
  const base = whatsappWorkerChannel({
    live,
    socketFactory: () => {
      const socket = new SocketDouble();
      unpairing.push(socket);
      return socket;
    },
  });
  const adapter: ChannelAdapter = {
    ...base,
    async send(connection, message) {
      asked.push(message.messageId);
      return base.send(connection, message);
    },
    sessions: {
      ...base.sessions!,
      wants: (connection) => wanted((connection as { id?: string }).id ?? '') && base.sessions!.wants(connection),
      open(context) {
        const { serviceId } = context.run;
        const socketFactory = () => {
          const socket = new TimedSocket();
          sockets.set(serviceId, [...(sockets.get(serviceId) ?? []), socket]);
          return socket;
        };
        return whatsappWorkerChannel({ live, socketFactory, backoff: { firstMs: 20, maxMs: 100 } }).sessions!.open(context);
      },
    },
  };
  return { adapter, sockets, asked, unpairing };
}

const paceMs = 500;
/** Connections the runtime's own worker leaves to the second worker. */
const heldByB = new Set<string>();
const a = whatsappOnDoubles((serviceId) => !heldByB.has(serviceId));

/** The worker's reports of answered sends, in order. */
const answered: { sent: boolean; channel: string | null }[] = [];
/** Scans of the running index the runtime's worker has made (each counts the fleet once). */
let scans = 0;

const own = ownRuntime('conversa-wa-queue-', {
  channels: [a.adapter],
  worker: {
    pace: { intervalMs: paceMs, jitterMs: 0 },
    scanEverySeconds: 1,
    waitTimeSeconds: 1,
    // What the Fargate entry counts as metrics (connectors/main.ts).
    events: { sendAnswered: (answer) => answered.push(answer), fleetCounted: () => scans++ },
  },
});
const call = own.call;

/** A new owner with an account and a WhatsApp connection, not started, and a contact on it. */
async function newTeam() {
  const t = await whatsappTeam(call, 'zap');
  const contact = await call('POST', '/contacts', {
    token: t.token,
    body: {
      name: 'Cliente Zap',
      serviceId: t.serviceId,
      data: { phoneNumber: `55119${String(Date.now() % 100000000).padStart(8, '0')}`, phoneCountry: 'BR' },
    },
  });
  expect(contact.status).toBe(201);
  return { ...t, contact: contact.body as { id: string; idFromService: string } };
}
type Team = Awaited<ReturnType<typeof newTeam>>;

/** Starts the connection through the API and pairs the socket the holding worker opens for it. */
const connect = (t: Team, sockets: Map<string, TimedSocket[]>) => pairWhatsapp(call, t, (serviceId) => sockets.get(serviceId)?.[0]);

const send = async (team: Team, text: string) => {
  const answer = await call('POST', '/messages/send', { token: team.token, body: { contactId: team.contact.id, serviceId: team.serviceId, text } });
  expect(answer.status).toBe(201);
  return answer.body as { id: string };
};

const messagesOf = async (team: Team) =>
  (await call('GET', `/messages${listQueryString({ where: { contactId: team.contact.id } })}`, { token: team.token })).body.data as {
    id: string;
    text: string;
    ack: number;
  }[];

const textsOf = (socket: SocketDouble) => socket.sent.map((s) => ('text' in s.content ? s.content.text : null));

describe('WhatsApp through the worker queue', () => {
  it('a send stored through the API reaches the session’s socket by the worker queue, and its ack advances', async () => {
    const team = await newTeam();
    const socket = await connect(team, a.sockets);
    const sendQueueBefore = own.runtime().queues.accepted('send-outbound.fifo');
    const workerQueueBefore = own.runtime().queues.accepted(`${workerQueue.name}.fifo`);

    const stored = await send(team, 'Seu pedido saiu para entrega');
    const sent = await eventually(async () => (await messagesOf(team)).find((m) => m.id === stored.id && m.ack === 1));
    expect(textsOf(socket)).toEqual(['Seu pedido saiu para entrega']);
    expect(a.asked).toContain(stored.id);
    // The worker reported the answer (the Fargate entry counts it as MessagesSent by channel), just after recording it.
    await eventually(async () => answered.some((a) => a.sent && a.channel === 'whatsapp'));
    // It went by the worker queue, never the send queue.
    expect(own.runtime().queues.accepted('send-outbound.fifo')).toBe(sendQueueBefore);
    expect(own.runtime().queues.accepted(`${workerQueue.name}.fifo`)).toBeGreaterThan(workerQueueBefore);

    // The customer's phone reads it: the ack advances (the id the send named, whatsappMessageIdOf).
    const channelId = socket.sent.at(-1)!.options!.messageId!;
    expect(channelId).toMatch(/^3EB0[0-9A-F]{18}$/);
    socket.emit('messages.update', [
      { key: { remoteJid: team.contact.idFromService, fromMe: true, id: channelId }, update: { status: proto.WebMessageInfo.Status.READ } },
    ]);
    await eventually(async () => (await messagesOf(team)).find((m) => m.id === sent.id)?.ack === 3);
  });

  it('sends of one connection leave the socket spaced by the pace, in order', async () => {
    const team = await newTeam();
    const socket = await connect(team, a.sockets);
    for (const text of ['um', 'dois', 'três']) await send(team, text);

    await eventually(async () => {
      const messages = await messagesOf(team);
      return messages.length === 3 && messages.every((m) => m.ack === 1);
    });
    expect(textsOf(socket)).toEqual(['um', 'dois', 'três']);
    const gaps = socket.sentAt.slice(1).map((at, i) => at - socket.sentAt[i]!);
    // The pace is counted from the moment a send's turn came, a hair before its socket call: a few ms of slack.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(paceMs - 50);
  });

  it('with two workers, the send reaches the one that holds the session; another, asked to run such a command, says it is for another worker', async () => {
    const team = await newTeam();
    heldByB.add(team.serviceId);
    const b = whatsappOnDoubles((serviceId) => serviceId === team.serviceId);
    let workerB: WorkerProcess | undefined;
    const c = whatsappOnDoubles(() => false);
    const workerC = await startChannelWorker({ ...own.ports(), channels: channelRegistry([c.adapter]) }, { workerId: 'worker-c' });
    try {
      workerB = await runWorkerProcess(
        { ...own.ports(), channels: channelRegistry([b.adapter]) },
        {
          queueUrl: process.env[workerQueue.urlVariable]!,
          workerId: 'worker-b',
          // A worker of the runtime's fleet: its own queue, to which the runtime's worker routes the session's commands.
          fleet: { prefix: `${workerQueue.name}-`, visibilityTimeoutSeconds: workerQueue.visibilityTimeoutSeconds, settleMs: 100 },
          pace: { intervalMs: paceMs, jitterMs: 0 },
          scanEverySeconds: 1,
          waitTimeSeconds: 1,
        },
      );
      const socket = await connect(team, b.sockets);
      expect((await readLease(own.ports().table, team.serviceId))?.ownerId).toBe('worker-b');

      // A worker that does not hold the session gives a command for it back, without sending.
      const request = { accountId: team.accountId, contactId: team.contact.id, messageId: 'M-NOT-MINE', serviceId: team.serviceId, sendAttempt: 1 };
      expect(await workerC.run({ kind: 'send', request }, { receiveCount: 1, enqueuedAt: new Date() })).toEqual({ kind: 'elsewhere' });
      expect(c.asked).toEqual([]);

      const stored = await send(team, 'Chegou no seu bairro');
      await eventually(async () => (await messagesOf(team)).find((m) => m.id === stored.id && m.ack === 1));
      expect(textsOf(socket)).toEqual(['Chegou no seu bairro']);
      expect(b.asked).toContain(stored.id);
      // The runtime's worker, which routes the shared queue, neither opened a socket for it nor tried to send it.
      expect(a.sockets.get(team.serviceId)).toBeUndefined();
      expect(a.asked).not.toContain(stored.id);
    } finally {
      await workerC.stop();
      await workerB?.stop();
    }
  });

  it('a logout reaches the live session: it unpairs through the socket, quietly, and the auth state is gone', async () => {
    const team = await newTeam();
    const socket = await connect(team, a.sockets);
    const authRecords = () => connectionRecordsOf(own.ports().table, { accountId: team.accountId, serviceId: team.serviceId, channel: 'whatsapp', kind: '' });
    await eventually(async () => (await authRecords()).length > 0);

    const answer = await call('POST', `/services/${team.serviceId}/logout`, { token: team.token });
    expect(answer.status).toBe(200);
    await eventually(async () => socket.logouts === 1);
    await eventually(async () => (await authRecords()).length === 0);
    const service = (await call('GET', `/services/${team.serviceId}`, { token: team.token })).body;
    expect(service).toMatchObject({ status: 'disconnected', statusReason: null });
    expect(a.unpairing).toEqual([]);
    // The session ended and its lease is given up.
    await eventually(async () => !(await readLease(own.ports().table, team.serviceId)));
  });

  it('a logout queued behind a send still under way waits for it, and still reaches the live session, whatever the scans see meanwhile', async () => {
    const team = await newTeam();
    const socket = await connect(team, a.sockets);
    const authRecords = () => connectionRecordsOf(own.ports().table, { accountId: team.accountId, serviceId: team.serviceId, channel: 'whatsapp', kind: '' });
    await eventually(async () => (await authRecords()).length > 0);
    // A send WhatsApp has not answered holds the connection's group: the logout waits behind it,
    // while the status already says 'disconnected' and the worker's scans no longer find the connection running.
    let answer!: () => void;
    socket.unanswered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    // A failed assertion leaves no send waiting (the runtime's stop finishes the commands under way).
    onTestFinished(() => answer());
    await send(team, 'Último aviso');
    await eventually(async () => socket.waiting === 1);
    expect((await call('POST', `/services/${team.serviceId}/logout`, { token: team.token })).status).toBe(200);
    // Scans are one after another: the second counted from here read the index after the status was
    // written, and it has ended by the third's count. What they found is queued behind the logout.
    const seen = scans;
    await eventually(async () => scans >= seen + 3);
    expect(socket.logouts).toBe(0);
    expect(socket.ended).toEqual([]);

    answer();
    await eventually(async () => socket.logouts === 1);
    expect(textsOf(socket)).toEqual(['Último aviso']);
    await eventually(async () => (await authRecords()).length === 0);
    expect((await call('GET', `/services/${team.serviceId}`, { token: team.token })).body).toMatchObject({ status: 'disconnected', statusReason: null });
    expect(a.unpairing).toEqual([]);
    await eventually(async () => !(await readLease(own.ports().table, team.serviceId)));
  });
});
