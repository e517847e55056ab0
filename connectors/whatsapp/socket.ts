/**
 * The Baileys socket as the adapter uses it: the narrow part of `WASocket` the session, sends and
 * media downloads call (so a test double can stand in for the WhatsApp network), and the default
 * factory that makes a real one.
 */
import {
  Browsers,
  makeWASocket,
  type AnyMessageContent,
  type AuthenticationState,
  type BaileysEventMap,
  type BinaryNode,
  type SocketConfig,
  type MiscMessageGenerationOptions,
  type SignalKeyStore,
  proto,
  type WAMessage,
  type WAMessageKey,
  type WAVersion,
} from 'baileys';
import type { CacheStore, GroupMetadata } from 'baileys';

/** The part of Baileys' socket the adapter uses; `makeWASocket`'s socket is one. */
export interface WhatsAppSocket {
  ev: {
    on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
    off<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
  };
  /** The paired account (`<number>:<device>@s.whatsapp.net`), once known. */
  readonly user?: { id: string; name?: string } | undefined;
  /** Closes the socket, staying paired. */
  end(error: Error | undefined): Promise<void> | void;
  /** Unpairs this device on WhatsApp, then closes (a `loggedOut` close follows). */
  logout(message?: string): Promise<void>;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  /** Asks WhatsApp for an 8-character code to type on the phone, instead of reading the QR. */
  requestPairingCode(phoneNumber: string): Promise<string>;
  /** Asks the sender's phone to upload an expired medium again (Baileys' re-upload request). */
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
  /** A group as WhatsApp has it now (subject, members): a query to WhatsApp every call. */
  groupMetadata(jid: string): Promise<GroupMetadata>;
  /**
   * Which numbers (digits or JIDs) are on WhatsApp, as a USync query: one `{ jid, exists: true }`
   * per number that is, under the JID WhatsApp keeps it (a Brazilian number registered before the
   * ninth digit answers without it); nothing for a number that is not. No LID in 7.0.0-rc14.
   */
  onWhatsApp(...phoneNumbers: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  /** Read receipts for received messages (`read`, or `read-self` when the phone's privacy hides read receipts). */
  readMessages(keys: WAMessageKey[]): Promise<void>;
  /** Baileys' store of @lid ↔ phone-number links (`getPNForLID` reads only what it learnt: no network). */
  readonly signalRepository?: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
  /**
   * The keys Baileys' LID store keeps its links in (`lid-mapping`: phone-number user → LID user),
   * read by sends without asking WhatsApp (the store's own `getLIDForPN` runs a USync query for a
   * number it does not know).
   */
  readonly authState?: { keys: Pick<SignalKeyStore, 'get'> };
  /** The URL of a person's or group's profile picture (WhatsApp's CDN); throws when none is set or it is hidden. */
  profilePictureUrl(jid: string, type?: 'preview' | 'image', timeoutMs?: number): Promise<string | undefined>;
  /**
   * Asks the phone for up to `count` messages of the chat older than the given one (an on-demand
   * history sync); they arrive as `messaging-history.set` with sync type ON_DEMAND.
   */
  fetchMessageHistory(count: number, oldestMsgKey: WAMessageKey, oldestMsgTimestamp: number): Promise<string>;
  /** Rejects a call ringing on this number: `callFrom` as the call's offer gave it (`WACallEvent.from`). */
  rejectCall(callId: string, callFrom: string): Promise<void>;
  /** Sends a node and waits for WhatsApp's answer (the liveness probe's ping). */
  query(node: BinaryNode, timeoutMs?: number): Promise<unknown>;
}

export interface SocketOptions {
  auth: AuthenticationState;
  /** Messages this socket sent recently, for Baileys to encrypt again when a recipient asks for a retry. */
  getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined>;
  /** How often Baileys pings WhatsApp; it ends the socket when nothing arrived for this long plus 5 s. */
  keepAliveIntervalMs: number;
  /**
   * How many times each (message, participant) was encrypted again for a retry request; Baileys
   * stops at 5. The session's own outlives its sockets (Baileys' default is one per socket).
   */
  msgRetryCounterCache?: CacheStore;
  /** A group's members for a send (Baileys asks WhatsApp for them at every group send when this answers nothing). */
  cachedGroupMetadata?: (jid: string) => Promise<GroupMetadata | undefined>;
  /** The WhatsApp Web version to present (`version.ts`); Baileys' built-in one when absent. */
  version?: WAVersion | undefined;
  /** Chats Baileys refuses before decrypting (a nack, no event): status updates, broadcast lists, newsletters (`isIgnoredChat`). */
  shouldIgnoreJid(jid: string): boolean;
}

export type SocketFactory = (options: SocketOptions) => WhatsAppSocket;

/**
 * The browser the device presents: one of Baileys' standard tuples. Baileys sends a pairing code's
 * `companion_platform_display` as `${browser[1]} (${browser[0]})` (Socket/socket.js,
 * `requestPairingCode`), and WhatsApp refuses a custom first part there ("Chrome (Conversa)") with
 * an IQ error Baileys never reads, since it sends the request without waiting for the answer: the
 * code is shown and never works (Baileys #2560). The phone lists the device as Chrome on Mac OS.
 */
export const socketBrowser: [string, string, string] = Browsers.macOS('Chrome');

const quiet = () => undefined;

/** Baileys logs a lot at info level; the session logs what matters itself. */
export const silentLogger: SocketConfig['logger'] = {
  level: 'silent',
  child: () => silentLogger,
  trace: quiet,
  debug: quiet,
  info: quiet,
  warn: quiet,
  error: quiet,
};

/**
 * History sync: what the session asks for (on demand, to fill gaps after an outage), and the
 * initial bootstrap a new device gets once, for its @lid ↔ number links only (its messages are not
 * imported: the inbox starts from the pairing). Recent and full syncs are left out, so Baileys
 * never waits for them after an open.
 */
export const shouldSyncHistoryMessage = ({ syncType }: proto.Message.IHistorySyncNotification): boolean =>
  syncType === proto.Message.HistorySyncType.ON_DEMAND || syncType === proto.Message.HistorySyncType.INITIAL_BOOTSTRAP;

/**
 * A real socket. History sync is on demand only (see above), the phone keeps its
 * notifications (not marked online), and messages this socket sends are not echoed back as
 * upserts (`emitOwnEvents: false`): the outbound dispatcher records them itself.
 */
export const makeSocket: SocketFactory = ({ auth, getMessage, msgRetryCounterCache, cachedGroupMetadata, keepAliveIntervalMs, shouldIgnoreJid, version }) =>
  makeWASocket({
    auth,
    logger: silentLogger,
    printQRInTerminal: false,
    syncFullHistory: false,
    shouldSyncHistoryMessage,
    markOnlineOnConnect: false,
    emitOwnEvents: false,
    browser: socketBrowser,
    ...(version ? { version } : {}),
    getMessage,
    ...(msgRetryCounterCache ? { msgRetryCounterCache } : {}),
    ...(cachedGroupMetadata ? { cachedGroupMetadata } : {}),
    keepAliveIntervalMs,
    shouldIgnoreJid,
  });
