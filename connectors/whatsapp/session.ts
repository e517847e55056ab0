/**
 * The WhatsApp session a channel worker holds for a connection: one Baileys socket at a time, built
 * on the connection's auth state in the table. It follows `connection.update`: each QR becomes a PNG
 * data URL on the connection (`isOnQrCode`), `open` reports `connected`, a logged-out close clears
 * the auth state and stops with a pt-BR reason, and any other close opens a new socket after a
 * backoff (1 s doubling to 30 s; at once when WhatsApp asks for a restart right after pairing).
 * Messages, acks, edits, deletions, reactions and learnt @lid links go to the sink one at a time,
 * in arrival order.
 *
 * Liveness: while a socket is open, besides Baileys' own keep-alive, a check every `checkEveryMs`
 * pings WhatsApp (an IQ `ping`, as Baileys' keep-alive sends, but waiting for the answer) when
 * nothing came from the socket for `silentMs`; no answer within `probeTimeoutMs` ends the socket
 * as lost, and it is reopened with the backoff. Ledger: every upserted message is written to the
 * ledger before the sink sees it and removed after; on each open, what is left there is handed
 * over first, in the order it was received (see `ledger.ts`).
 *
 * While it reconnects (a transient close, a socket found dead) the connection shows `starting` with
 * a pt-BR reason, once per outage. A run with a `pairingPhone` pairs by a code typed on that phone:
 * at each socket's first QR the session asks WhatsApp for the code and shows it instead. Acks of
 * messages not stored yet wait briefly (`early-acks.ts`); after a reopening, chats that had offline
 * activity get their recent history asked for and the outage's part stored (`gaps.ts`).
 */
import {
  DisconnectReason,
  initAuthCreds,
  proto,
  S_WHATSAPP_NET,
  type BaileysEventMap,
  type BinaryNode,
  type ConnectionState,
  type LIDMapping,
  type WACallEvent,
  type WAMessage,
} from 'baileys';
import QRCode from 'qrcode';
import type { ChannelSession, InboundAck, SessionContext } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { acksOfReceipts, acksOfUpdates } from './acks.ts';
import { clearAuthState, loadAuthState, type AuthStateOptions, type ConnectionRef, type TableAuthState } from './auth-state.ts';
import { copyProfilePicture, fetchPicture, type PictureFetch } from './avatar.ts';
import { handleCall, isPersonalOffer } from './calls.ts';
import { defaultEarlyAckOptions, EarlyAcks, type EarlyAckOptions } from './early-acks.ts';
import { defaultGapOptions, GapWatch, type GapOptions } from './gaps.ts';
import { handleMessage, ownJid, type InboundContext, type Later } from './inbound.ts';
import { tablePolls } from './polls.ts';
import { aliasOfMapping, isIgnoredChat } from './jids.ts';
import { tableLedger, type InboundLedger } from './ledger.ts';
import { liveConnections, type LiveConnection, type LiveConnections } from './live.ts';
import { Lru } from './lru.ts';
import { MediaStopped, type MediaDownload, socketStreamDownload } from './media.ts';
import { makeSocket, type SocketFactory, type WhatsAppSocket } from './socket.ts';
import { secondsOf } from './time.ts';
import type { GroupMetadata, WAMessageKey } from 'baileys';
import { tableSentStore, type SentStore } from './sent-store.ts';
import { TtlCache } from './ttl-cache.ts';
import { badSessionStop, closeCodes, closeOf, finalClose, type DisconnectKind, type FinalClose } from './disconnects.ts';
import { builtInVersionSource, type VersionSource, type WAVersion } from './version.ts';

export const loggedOutText = 'O WhatsApp encerrou a sessão deste aparelho. Inicie a conexão e leia o código QR de novo.';
export const qrExpiredText = 'O código QR não foi lido a tempo. Inicie a conexão de novo para ver um novo código.';
export const pairingCodeExpiredText = 'O código de pareamento não foi digitado a tempo no celular. Inicie a conexão de novo para gerar outro código.';
export const pairingCodeFailedText =
  'O WhatsApp não gerou o código de pareamento para este número. Confira se o número tem WhatsApp e tente de novo, ou leia o código QR.';
/** The reason shown beside 'Iniciando...' while the session gets its socket back. */
export const reconnectingText = 'Reconectando ao WhatsApp…';

export interface SessionOptions {
  socketFactory: SocketFactory;
  loadAuth: (ports: Pick<Ports, 'table' | 'vault'>, connection: ConnectionRef, options?: AuthStateOptions) => Promise<TableAuthState>;
  /** Backoff between reconnections: the first wait, doubled up to the longest. */
  backoff: { firstMs: number; maxMs: number };
  /** Sockets that show QR codes nobody reads before one closes; after this many the session stops. */
  maxUnreadQrRounds: number;
  qrDataUrl: (qr: string) => Promise<string>;
  /** How a socket fetches a message's medium (Baileys' `downloadMediaMessage`). */
  mediaDownload: (socket: WhatsAppSocket) => MediaDownload;
  /** The liveness check of an open socket (all in ms). */
  liveness: {
    /** Baileys' own keep-alive ping (its socket ends itself when nothing arrived for this plus 5 s). */
    keepAliveIntervalMs: number;
    /** How often the session looks at its open socket. */
    checkEveryMs: number;
    /** Silence (no event from the socket) after which a look sends a ping. */
    silentMs: number;
    /** How long the ping's answer may take before the socket is taken for dead. */
    probeTimeoutMs: number;
  };
  /** Where raw inbound messages wait until the sink has taken them. */
  ledger: (ports: Pick<Ports, 'table'>) => InboundLedger;
  /** Where the messages this connection sent are kept (days) for Baileys' `getMessage`: retries asked after a restart or a takeover. */
  sent: (ports: Pick<Ports, 'table' | 'vault'>) => SentStore;
  /** How a chat's profile picture is fetched from WhatsApp's CDN. */
  pictureFetch: PictureFetch;
  /** Acks that arrive before their message is stored. */
  earlyAcks: EarlyAckOptions;
  /** Filling gaps after an outage. */
  gaps: GapOptions;
  /** Where the open socket is put for sends (the worker adapter's registry). */
  live: LiveConnections;
  /** How long a logout waits for WhatsApp to confirm the unpairing. */
  logoutTimeoutMs: number;
  /** The WhatsApp Web version each socket presents (`version.ts`; the worker fetches the current one). */
  version: VersionSource;
  /** 500 closes in a row (no open between them) after which the session stops. */
  maxBadSessionCloses: number;
  /** What the worker counts (metrics). */
  events: SessionEvents;
}

export interface SessionEvents {
  /** A close that stopped the session (or a 500, each one): counted by kind, alarmed on in the cloud. */
  disconnected(kind: DisconnectKind): void;
}

export const defaultSessionOptions: SessionOptions = {
  socketFactory: makeSocket,
  loadAuth: loadAuthState,
  backoff: { firstMs: 1000, maxMs: 30_000 },
  // Baileys shows about six QR codes (60 s, then 20 s each) per socket: about 8 minutes in all.
  maxUnreadQrRounds: 3,
  qrDataUrl: (qr) => QRCode.toDataURL(qr),
  mediaDownload: socketStreamDownload,
  // A dead socket is found at most silentMs + checkEveryMs + probeTimeoutMs (2 min 20 s) after its last sign of life.
  liveness: { keepAliveIntervalMs: 30_000, checkEveryMs: 60_000, silentMs: 60_000, probeTimeoutMs: 20_000 },
  ledger: (ports) => tableLedger(ports.table),
  sent: tableSentStore,
  pictureFetch: fetchPicture,
  earlyAcks: defaultEarlyAckOptions,
  gaps: defaultGapOptions,
  live: liveConnections(),
  logoutTimeoutMs: 10_000,
  // No network here: the worker's adapters (worker-channels.ts) hand the fetching source.
  version: builtInVersionSource(),
  maxBadSessionCloses: 5,
  events: { disconnected: () => undefined },
};

/** The error a socket found dead is ended with: a lost connection, reopened with the backoff. */
export function deadSocketError(cause: string): Error {
  const message = `Connection open but not answering (${cause})`;
  return Object.assign(new Error(message), { output: { statusCode: DisconnectReason.connectionLost, payload: { message } } });
}

/** The ping Baileys' keep-alive sends; WhatsApp answers it with an IQ result. */
const pingNode = (): BinaryNode => ({ tag: 'iq', attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'w:p' }, content: [{ tag: 'ping', attrs: {} }] });

export async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Files fetched at once per session (the rest wait their turn). */
const mediaConcurrency = 2;

/** Messages kept for quotes and for Baileys' retries, and group names, per session. */
const recentMessages = 500;
const groupNames = 200;
/** A group's members are asked again after this long even when WhatsApp told no change (a notification missed during an outage). */
const groupMetadataTtlMs = 5 * 60_000;
/** Retry counts, as Baileys' own default keeps them (an hour), but for the session: a new socket does not start them over. */
const retryCountTtlMs = 60 * 60_000;
const retryCountsKept = 10_000;
/** Call ids handed over, so a call's repeated offer and later stanzas are not (a call rings a minute at most). */
const callIdTtlMs = 10 * 60_000;
const callIdsKept = 1_000;
/** The longest a stop waits for the auth state's writes (a table that slow has failed; the next holder's fence refuses what lands later). */
const flushTimeoutMs = 15_000;

function statusCodeOf(error: unknown): number | undefined {
  return (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
}

export class WhatsAppSession implements ChannelSession {
  private stopped = false;
  private loggingOut = false;
  private socket: WhatsAppSocket | null = null;
  private auth: TableAuthState | null = null;
  private live: LiveConnection | null = null;
  private delayMs: number;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private qrShown = false;
  private unreadQrRounds = 0;
  /** Inbound work, one item at a time. */
  private work: Promise<void> = Promise.resolve();
  /** Files being fetched apart from `work` (`attachApart`), by message id; a stop aborts them. */
  private readonly attaching = new Set<string>();
  private readonly mediaAbort = new AbortController();
  private mediaRunning = 0;
  private readonly mediaWaiting: (() => void)[] = [];
  private readonly recent = new Lru<WAMessage>(recentMessages);
  /** Groups' metadata (subject and members), for names and for Baileys' group sends. */
  private readonly groups = new TtlCache<GroupMetadata>(groupMetadataTtlMs, groupNames);
  /** Changes WhatsApp told per group: a metadata answer that left before the last one is not cached. */
  private readonly groupChanges = new Map<string, number>();
  private readonly retryCounts = new TtlCache<number>(retryCountTtlMs, retryCountsKept);
  private readonly calls = new TtlCache<true>(callIdTtlMs, callIdsKept);
  private readonly sent: SentStore;
  /** Writes of sent messages under way (a stop waits for them). */
  private readonly sentWrites = new Set<Promise<void>>();
  private readonly ledger: InboundLedger;
  /** Ids of upserted messages written to the ledger and queued, so a replay leaves them to their own task. */
  private readonly inFlight = new Set<string>();
  /** When the current socket last gave a sign of life (an event or an answered ping). */
  private lastSeen = 0;
  private livenessTimer: ReturnType<typeof setInterval> | undefined;
  private probing = false;
  /** Why the last open socket was ended as dead, until a socket opens again. */
  private deadSince: { at: number; reason: string } | null = null;
  /** Whether the current outage was reported (`reconnecting`); reset when a socket opens. */
  private reconnectReported = false;
  /** The socket that was asked for a pairing code (once per socket: later QRs of it change nothing). */
  private codeAskedOf: WhatsAppSocket | null = null;
  /** The open that follows a pairing: a fresh device has no gap to fill. */
  private justPaired = false;
  /** When the session was last known alive before the current outage (the last sign of life of its last open socket). */
  private aliveUntil: number | null = null;
  private readonly startedAt = Date.now();
  private gap: GapWatch | null = null;
  private gapTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether Baileys said the current socket's offline batch was delivered. */
  private batchSignalled = false;
  private readonly earlyAcks: EarlyAcks;
  private earlyAckTimer: ReturnType<typeof setTimeout> | undefined;
  /** The version the current socket presented; whether a 405 already made the session try a fresh one. */
  private socketVersion: WAVersion | undefined;
  private versionRetried = false;
  /** 500 closes since the last open. */
  private badSessionCloses = 0;

  constructor(
    private readonly context: SessionContext,
    private readonly options: SessionOptions = defaultSessionOptions,
  ) {
    this.delayMs = options.backoff.firstMs;
    this.ledger = options.ledger(context.ports);
    this.sent = options.sent(context.ports);
    this.earlyAcks = new EarlyAcks(options.earlyAcks);
  }

  private get name(): string {
    return `[whatsapp] ${this.context.run.serviceId}`;
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.gapTimer);
    clearTimeout(this.earlyAckTimer);
    const socket = this.socket;
    this.socket = null;
    this.dropLive();
    // Ends the socket and stays paired: the next start resumes with no QR.
    if (socket) await Promise.resolve(socket.end(undefined)).catch(() => undefined);
    // Downloads under way are aborted and not waited for: their messages are stored, and the ledger keeps them for the next open.
    this.mediaAbort.abort();
    await this.work;
    // What was sent, and the auth state's writes (creds, keys), land before the worker lets the lease go (it does once this resolves).
    await Promise.all(this.sentWrites);
    if (this.auth)
      await withinMs(this.auth.flush(), flushTimeoutMs).catch((error) => console.error(`${this.name}: auth state writes not finished at stop`, error));
  }

  /**
   * Logs out (a logout command reached the worker that holds this session): unpairs this device on
   * WhatsApp through the open socket, waiting at most `logoutTimeoutMs` (an unreachable WhatsApp
   * leaves the device listed on the phone until it is removed there), ends the session without
   * reporting the logged-out close as news, and deletes the auth state either way.
   */
  async logout(): Promise<void> {
    this.loggingOut = true;
    const socket = this.live ? this.socket : null;
    if (socket) {
      try {
        await withinMs(socket.logout(), this.options.logoutTimeoutMs);
      } catch (error) {
        console.warn(`${this.name}: logout on WhatsApp failed:`, (error as Error).message);
      }
    }
    await this.stop();
    await (this.auth ? this.auth.clear() : clearAuthState(this.context.ports, this.context.run));
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      this.auth ??= await this.options.loadAuth(this.context.ports, this.context.run, { leaseOwner: this.context.leaseOwner });
      const { version, origin } = await this.options.version.current();
      if (this.stopped) return;
      if (origin !== 'fetched' && version.join('.') !== this.socketVersion?.join('.'))
        console.info(`${this.name}: WhatsApp Web ${version.join('.')} (${origin})`);
      this.socketVersion = version;
      const socket = this.options.socketFactory({
        version,
        auth: this.auth.state,
        getMessage: (key) => this.sentContent(key),
        msgRetryCounterCache: this.retryCounts,
        cachedGroupMetadata: (jid) => this.groupMetadataOf(this.socket, jid),
        keepAliveIntervalMs: this.options.liveness.keepAliveIntervalMs,
        shouldIgnoreJid: isIgnoredChat,
      });
      this.socket = socket;
      this.follow(socket);
    } catch (error) {
      console.warn(`${this.name}: could not open a socket, retrying in ${this.delayMs / 1000} s:`, (error as Error).message);
      this.retryLater();
    }
  }

  private retryLater(): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => void this.connect(), this.delayMs);
    this.delayMs = Math.min(this.delayMs * 2, this.options.backoff.maxMs);
  }

  /** Listens to the socket's events; a replaced socket's late events change nothing. */
  private follow(socket: WhatsAppSocket): void {
    const on = <T extends keyof BaileysEventMap>(event: T, handle: (arg: BaileysEventMap[T]) => Promise<void> | void) =>
      socket.ev.on(event, (arg) => {
        if (socket !== this.socket) return;
        // A close is no sign of life (an outage starts at the last one before it).
        if (event !== 'connection.update') this.lastSeen = Date.now();
        void (async () => handle(arg))().catch((error) => console.error(`${this.name}: ${event} failed`, error));
      });
    on('creds.update', () => this.auth?.saveCreds());
    on('connection.update', (update) => this.onConnection(socket, update));
    // 'notify' (live, and most of the offline delivery) and 'append' (offline messages Baileys does not notify) alike.
    on('messages.upsert', ({ messages, type }) => {
      for (const message of messages) {
        this.gap?.saw(message);
        this.receive(socket, message);
      }
      // Offline stanzas are upserted as 'append' (Socket/messages-recv.js, `node.attrs.offline`).
      if (type === 'append') this.offlineMessageProcessed(socket);
    });
    on('messaging-history.set', (history) => this.onHistory(socket, history));
    // A group's members or subject changed: the next send must encrypt for the members it has now.
    on('group-participants.update', ({ id }) => this.groupChanged(socket, id));
    on('groups.update', async (updates) => void (await Promise.all(updates.flatMap(({ id }) => (id ? [this.groupChanged(socket, id)] : [])))));
    on('messages.update', (updates) => this.enqueueAcks(acksOfUpdates(updates)));
    on('message-receipt.update', (receipts) => this.enqueueAcks(acksOfReceipts(receipts)));
    // A person's @lid id and phone number learnt later: one contact holds both (in order with messages).
    on('lid-mapping.update', (mapping) => this.enqueueAliases([mapping]));
    // A call ringing: recorded in the caller's conversation, and rejected where the account asks (calls.ts).
    on('call', (calls) => {
      for (const call of calls) this.onCall(socket, call);
    });
  }

  /** A personal call's first offer goes to the sink, in order with messages; its repeats and later stanzas do not. */
  private onCall(socket: WhatsAppSocket, call: WACallEvent): void {
    if (!isPersonalOffer(call) || this.calls.get(call.id)) return;
    this.calls.set(call.id, true);
    this.enqueue(async () => {
      const context = {
        sink: this.context.inbound,
        socket,
        pnForLid: async (lid: string) => (await socket.signalRepository?.lidMapping.getPNForLID(lid)) ?? null,
        avatar: (jid: string) => copyProfilePicture(this.avatarTarget(), socket, jid, this.options.pictureFetch),
      };
      if (await handleCall(context, call)) console.info(`${this.name}: call ${call.id} rejected`);
    });
  }

  /** Links of a person's @lid id and phone number, each once, in order with messages. */
  private enqueueAliases(mappings: readonly LIDMapping[]): void {
    const seen = new Set<string>();
    for (const mapping of mappings) {
      const alias = aliasOfMapping(mapping);
      if (!alias || seen.has(alias.alias)) continue;
      seen.add(alias.alias);
      this.enqueue(() => this.context.inbound.alias(alias));
    }
  }

  /** Writes a message to the ledger at once, then queues it for the sink, then forgets it there. */
  private receive(socket: WhatsAppSocket, message: WAMessage): void {
    const id = message.key.id;
    if (!id) {
      this.enqueue(async () => void (await handleMessage(this.inboundContext(socket), message)));
      return;
    }
    this.recent.set(id, message);
    this.inFlight.add(id);
    const stored = this.ledger.put(this.context.run, message).then(
      () => true,
      (error) => {
        console.error(`${this.name}: could not write ${id} to the ledger`, error);
        return false;
      },
    );
    this.enqueue(async () => {
      try {
        const written = await stored;
        // A failure leaves the message in the ledger: the next open hands it over again.
        const later = await handleMessage(this.inboundContext(socket), message);
        if (later) this.attachApart(id, later, written);
        else if (written) await this.ledger.done(this.context.run, id);
      } finally {
        this.inFlight.delete(id);
      }
      await this.applyEarlyAck(id);
    });
  }

  /** Hands over what the ledger still holds (a crash or a failure before the sink took it), oldest first. */
  private async replay(socket: WhatsAppSocket): Promise<void> {
    let pending: WAMessage[];
    try {
      pending = await this.ledger.pending(this.context.run);
    } catch (error) {
      console.error(`${this.name}: could not read the ledger`, error);
      return;
    }
    for (const message of pending) {
      const id = message.key.id;
      // A replaced socket leaves the rest to the next open; a message queued live is handed over by its own task.
      if (socket !== this.socket) return;
      if (!id || this.inFlight.has(id) || this.attaching.has(id)) continue;
      this.recent.set(id, message);
      try {
        const later = await handleMessage(this.inboundContext(socket), message);
        if (later) this.attachApart(id, later, true);
        else await this.ledger.done(this.context.run, id);
      } catch (error) {
        console.error(`${this.name}: replay of ${id} failed`, error);
      }
    }
  }

  private enqueue(task: () => Promise<void>): void {
    this.work = this.work.then(task).catch((error) => console.error(`${this.name}: inbound event failed`, error));
  }

  /**
   * Fetches and attaches a stored message's file apart from the chat's queue (a slow download holds
   * no other message, and `stop` does not wait for it: it aborts it), `mediaConcurrency` at a time.
   * The ledger forgets the message only once its file is attached (or known unavailable): a stop or
   * a crash before leaves it, and the next open attaches it.
   */
  private attachApart(id: string, later: Later, ledgered: boolean): void {
    this.attaching.add(id);
    const run = async () => {
      try {
        await later();
        if (ledgered) await this.ledger.done(this.context.run, id);
      } catch (error) {
        if (error instanceof MediaStopped) console.info(`${this.name}: the file of ${id} is left for the next open`);
        else console.error(`${this.name}: the file of ${id} could not be attached`, error);
      } finally {
        this.attaching.delete(id);
        this.mediaRunning--;
        this.mediaWaiting.shift()?.();
      }
    };
    const start = () => {
      this.mediaRunning++;
      void run();
    };
    if (this.mediaRunning < mediaConcurrency) start();
    else this.mediaWaiting.push(start);
  }

  private enqueueAcks(acks: InboundAck[]): void {
    for (const ack of acks) this.enqueue(() => this.applyAck(ack));
  }

  /** An ack whose message is not stored yet (a receipt racing the send's own write) waits and is tried again. */
  private async applyAck(ack: InboundAck, retry = false): Promise<void> {
    let found = false;
    try {
      found = await this.context.inbound.ack(ack);
    } finally {
      if (found) this.earlyAcks.forget(ack.channelMessageId);
      else if (retry) this.earlyAcks.again(ack, Date.now());
      else this.earlyAcks.keep(ack, Date.now());
      this.scheduleEarlyAcks();
    }
  }

  /** The message of a kept ack was just handed over: the ack applies now. */
  private async applyEarlyAck(id: string): Promise<void> {
    const kept = this.earlyAcks.take(id);
    if (kept) await this.applyAck(kept, true);
  }

  private scheduleEarlyAcks(): void {
    if (this.earlyAckTimer || this.stopped || this.earlyAcks.size === 0) return;
    this.earlyAckTimer = setTimeout(() => {
      this.earlyAckTimer = undefined;
      for (const ack of this.earlyAcks.due(Date.now())) this.enqueue(() => this.applyAck(ack, true));
      this.scheduleEarlyAcks();
    }, this.options.earlyAcks.firstRetryMs);
    this.earlyAckTimer.unref?.();
  }

  private inboundContext(socket: WhatsAppSocket): InboundContext {
    return {
      sink: this.context.inbound,
      media: { ports: this.context.ports, accountId: this.context.run.accountId, download: this.options.mediaDownload(socket), signal: this.mediaAbort.signal },
      me: () => ownJid(socket.user),
      groupName: (jid) => this.groupName(socket, jid),
      pnForLid: async (lid) => (await socket.signalRepository?.lidMapping.getPNForLID(lid)) ?? null,
      avatar: (jid) => copyProfilePicture(this.avatarTarget(), socket, jid, this.options.pictureFetch),
      polls: tablePolls(this.context.ports, this.context.run),
    };
  }

  private avatarTarget() {
    return { ports: this.context.ports, accountId: this.context.run.accountId, serviceId: this.context.run.serviceId };
  }

  private async groupName(socket: WhatsAppSocket, jid: string): Promise<string> {
    return (await this.groupMetadataOf(socket, jid))?.subject ?? '';
  }

  /**
   * A group's metadata for names and for Baileys' sends (`cachedGroupMetadata`): from memory for
   * up to `groupMetadataTtlMs`, else asked of WhatsApp (no socket: only what is cached).
   */
  private async groupMetadataOf(socket: WhatsAppSocket | null, jid: string): Promise<GroupMetadata | undefined> {
    const known = this.groups.get(jid);
    if (known || !socket) return known;
    const changes = this.groupChanges.get(jid) ?? 0;
    try {
      const metadata = await socket.groupMetadata(jid);
      // WhatsApp told a change while this answer was on its way: it may predate the change.
      if ((this.groupChanges.get(jid) ?? 0) === changes) this.groups.set(jid, metadata);
      return metadata;
    } catch {
      return undefined;
    }
  }

  /** WhatsApp told a group changed: its cached metadata goes, and a group that was cached is asked for again at once. */
  private async groupChanged(socket: WhatsAppSocket, jid: string): Promise<void> {
    this.groupChanges.set(jid, (this.groupChanges.get(jid) ?? 0) + 1);
    const cached = this.groups.get(jid) !== undefined;
    this.groups.del(jid);
    if (cached) await this.groupMetadataOf(socket, jid);
  }

  /**
   * Baileys' `getMessage` (a recipient's retry request, a poll's votes): a message this connection
   * sent or saw, from memory, else what the table kept of our sends (after a restart or a takeover).
   */
  private async sentContent(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined;
    const recent = this.recent.get(key.id)?.message;
    if (recent) return recent;
    try {
      return await this.sent.get(this.context.run, key.id);
    } catch (error) {
      console.warn(`${this.name}: could not read sent message ${key.id}:`, (error as Error).message);
      return undefined;
    }
  }

  /** Deletes the auth state (and what the device sent) once the sent-message writes under way have landed, so none outlives it. */
  private async clearAuth(): Promise<void> {
    await Promise.all(this.sentWrites);
    await this.auth?.clear();
  }

  /** A message this connection sent: in memory for quotes, in the table (days) for retries; a stop waits for the write. */
  private rememberSent(message: WAMessage): void {
    const id = message.key.id;
    if (!id) return;
    this.recent.set(id, message);
    const write = this.sent.put(this.context.run, message).catch((error) => console.error(`${this.name}: could not keep sent message ${id}`, error));
    this.sentWrites.add(write);
    void write.finally(() => this.sentWrites.delete(write));
  }

  private async onConnection(socket: WhatsAppSocket, update: Partial<ConnectionState>): Promise<void> {
    const { report } = this.context;
    if (update.qr) {
      this.qrShown = true;
      if (this.context.run.pairingPhone) await this.askPairingCode(socket, this.context.run.pairingPhone);
      else {
        const image = await this.options.qrDataUrl(update.qr);
        if (socket === this.socket) await report.pairing(image);
      }
    }
    if (update.connection === 'open') {
      // Before any live event of this socket: they are queued after it.
      this.enqueue(() => this.replay(socket));
      if (this.deadSince) {
        console.warn(
          `${this.name}: open again ${Math.round((Date.now() - this.deadSince.at) / 1000)} s after the socket was found dead (${this.deadSince.reason})`,
        );
        this.deadSince = null;
      }
      this.delayMs = this.options.backoff.firstMs;
      this.qrShown = false;
      this.unreadQrRounds = 0;
      this.reconnectReported = false;
      this.badSessionCloses = 0;
      this.versionRetried = false;
      this.watchGaps(socket);
      this.goLive(socket);
      this.watch(socket);
      await report.connected();
    }
    if (update.receivedPendingNotifications) this.offlineBatchDelivered(socket);
    if (update.connection === 'close') {
      this.forgetUntypedCode(socket, update.lastDisconnect?.error);
      await this.onClose(update.lastDisconnect?.error);
    }
  }

  /**
   * A socket that asked for a pairing code closed without pairing (the code was not typed, or the
   * socket dropped): Baileys stored the number as `creds.me` when it asked, and with `creds.me` set
   * the next socket logs in instead of registering, which WhatsApp refuses as 401 ("logged out").
   * The creds start afresh instead, so the next socket registers and asks for a new code.
   */
  private forgetUntypedCode(socket: WhatsAppSocket, error: Error | undefined): void {
    const auth = this.auth;
    const creds = auth?.state.creds;
    if (this.codeAskedOf !== socket || !auth || !creds || creds.account || closeOf(error).code === DisconnectReason.restartRequired) return;
    for (const key of Object.keys(creds)) delete (creds as unknown as Record<string, unknown>)[key];
    Object.assign(creds, initAuthCreds());
    // In memory at once (the next socket reads these); the write is ordered after Baileys' own.
    auth.saveCreds().catch((error) => console.error(`${this.name}: could not save fresh creds`, error));
  }

  /** 'Conectar com número de telefone': the code replaces the QR; asked once per socket (its later QRs change nothing). */
  private async askPairingCode(socket: WhatsAppSocket, phone: string): Promise<void> {
    if (this.codeAskedOf === socket || this.auth?.state.creds.registered) return;
    this.codeAskedOf = socket;
    let code: string;
    try {
      code = await socket.requestPairingCode(phone);
    } catch (error) {
      if (socket !== this.socket || this.stopped) return;
      console.warn(`${this.name}: WhatsApp gave no pairing code:`, (error as Error).message);
      await this.context.report.stopped(pairingCodeFailedText);
      await this.stop();
      return;
    }
    if (socket === this.socket) await this.context.report.pairingCode(code);
  }

  /** After a reopening (not a fresh pairing), collects the chats of the offline batch until Baileys says it is over, or `settleMs`. */
  private watchGaps(socket: WhatsAppSocket): void {
    clearTimeout(this.gapTimer);
    const resumed = !this.justPaired;
    this.justPaired = false;
    const down = this.aliveUntil ?? this.startedAt - this.options.gaps.firstOpenLookbackMs;
    this.aliveUntil = null;
    this.gap = resumed ? new GapWatch(down - this.options.gaps.clockSlackMs) : null;
    this.batchSignalled = false;
    if (this.gap) this.fillGapsIn(socket, this.options.gaps.settleMs);
  }

  private fillGapsIn(socket: WhatsAppSocket, ms: number): void {
    clearTimeout(this.gapTimer);
    this.gapTimer = setTimeout(() => void this.fillGaps(socket), ms);
    this.gapTimer.unref?.();
  }

  /**
   * Baileys says the offline batch was delivered (`receivedPendingNotifications`, on WhatsApp's
   * `<ib><offline/>`), but its offline node processor may still be decrypting the batch's stanzas,
   * which come later as 'append' upserts: the gaps are filled once none came for `batchQuietMs`.
   */
  private offlineBatchDelivered(socket: WhatsAppSocket): void {
    if (!this.gap?.isCollecting || socket !== this.socket) return;
    this.batchSignalled = true;
    this.fillGapsIn(socket, this.options.gaps.batchQuietMs);
  }

  /** An offline message processed after the signal: the batch is not over yet. */
  private offlineMessageProcessed(socket: WhatsAppSocket): void {
    if (this.batchSignalled && this.gap?.isCollecting && socket === this.socket) this.fillGapsIn(socket, this.options.gaps.batchQuietMs);
  }

  /** Asks the phone for the recent history of each chat that had activity during the outage. */
  private async fillGaps(socket: WhatsAppSocket): Promise<void> {
    const gap = this.gap;
    if (!gap?.isCollecting || socket !== this.socket) return;
    clearTimeout(this.gapTimer);
    const { historyCount, maxChats, maxRequestsPerHour, budget } = this.options.gaps;
    const wanted = gap.requests(maxChats);
    // A number that keeps reconnecting asks at most `maxRequestsPerHour` in all (WhatsApp may take a stream of them badly).
    const allowed = budget.take(this.context.run.serviceId, wanted.length, maxRequestsPerHour);
    if (allowed < wanted.length) console.warn(`${this.name}: history asked for ${allowed} of ${wanted.length} chat(s) (at most ${maxRequestsPerHour} an hour)`);
    for (const { key, timestampMs } of wanted.slice(0, allowed)) {
      if (socket !== this.socket) return;
      try {
        await socket.fetchMessageHistory(historyCount, key, timestampMs);
      } catch (error) {
        console.warn(`${this.name}: could not ask for the history of ${key.remoteJid}:`, (error as Error).message);
      }
    }
  }

  /** An on-demand history answer: its messages of the outage are handed over like live ones (stored once per id). */
  private onHistory(socket: WhatsAppSocket, history: BaileysEventMap['messaging-history.set']): void {
    // Whatever the sync, its @lid ↔ number links reach the domain (Baileys stores them in its own LID store but emits no `lid-mapping.update`).
    this.enqueueAliases(history.lidPnMappings ?? []);
    const gap = this.gap;
    if (history.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND || !gap) return;
    const fresh = history.messages
      .filter((message) => gap.inGap(message) && message.key.id && !this.inFlight.has(message.key.id) && !this.recent.get(message.key.id))
      .sort((a, b) => secondsOf(a.messageTimestamp) - secondsOf(b.messageTimestamp));
    if (fresh.length) console.info(`${this.name}: ${fresh.length} message(s) of the outage came with the history of ${history.chats.length} chat(s)`);
    for (const message of fresh) this.receive(socket, message);
  }

  private async onClose(error: Error | undefined): Promise<void> {
    const wasOpen = this.live !== null;
    this.socket = null;
    this.dropLive();
    clearTimeout(this.gapTimer);
    if (wasOpen) this.aliveUntil = this.lastSeen || Date.now();
    if (this.stopped) return;
    const code = statusCodeOf(error);
    if (code === DisconnectReason.loggedOut) {
      this.stopped = true;
      await this.clearAuth();
      // A logout asked from the inbox is not news to report.
      if (!this.loggingOut) await this.context.report.stopped(loggedOutText);
      return;
    }
    // A retired WhatsApp Web version: a newer one may cure it (once per socket that opened); otherwise stop.
    if (code === closeCodes.clientOutdated && !this.versionRetried) {
      this.versionRetried = true;
      const { version } = await this.options.version.refresh();
      if (this.stopped) return;
      if (version.join('.') !== this.socketVersion?.join('.')) {
        console.warn(`${this.name}: WhatsApp refused WhatsApp Web ${this.socketVersion?.join('.')} (405); trying ${version.join('.')}`);
        return this.connect();
      }
    }
    const final = finalClose(code, closeOf(error).data);
    if (final) return this.stopFor(final, code);
    if (code === closeCodes.badSession) {
      this.options.events.disconnected('badSession');
      if (++this.badSessionCloses >= this.options.maxBadSessionCloses) return this.stopFor(badSessionStop, code);
    }
    // Right after a QR is read WhatsApp closes once and asks for a new socket with the new creds.
    if (code === DisconnectReason.restartRequired) {
      this.justPaired = this.qrShown;
      this.qrShown = false;
      this.unreadQrRounds = 0;
      return this.connect();
    }
    if (this.qrShown && ++this.unreadQrRounds >= this.options.maxUnreadQrRounds) {
      this.stopped = true;
      await this.context.report.stopped(this.context.run.pairingPhone ? pairingCodeExpiredText : qrExpiredText);
      return;
    }
    const waitingForPairing = this.qrShown;
    this.qrShown = false;
    console.warn(
      `${this.name}: connection closed (${[code, error?.message].filter(Boolean).join(' ') || 'no reason'}), reconnecting in ${this.delayMs / 1000} s`,
    );
    this.retryLater();
    // Once per outage; a connection waiting for its QR to be read simply gets a new one.
    if (!waitingForPairing && !this.reconnectReported) {
      this.reconnectReported = true;
      await this.context.report.reconnecting(reconnectingText);
    }
  }

  /** WhatsApp ended the connection for good (banned, locked, outdated…): stop with its reason, counted. */
  private async stopFor(final: FinalClose, code: number | undefined): Promise<void> {
    this.stopped = true;
    console.warn(`${this.name}: WhatsApp closed the connection with ${code} (${final.kind}); stopping`);
    if (final.kind !== 'badSession') this.options.events.disconnected(final.kind);
    if (final.clearsAuth) await this.clearAuth();
    await this.context.report.stopped(final.text);
  }

  private goLive(socket: WhatsAppSocket): void {
    this.dropLive();
    const live: LiveConnection = {
      socket,
      recent: (id) => this.recent.get(id),
      remember: (message) => this.rememberSent(message),
    };
    this.live = live;
    this.options.live.hold(this.context.run.serviceId, live);
  }

  /** Looks at the open socket every `checkEveryMs`; pings it after a silence; ends it when the ping gets no answer. */
  private watch(socket: WhatsAppSocket): void {
    this.lastSeen = Date.now();
    this.livenessTimer = setInterval(() => void this.check(socket), this.options.liveness.checkEveryMs);
  }

  private async check(socket: WhatsAppSocket): Promise<void> {
    const { silentMs, probeTimeoutMs } = this.options.liveness;
    if (socket !== this.socket || this.probing || Date.now() - this.lastSeen < silentMs) return;
    this.probing = true;
    try {
      await withinMs(socket.query(pingNode(), probeTimeoutMs), probeTimeoutMs);
      if (socket === this.socket) this.lastSeen = Date.now();
    } catch (error) {
      if (socket !== this.socket || this.stopped) return;
      const reason = (error as Error).message;
      console.warn(`${this.name}: socket open but silent ${Math.round((Date.now() - this.lastSeen) / 1000)} s and the ping failed (${reason}); ending it`);
      this.deadSince = { at: Date.now(), reason };
      const dead = deadSocketError(reason);
      await Promise.resolve(socket.end(dead)).catch(() => undefined);
      // Baileys' end reports the close; should it not (already closed), the session closes it itself.
      if (socket === this.socket) await this.onClose(dead);
    } finally {
      this.probing = false;
    }
  }

  private dropLive(): void {
    clearInterval(this.livenessTimer);
    this.livenessTimer = undefined;
    if (this.live) this.options.live.release(this.context.run.serviceId, this.live);
    this.live = null;
  }
}
