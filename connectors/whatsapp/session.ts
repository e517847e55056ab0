/**
 * The WhatsApp session a channel worker holds for a connection: one Baileys socket at a time, built
 * on the connection's auth state in the table. It follows `connection.update`: each QR becomes a PNG
 * data URL on the connection (`isOnQrCode`), `open` reports `connected`, a logged-out close clears
 * the auth state and stops with a pt-BR reason, and any other close opens a new socket after a
 * backoff (1 s doubling to 30 s; at once when WhatsApp asks for a restart right after pairing).
 * Messages, acks, edits, deletions and reactions go to the sink one at a time, in arrival order.
 */
import { DisconnectReason, type BaileysEventMap, type ConnectionState, type WAMessage } from 'baileys';
import QRCode from 'qrcode';
import type { ChannelSession, InboundAck, SessionContext } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { acksOfReceipts, acksOfUpdates } from './acks.ts';
import { loadAuthState, type ConnectionRef, type TableAuthState } from './auth-state.ts';
import { handleMessage, ownJid, type InboundContext } from './inbound.ts';
import { holdLive, releaseLive, type LiveConnection } from './live.ts';
import { Lru } from './lru.ts';
import { socketDownload } from './media.ts';
import { makeSocket, type SocketFactory, type WhatsAppSocket } from './socket.ts';

export const loggedOutText = 'O WhatsApp encerrou a sessão deste aparelho. Inicie a conexão e leia o código QR de novo.';
export const qrExpiredText = 'O código QR não foi lido a tempo. Inicie a conexão de novo para ver um novo código.';

export interface SessionOptions {
  socketFactory: SocketFactory;
  loadAuth: (ports: Pick<Ports, 'table' | 'vault'>, connection: ConnectionRef) => Promise<TableAuthState>;
  /** Backoff between reconnections: the first wait, doubled up to the longest. */
  backoff: { firstMs: number; maxMs: number };
  /** Sockets that show QR codes nobody reads before one closes; after this many the session stops. */
  maxUnreadQrRounds: number;
  qrDataUrl: (qr: string) => Promise<string>;
  /** How a socket fetches a message's medium (Baileys' `downloadMediaMessage`). */
  mediaDownload: (socket: WhatsAppSocket) => (message: WAMessage) => Promise<Uint8Array>;
}

export const defaultSessionOptions: SessionOptions = {
  socketFactory: makeSocket,
  loadAuth: loadAuthState,
  backoff: { firstMs: 1000, maxMs: 30_000 },
  // Baileys shows about six QR codes (60 s, then 20 s each) per socket: about 8 minutes in all.
  maxUnreadQrRounds: 3,
  qrDataUrl: (qr) => QRCode.toDataURL(qr),
  mediaDownload: socketDownload,
};

/** Messages kept for quotes and for Baileys' retries, and group names, per session. */
const recentMessages = 500;
const groupNames = 200;

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
  private readonly recent = new Lru<WAMessage>(recentMessages);
  private readonly groups = new Lru<string>(groupNames);

  constructor(
    private readonly context: SessionContext,
    private readonly options: SessionOptions = defaultSessionOptions,
  ) {
    this.delayMs = options.backoff.firstMs;
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
    const socket = this.socket;
    this.socket = null;
    this.dropLive();
    // Ends the socket and stays paired: the next start resumes with no QR.
    if (socket) await Promise.resolve(socket.end(undefined)).catch(() => undefined);
    await this.work;
  }

  /** Unpairs this device on WhatsApp; the logged-out close that follows ends the session quietly. */
  async logout(): Promise<void> {
    this.loggingOut = true;
    await this.socket?.logout();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      this.auth ??= await this.options.loadAuth(this.context.ports, this.context.run);
      if (this.stopped) return;
      const socket = this.options.socketFactory({
        auth: this.auth.state,
        getMessage: async (key) => (key.id ? (this.recent.get(key.id)?.message ?? undefined) : undefined),
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
        void (async () => handle(arg))().catch((error) => console.error(`${this.name}: ${event} failed`, error));
      });
    on('creds.update', () => this.auth?.saveCreds());
    on('connection.update', (update) => this.onConnection(socket, update));
    on('messages.upsert', ({ messages }) => {
      for (const message of messages) {
        if (message.key.id) this.recent.set(message.key.id, message);
        this.enqueue(() => handleMessage(this.inboundContext(socket), message));
      }
    });
    on('messages.update', (updates) => this.enqueueAcks(acksOfUpdates(updates)));
    on('message-receipt.update', (receipts) => this.enqueueAcks(acksOfReceipts(receipts)));
  }

  private enqueue(task: () => Promise<void>): void {
    this.work = this.work.then(task).catch((error) => console.error(`${this.name}: inbound event failed`, error));
  }

  private enqueueAcks(acks: InboundAck[]): void {
    for (const ack of acks) this.enqueue(() => this.context.inbound.ack(ack));
  }

  private inboundContext(socket: WhatsAppSocket): InboundContext {
    return {
      sink: this.context.inbound,
      media: { ports: this.context.ports, accountId: this.context.run.accountId, download: this.options.mediaDownload(socket) },
      me: () => ownJid(socket.user),
      groupName: (jid) => this.groupName(socket, jid),
    };
  }

  private async groupName(socket: WhatsAppSocket, jid: string): Promise<string> {
    const known = this.groups.get(jid);
    if (known !== undefined) return known;
    try {
      const { subject } = await socket.groupMetadata(jid);
      this.groups.set(jid, subject);
      return subject;
    } catch {
      return '';
    }
  }

  private async onConnection(socket: WhatsAppSocket, update: Partial<ConnectionState>): Promise<void> {
    const { report } = this.context;
    if (update.qr) {
      this.qrShown = true;
      const image = await this.options.qrDataUrl(update.qr);
      if (socket === this.socket) await report.pairing(image);
    }
    if (update.connection === 'open') {
      this.delayMs = this.options.backoff.firstMs;
      this.qrShown = false;
      this.unreadQrRounds = 0;
      this.goLive(socket);
      await report.connected();
    }
    if (update.connection === 'close') await this.onClose(update.lastDisconnect?.error);
  }

  private async onClose(error: Error | undefined): Promise<void> {
    this.socket = null;
    this.dropLive();
    if (this.stopped) return;
    const code = statusCodeOf(error);
    if (code === DisconnectReason.loggedOut) {
      this.stopped = true;
      await this.auth?.clear();
      // A logout asked from the inbox is not news to report.
      if (!this.loggingOut) await this.context.report.stopped(loggedOutText);
      return;
    }
    // Right after a QR is read WhatsApp closes once and asks for a new socket with the new creds.
    if (code === DisconnectReason.restartRequired) {
      this.qrShown = false;
      this.unreadQrRounds = 0;
      return this.connect();
    }
    if (this.qrShown && ++this.unreadQrRounds >= this.options.maxUnreadQrRounds) {
      this.stopped = true;
      await this.context.report.stopped(qrExpiredText);
      return;
    }
    this.qrShown = false;
    console.warn(
      `${this.name}: connection closed (${[code, error?.message].filter(Boolean).join(' ') || 'no reason'}), reconnecting in ${this.delayMs / 1000} s`,
    );
    this.retryLater();
  }

  private goLive(socket: WhatsAppSocket): void {
    this.dropLive();
    const live: LiveConnection = {
      socket,
      recent: (id) => this.recent.get(id),
      remember: (message) => void (message.key.id && this.recent.set(message.key.id, message)),
      logout: () => this.logout(),
    };
    this.live = live;
    holdLive(this.context.run.serviceId, live);
  }

  private dropLive(): void {
    if (this.live) releaseLive(this.context.run.serviceId, this.live);
    this.live = null;
  }
}
