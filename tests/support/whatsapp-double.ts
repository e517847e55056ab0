/**
 * Stand-ins for the WhatsApp network at the Baileys boundary: a socket double that emits Baileys'
 * own event shapes (and closes the way Baileys does), a recording sink, an in-memory auth state
 * and a bucket in memory. The WhatsApp network has no local stand-in; everything past the socket
 * is the adapter's real code.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import {
  DisconnectReason,
  initAuthCreds,
  proto,
  type AnyMessageContent,
  type BaileysEventMap,
  type BinaryNode,
  type MiscMessageGenerationOptions,
  DEFAULT_CONNECTION_CONFIG,
  type SignalKeyStore,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
  type WAVersion,
} from 'baileys';
import { createHash, randomBytes } from 'node:crypto';
import { type GroupMetadata, WAMessageAddressingMode } from 'baileys';
import type { ChannelRun, InboundCall, InboundSink, SessionContext, SessionReport } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import type { TableAuthState } from '#connectors/whatsapp/auth-state.ts';
import { ledgerRecord, messageOfRecord, replayOrder, type InboundLedger, type LedgerRecord } from '#connectors/whatsapp/ledger.ts';
import { socketBrowser, type SocketFactory, type SocketOptions, type WhatsAppSocket } from '#connectors/whatsapp/socket.ts';

/**
 * The content Baileys' `sendMessage` answers with (`generateWAMessageContent`, Utils/messages.js):
 * text goes as `extendedTextMessage`; a medium as its `*Message` with what the upload gave (CDN
 * url and direct path, the random `mediaKey`, both hashes, the length as a protobuf Long-able number).
 */
export function contentSent(content: AnyMessageContent): proto.IMessage {
  if ('text' in content) return { extendedTextMessage: { text: content.text } };
  const media = (bytes: unknown) => {
    const length = Buffer.isBuffer(bytes) ? bytes.length : 0;
    const mediaKey = randomBytes(32);
    return {
      url: `https://mmg.whatsapp.net/v/t62.7118-24/${mediaKey.toString('hex').slice(0, 16)}.enc`,
      directPath: `/v/t62.7118-24/${mediaKey.toString('hex').slice(0, 16)}.enc`,
      mediaKey,
      mediaKeyTimestamp: 1_767_000_000,
      fileSha256: createHash('sha256')
        .update(Buffer.isBuffer(bytes) ? bytes : Buffer.alloc(0))
        .digest(),
      fileEncSha256: randomBytes(32),
      fileLength: length,
    };
  };
  const c = content as Record<string, unknown> & { mimetype?: string; caption?: string };
  if ('image' in c) return { imageMessage: { ...media(c.image), mimetype: c.mimetype ?? 'image/jpeg', caption: c.caption ?? null } };
  if ('video' in c) return { videoMessage: { ...media(c.video), mimetype: c.mimetype ?? 'video/mp4', caption: c.caption ?? null } };
  if ('audio' in c)
    return { audioMessage: { ...media(c.audio), mimetype: c.mimetype ?? 'audio/ogg', ptt: Boolean(c.ptt), seconds: (c.seconds as number) ?? 0 } };
  if ('document' in c)
    return {
      documentMessage: {
        ...media(c.document),
        mimetype: c.mimetype ?? 'application/octet-stream',
        fileName: (c.fileName as string) ?? null,
        caption: c.caption ?? null,
      },
    };
  return {};
}

/** An error as Baileys closes with (a Boom: the reason is `output.statusCode`). */
export function closeError(statusCode: number, message = 'closed'): Error {
  return Object.assign(new Error(message), { isBoom: true, output: { statusCode, payload: { statusCode, message } } });
}

/** The first parts of Baileys' standard browser tuples (Utils/browser-utils.js), which WhatsApp shows as '<browser> (<OS>)'. */
const acceptedPlatformDisplays = new Set(['Mac OS', 'Windows', 'Ubuntu']);

/** A close as Baileys makes it from WhatsApp's `<failure reason="…" …/>` (Socket/socket.js, `CB:failure`): the attributes are the Boom's data. */
export function failureError(reason: number, attrs: Record<string, string> = {}): Error {
  return Object.assign(closeError(reason, 'Connection Failure'), { data: { reason: String(reason), ...attrs } });
}

/**
 * What WhatsApp's server decides at a socket's handshake, before the socket shows anything: a
 * retired WhatsApp Web version gets `<failure reason="405">` (Baileys #1937, #2370), a banned or
 * locked number its own failure at login, and a login with `creds.me` but no paired device (a
 * pairing code asked for and never typed) is refused as 401, since Baileys logs in rather than
 * registers whenever `creds.me` is set (Socket/socket.js, `validateConnection`).
 */
export interface ServerDouble {
  /** The oldest WhatsApp Web version WhatsApp still takes. */
  oldestVersion?: WAVersion;
  /** The failure every login of a paired device gets (402 with `expire`, 403, 406, 409…). */
  loginFailure?: { reason: number; attrs?: Record<string, string> };
}

/** Baileys' own WhatsApp Web version (what a socket presents when given none). */
export const builtInVersion: WAVersion = DEFAULT_CONNECTION_CONFIG.version;

const older = (a: WAVersion, b: WAVersion) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** A socket factory of doubles that meet `server` at their handshake (the session's options reach each double). */
export function doublesOn(server: ServerDouble, made: SocketDouble[] = []): SocketFactory & { made: SocketDouble[] } {
  const factory = (options: SocketOptions) => {
    const socket = new SocketDouble(options);
    made.push(socket);
    // Judged on the creds as the socket was made (Baileys reads them at its handshake, before any event); closed a tick later.
    const failure = socket.handshake(server);
    if (failure) setTimeout(() => socket.close(failure), 0);
    return socket;
  };
  return Object.assign(factory, { made });
}

export class SocketDouble implements WhatsAppSocket {
  readonly ev = new EventEmitter() as EventEmitter & WhatsAppSocket['ev'];
  user: { id: string; name?: string } | undefined = undefined;
  readonly ended: (Error | undefined)[] = [];
  readonly sent: { jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions }[] = [];
  logouts = 0;
  /** Nodes sent with `query` (the session's liveness pings). */
  readonly queries: BinaryNode[] = [];
  /** False: WhatsApp no longer answers; a query waits forever (a socket that says open but is dead). */
  answering = true;
  /** The next sendMessage reaches WhatsApp (it is in `sent`) and then throws this: a socket closed after the relay. */
  failAfterNextRelay: Error | null = null;
  /** The next sendMessage throws this. */
  failNextSend: Error | null = null;
  private closed = false;
  private sequence = 0;

  /** The factory's options, as `makeWASocket` gets them (the double honours `shouldIgnoreJid` in `deliver`). */
  constructor(readonly options: Partial<SocketOptions> = {}) {}

  /** Stanzas Baileys refused before decrypting (`shouldIgnoreJid`): it answers them with a nack, and emits nothing. */
  readonly nacked: WAMessage[] = [];

  /**
   * Messages arriving from WhatsApp as Baileys' receive path handles them (Socket/messages-recv.js,
   * `processNode`): a stanza whose chat `shouldIgnoreJid` names is nacked and never decrypted nor
   * upserted; the rest come out as one `messages.upsert`.
   */
  deliver(messages: WAMessage[], type: 'notify' | 'append' = 'notify'): void {
    const ignore = this.options.shouldIgnoreJid;
    const kept: WAMessage[] = [];
    for (const message of messages) {
      const jid = message.key.remoteJid;
      if (jid && ignore?.(jid)) this.nacked.push(message);
      else kept.push(message);
    }
    if (kept.length) this.emit('messages.upsert', { messages: kept, type });
  }

  /** The version this socket presented at its handshake. */
  get version(): WAVersion {
    return this.options.version ?? builtInVersion;
  }

  /** The handshake's verdict (see `ServerDouble`): the failure the socket closes with, as Baileys does; none when it goes on. */
  handshake(server: ServerDouble): Error | null {
    const creds = this.options.auth?.creds;
    if (server.oldestVersion && older(this.version, server.oldestVersion) < 0) return failureError(405, { location: 'cln' });
    if (creds?.me && !creds.account) return failureError(DisconnectReason.loggedOut, { location: 'rva' });
    if (creds?.me && server.loginFailure) return failureError(server.loginFailure.reason, server.loginFailure.attrs);
    return null;
  }

  /**
   * WhatsApp's offline delivery after a socket opens, as Baileys hands it over (Socket/socket.js and
   * Socket/messages-recv.js): offline stanzas are queued in its offline node processor and upserted
   * as 'append', decrypted one after another; the events of the first ones are buffered and flushed
   * as one upsert when the server's `<ib><offline/></ib>` arrives, which is also when Baileys emits
   * `receivedPendingNotifications: true`; the rest of the queue is still being processed and
   * comes after the signal, one upsert each. `processedBeforeSignal` is how many were done by then.
   */
  async deliverOffline(messages: WAMessage[], processedBeforeSignal = messages.length, eachMs = 5): Promise<void> {
    const before = messages.slice(0, processedBeforeSignal);
    if (before.length) this.deliver(before, 'append');
    this.emit('connection.update', { receivedPendingNotifications: true });
    for (const message of messages.slice(processedBeforeSignal)) {
      await new Promise((r) => setTimeout(r, eachMs));
      this.deliver([message], 'append');
    }
  }

  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]): void {
    this.ev.emit(event, arg);
  }

  /** Baileys' close: one `connection.update` with the error, then nothing more. */
  close(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }

  async end(error: Error | undefined): Promise<void> {
    this.ended.push(error);
    this.close(error);
  }

  async logout(): Promise<void> {
    this.logouts++;
    this.close(closeError(DisconnectReason.loggedOut, 'Intentional Logout'));
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> {
    if (this.failNextSend) {
      const error = this.failNextSend;
      this.failNextSend = null;
      throw error;
    }
    this.sent.push({ jid, content, options });
    if (this.failAfterNextRelay) {
      // WhatsApp took the stanza; the socket closed before Baileys' promise settled.
      const error = this.failAfterNextRelay;
      this.failAfterNextRelay = null;
      throw error;
    }
    // Baileys takes the id a send names (`messageId`, as generateWAMessage does), or makes one.
    const key = { remoteJid: jid, fromMe: true, id: options?.messageId ?? `3EB0${String(++this.sequence).padStart(16, '0')}` };
    // WhatsApp takes the stanza (the call succeeds) and refuses it afterwards, in the server's ack.
    if (this.refusedNumbers.has(jid)) setImmediate(() => this.badAck(key, '463'));
    return this.relayed(
      proto.WebMessageInfo.fromObject({
        key,
        messageTimestamp: 1_767_000_000,
        message: contentSent(content),
      }) as WAMessage,
    );
  }

  /**
   * Baileys' LID store as this device learnt it: phone-number user → LID user, the `lid-mapping`
   * keys of the auth state that `signalRepository.lidMapping` reads and writes (Signal/lid-mapping.js).
   */
  readonly lidMappings = new Map<string, string>();
  /** Numbers `getLIDForPN` had to ask WhatsApp about: the real store runs a USync query for a number it does not know. */
  readonly lidQueries: string[] = [];
  /** Phone-number JIDs WhatsApp refuses with ack error 463 after taking the send (contacts moved to a LID, Baileys #2683). */
  readonly refusedNumbers = new Set<string>();

  /** A contact WhatsApp moved to a LID: the store knows the link, and sends to the phone-number JID are refused with 463. */
  migrateToLid(pnJid: string, lidJid: string): void {
    this.lidMappings.set(pnJid.split('@')[0]!.split(':')[0]!, lidJid.split('@')[0]!.split(':')[0]!);
    this.refusedNumbers.add(pnJid);
  }

  readonly authState = {
    keys: {
      get: async (type: string, ids: string[]) =>
        Object.fromEntries(type === 'lid-mapping' ? ids.flatMap((id) => (this.lidMappings.has(id) ? [[id, this.lidMappings.get(id)!]] : [])) : []),
    } as Pick<SignalKeyStore, 'get'>,
  };

  readonly signalRepository = {
    lidMapping: {
      getPNForLID: async (lid: string): Promise<string | null> => {
        const user = lid.split('@')[0]!.split(':')[0]!;
        for (const [pn, l] of this.lidMappings) if (l === user) return `${pn}@s.whatsapp.net`;
        return null;
      },
      getLIDForPN: async (pn: string): Promise<string | null> => {
        const user = pn.split('@')[0]!.split(':')[0]!;
        const lid = this.lidMappings.get(user);
        if (!lid) this.lidQueries.push(pn);
        return lid ? `${lid}@lid` : null;
      },
    },
  };

  /**
   * An ack with an error code, as Baileys' `handleBadAck` (Socket/messages-recv.js) reports it:
   * `messages.update` with status ERROR and the code in `messageStubParameters`; for 463 it adds
   * its ACCOUNT_RESTRICTED_TEXT (the code is also NACK_REASONS.SenderReachoutTimelocked).
   */
  badAck(key: WAMessageKey, code: string): void {
    const params = code === '463' ? [code, 'Your account has been restricted'] : [code];
    this.emit('messages.update', [{ key, update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: params } }]);
  }

  /** Calls ringing on this socket's number, by id (their offer). */
  private readonly ringing = new Map<string, WACallEvent>();
  /** Calls rejected with `rejectCall`, in order, with the ids as given. */
  readonly rejectedCalls: { callId: string; callFrom: string }[] = [];
  /** Calls whose `rejectCall` fails, and how (`ring`'s `rejectFails`). */
  private readonly failingRejects = new Map<string, 'closed' | 'timeout'>();

  /**
   * A person (or a group) calls, as Baileys' `handleCall` (Socket/messages-recv.js) reports the
   * offer stanza: a `call` event with status 'offer', the caller in `from` (and `chatId`), the
   * number in `callerPn` when the stanza has `caller_pn`, `isVideo`, and for a group call
   * `isGroup` and `groupJid`. `repeated`: WhatsApp's `offer_notice` and `offer` stanzas both come,
   * which Baileys reports as two offers of the same id. `rejectFails`: rejecting this call fails as
   * Baileys' query does when the socket closes before it went ('Connection Closed', 428) or no answer
   * comes in time ('Timed Out', 408); the call keeps ringing.
   */
  ring(call: {
    id: string;
    from: string;
    callerPn?: string;
    isVideo?: boolean;
    groupJid?: string;
    repeated?: boolean;
    rejectFails?: 'closed' | 'timeout';
  }): WACallEvent {
    const offer: WACallEvent = {
      chatId: call.from,
      from: call.from,
      ...(call.callerPn ? { callerPn: call.callerPn } : {}),
      id: call.id,
      date: new Date(),
      offline: false,
      status: 'offer',
      isVideo: Boolean(call.isVideo),
      isGroup: Boolean(call.groupJid),
      ...(call.groupJid ? { groupJid: call.groupJid } : {}),
    };
    this.ringing.set(call.id, offer);
    if (call.rejectFails) this.failingRejects.set(call.id, call.rejectFails);
    this.emit('call', [offer]);
    if (call.repeated) this.emit('call', [{ ...offer }]);
    return offer;
  }

  /**
   * Baileys' `rejectCall`: a `<call><reject call-id call-creator/></call>` stanza to `callFrom`. WhatsApp
   * ends the call, and its terminate stanza comes back as a `call` event of the same id.
   */
  async rejectCall(callId: string, callFrom: string): Promise<void> {
    const failure = this.failingRejects.get(callId);
    if (failure === 'closed') throw closeError(DisconnectReason.connectionClosed, 'Connection Closed');
    if (failure === 'timeout') throw closeError(DisconnectReason.timedOut, 'Timed Out');
    this.rejectedCalls.push({ callId, callFrom });
    const offer = this.ringing.get(callId);
    if (!offer) return;
    this.ringing.delete(callId);
    setImmediate(() => this.emit('call', [{ ...offer, status: 'terminate', date: new Date() }]));
  }

  /** Phone numbers asked for a pairing code; `pairingCodeError` makes the next ask fail. */
  readonly pairingCodeAsks: string[] = [];
  pairingCodeError: Error | null = null;

  /** The browser tuple the socket presents (the real factory's `socketBrowser`). */
  browser: [string, string, string] = socketBrowser;
  /** Codes WhatsApp refused (`companion_hello` answered 400 bad-request): the phone is never asked for them. */
  readonly deadCodes: string[] = [];

  /**
   * As Baileys' `requestPairingCode` (Socket/socket.js): it stores the code and `creds.me` (the
   * number, not yet a device) in the creds and emits `creds.update` before sending `companion_hello`
   * with `sendNode`, so it never sees WhatsApp's answer. WhatsApp refuses a display other than
   * '<browser> (<standard OS>)' (Baileys #2560): the code still comes back, and is dead.
   */
  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingCodeAsks.push(phoneNumber);
    if (this.pairingCodeError) throw this.pairingCodeError;
    const code = 'ABCD1234';
    const creds = this.options.auth?.creds;
    if (creds) {
      creds.pairingCode = code;
      creds.me = { id: `${phoneNumber}@s.whatsapp.net`, name: '~' };
      this.emit('creds.update', creds);
    }
    if (!acceptedPlatformDisplays.has(this.browser[0])) this.deadCodes.push(code);
    return code;
  }

  /**
   * The owner types `code` on the phone. A dead code (or another socket's) is refused by the phone
   * and nothing happens here; a live one pairs as Baileys does: the creds become a device's
   * (`registered`, `me` with the device, `account`), then WhatsApp asks for a restart.
   */
  typePairingCode(code: string): boolean {
    const creds = this.options.auth?.creds;
    if (this.closed || !this.pairingCodeAsks.length || this.deadCodes.includes(code) || (creds && creds.pairingCode !== code)) return false;
    if (creds) {
      creds.registered = true;
      creds.me = { id: `${this.pairingCodeAsks.at(-1)}:9@s.whatsapp.net`, name: 'Loja' };
      creds.account = proto.ADVSignedDeviceIdentity.fromObject({ details: new Uint8Array([1]) });
      this.emit('creds.update', creds);
    }
    this.close(closeError(DisconnectReason.restartRequired, 'Stream Errored (restart required)'));
    return true;
  }

  /** Profile pictures by JID; any other JID answers as WhatsApp does for none (a Boom 404 'item-not-found'). */
  readonly pictures = new Map<string, string>();
  readonly pictureAsks: string[] = [];

  async profilePictureUrl(jid: string): Promise<string | undefined> {
    this.pictureAsks.push(jid);
    const url = this.pictures.get(jid);
    if (!url)
      throw Object.assign(new Error('item-not-found'), { isBoom: true, output: { statusCode: 404, payload: { statusCode: 404, message: 'item-not-found' } } });
    return url;
  }

  /** On-demand history requests, as Baileys' `fetchMessageHistory` was called. */
  readonly historyAsks: { count: number; key: WAMessageKey; timestampMs: number }[] = [];

  async fetchMessageHistory(count: number, key: WAMessageKey, timestampMs: number): Promise<string> {
    this.historyAsks.push({ count, key, timestampMs });
    return `PDO${this.historyAsks.length}`;
  }

  async updateMediaMessage(message: WAMessage): Promise<WAMessage> {
    return message;
  }

  readonly groupAsks: string[] = [];

  /** Members of each group as WhatsApp knows them (a group not set here has one member). */
  readonly groupMembers = new Map<string, string[]>();
  /** Subjects of groups (default 'Grupo da Loja'). */
  readonly groupSubjects = new Map<string, string>();

  /** Baileys' `groupMetadata`: a query to WhatsApp every call (Socket/groups.js), answering the group as it is now. */
  async groupMetadata(jid: string): Promise<GroupMetadata> {
    this.groupAsks.push(jid);
    const members = this.groupMembers.get(jid) ?? ['5511911110000@s.whatsapp.net'];
    return {
      id: jid,
      subject: this.groupSubjects.get(jid) ?? 'Grupo da Loja',
      owner: undefined,
      addressingMode: WAMessageAddressingMode.PN,
      participants: members.map((id) => ({ id, admin: null })),
    };
  }

  /**
   * WhatsApp tells the group changed (a `w:gp2` notification, Utils/process-message.js): members
   * added or removed come as `group-participants.update`, a new subject as `groups.update`.
   */
  changeGroup(jid: string, change: { add?: string[]; remove?: string[]; subject?: string }): void {
    const members = this.groupMembers.get(jid) ?? ['5511911110000@s.whatsapp.net'];
    if (change.add?.length) {
      this.groupMembers.set(jid, [...members, ...change.add]);
      this.emit('group-participants.update', { id: jid, author: members[0]!, participants: change.add.map((id) => ({ id })), action: 'add' });
    }
    if (change.remove?.length) {
      this.groupMembers.set(
        jid,
        members.filter((id) => !change.remove!.includes(id)),
      );
      this.emit('group-participants.update', { id: jid, author: members[0]!, participants: change.remove.map((id) => ({ id })), action: 'remove' });
    }
    if (change.subject !== undefined) {
      this.groupSubjects.set(jid, change.subject);
      this.emit('groups.update', [{ id: jid, subject: change.subject }]);
    }
  }

  /** Sends to groups: the members each was encrypted for (from `cachedGroupMetadata` when it answers, else a `groupMetadata` query). */
  readonly groupSends: { jid: string; participants: string[] }[] = [];
  /** Baileys' MessageRetryManager of this socket: what it sent, 512 for 5 minutes (Utils/message-retry-manager.js). */
  private readonly recentSent = new Map<string, { at: number; message: proto.IMessage }>();
  /** Baileys' own retry counter when the socket is given none (per socket, Socket/messages-recv.js). */
  private readonly ownRetryCounts = new Map<string, number>();
  /** What retry requests re-sent, and those that found no message ("Aguardando esta mensagem" on the phone). */
  readonly resent: { id: string; participant: string; message: proto.IMessage }[] = [];
  readonly unavailable: { id: string; participant: string }[] = [];

  /** `relayMessage` as Baileys runs it for a send: group members resolved, the message kept for retries. */
  private async relayed(message: WAMessage): Promise<WAMessage> {
    const jid = message.key.remoteJid!;
    if (jid.endsWith('@g.us')) {
      const cached = await this.options.cachedGroupMetadata?.(jid);
      const group = cached && Array.isArray(cached.participants) ? cached : await this.groupMetadata(jid);
      this.groupSends.push({ jid, participants: group.participants.map((p) => p.id) });
    }
    this.recentSent.set(message.key.id!, { at: Date.now(), message: message.message! });
    if (this.recentSent.size > 512) this.recentSent.delete(this.recentSent.keys().next().value!);
    return message;
  }

  /**
   * A recipient's phone could not decrypt a message and asks for it again (a `retry` receipt), as
   * Baileys' `sendMessagesAgain` answers it (Socket/messages-recv.js): the message from this
   * socket's recent sends, else from `getMessage`; re-sent while the retry count of (id,
   * participant) in `msgRetryCounterCache` (Baileys' own per socket when none is given) is under 5;
   * otherwise nothing is sent and the phone keeps showing "Aguardando esta mensagem".
   */
  async retryReceipt(key: WAMessageKey, participant = key.remoteJid!): Promise<proto.IMessage | undefined> {
    const id = key.id!;
    const recent = this.recentSent.get(id);
    const message = recent && Date.now() - recent.at < 5 * 60_000 ? recent.message : await this.options.getMessage?.({ ...key, id });
    const counter = `${id}:${participant}`;
    const counts = this.options.msgRetryCounterCache;
    const count = Number((counts ? await counts.get<number>(counter) : this.ownRetryCounts.get(counter)) ?? 0);
    if (!message || count >= 5) {
      this.unavailable.push({ id, participant });
      return undefined;
    }
    if (counts) await counts.set(counter, count + 1);
    else this.ownRetryCounts.set(counter, count + 1);
    this.resent.push({ id, participant, message });
    return message;
  }

  /**
   * WhatsApp's directory as `onWhatsApp` (a USync contact query, Socket/socket.js) answers it: the
   * JIDs of the numbers on WhatsApp, as WhatsApp keeps them. A number asked is found by its digits,
   * or, in Brazil, as the same number with or without the ninth digit: WhatsApp answers the JID it
   * keeps (an older mobile without the ninth digit). Null, the default of tests that predate it:
   * every number is on WhatsApp under the JID asked.
   */
  registered: Set<string> | null = null;
  /** The numbers of each `onWhatsApp` call. */
  readonly numberAsks: string[][] = [];

  async onWhatsApp(...numbers: string[]): Promise<{ jid: string; exists: boolean }[] | undefined> {
    this.numberAsks.push(numbers);
    if (!this.answering) return new Promise(() => undefined);
    // Baileys' own shaping: LIDs are skipped, the rest asked as '+digits'; only numbers whose contact node says 'in' come back.
    const withoutNinth = (digits: string) =>
      digits.length === 13 && digits.startsWith('55') && digits[4] === '9' ? digits.slice(0, 4) + digits.slice(5) : digits;
    const answers: { jid: string; exists: boolean }[] = [];
    for (const asked of numbers) {
      if (asked.endsWith('@lid')) continue;
      const digits = asked.replace('+', '').split('@')[0]!.split(':')[0]!;
      const jid = this.registered ? [...this.registered].find((j) => withoutNinth(j.split('@')[0]!) === withoutNinth(digits)) : `${digits}@s.whatsapp.net`;
      if (jid) answers.push({ jid, exists: true });
    }
    return answers;
  }

  /** The phone's privacy setting for read receipts ('all', or 'none': Baileys then sends `read-self`, seen only by our own devices). */
  readReceiptsPrivacy: 'all' | 'none' = 'all';
  /** Read receipts sent, one per `readMessages` call that had a key not from us, with the type Baileys chose. */
  readonly reads: { keys: WAMessageKey[]; type: 'read' | 'read-self' }[] = [];

  /** Baileys' `readMessages`: reads the privacy settings (a query), then sends receipts for the keys not from us. */
  async readMessages(keys: WAMessageKey[]): Promise<void> {
    if (!this.answering) return new Promise(() => undefined);
    const theirs = keys.filter((key) => !key.fromMe);
    if (theirs.length) this.reads.push({ keys: theirs, type: this.readReceiptsPrivacy === 'all' ? 'read' : 'read-self' });
  }

  query(node: BinaryNode): Promise<unknown> {
    this.queries.push(node);
    if (!this.answering) return new Promise(() => undefined);
    return Promise.resolve({ tag: 'iq', attrs: { type: 'result', id: node.attrs.id ?? '', from: node.attrs.to ?? '' } });
  }
}

export type SinkCall =
  | { kind: 'message'; input: Parameters<InboundSink['message']>[0] }
  | { kind: 'ack'; input: Parameters<InboundSink['ack']>[0] }
  | { kind: 'edit'; input: Parameters<InboundSink['edit']>[0] }
  | { kind: 'deletion'; input: Parameters<InboundSink['deletion']>[0] }
  | { kind: 'reaction'; input: Parameters<InboundSink['reaction']>[0] }
  | { kind: 'alias'; input: Parameters<InboundSink['alias']>[0] }
  | { kind: 'attach'; input: Parameters<InboundSink['attach']>[0]; loaded: Awaited<ReturnType<Parameters<InboundSink['attach']>[0]['media']['load']>> };

/**
 * A sink that remembers what it was handed, in order; acks of the ids in `missing` find no message.
 * Ringing calls go to `rang`, handled as the domain handles them for an account that rejects
 * them: rejected (the adapter's rejection run; a throw is a rejection that failed), once per call id.
 */
export function recordingSink(): { sink: InboundSink; calls: SinkCall[]; missing: Set<string>; rang: InboundCall[] } {
  const calls: SinkCall[] = [];
  const rang: InboundCall[] = [];
  const missing = new Set<string>();
  const sink: InboundSink = {
    message: async (input) => {
      calls.push({ kind: 'message', input });
      return true;
    },
    ack: async (input) => {
      calls.push({ kind: 'ack', input });
      return !missing.has(input.channelMessageId);
    },
    edit: async (input) => void calls.push({ kind: 'edit', input }),
    deletion: async (input) => void calls.push({ kind: 'deletion', input }),
    reaction: async (input) => void calls.push({ kind: 'reaction', input }),
    alias: async (input) => void calls.push({ kind: 'alias', input }),
    // As the domain does for a message still waiting for its file: loads it (a stop's abort throws through).
    attach: async (input) => void calls.push({ kind: 'attach', input, loaded: await input.media.load() }),
    call: async (input, reject) => {
      const repeat = rang.some((c) => c.callId === input.callId);
      rang.push(input);
      if (repeat) return null;
      return {
        rejected: await reject().then(
          () => true,
          () => false,
        ),
      };
    },
  };
  return { sink, calls, missing, rang };
}

/** The ledger in memory, serialising as the table's does; `records` by connection and WhatsApp id. */
export function memoryLedger(): InboundLedger & { records: Map<string, LedgerRecord> } {
  const records = new Map<string, LedgerRecord>();
  const keyOf = (serviceId: string, id: string) => `${serviceId}#${id}`;
  return {
    records,
    put: async (c, message) => void records.set(keyOf(c.serviceId, message.key.id!), ledgerRecord(message)),
    done: async (c, id) => void records.delete(keyOf(c.serviceId, id)),
    pending: async (c) => replayOrder([...records].filter(([key]) => key.startsWith(`${c.serviceId}#`)).map(([, record]) => record)).map(messageOfRecord),
  };
}

/**
 * A medium as Baileys' `downloadMediaMessage(message, 'stream')` hands it over: a Node stream of the
 * decrypted bytes, produced as they arrive (generated lazily here, never held), which takes no abort
 * signal (its `getHttpStream` forwards none in 7.0.0-rc14): only destroying the stream stops it.
 * `stallAfter`: the link goes quiet after that many bytes and the stream neither ends nor fails.
 */
export function mediaStream(totalBytes: number, options: { chunkBytes?: number; stallAfter?: number } = {}): Readable & { produced: number } {
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  let produced = 0;
  const stream = new Readable({
    read() {
      if (options.stallAfter !== undefined && produced >= options.stallAfter) return;
      if (produced >= totalBytes) return void this.push(null);
      const size = Math.min(chunkBytes, totalBytes - produced);
      produced += size;
      (stream as Readable & { produced: number }).produced = produced;
      setImmediate(() => this.push(Buffer.alloc(size, produced % 251)));
    },
  }) as Readable & { produced: number };
  stream.produced = 0;
  return stream;
}

/** The bucket in memory. */
export function memoryStorage() {
  const objects = new Map<string, { bytes: Uint8Array; mimetype: string }>();
  const storage = {
    put: async (key: string, bytes: Uint8Array, mimetype: string) => void objects.set(key, { bytes, mimetype }),
    putStream: async (key: string, body: AsyncIterable<Uint8Array>, mimetype: string) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      objects.set(key, { bytes, mimetype });
      return { size: bytes.length };
    },
    get: async (key: string) => objects.get(key)!.bytes,
    head: async (key: string) => (objects.has(key) ? { size: objects.get(key)!.bytes.length, mimetype: objects.get(key)!.mimetype } : null),
    uploadUrl: async () => 'http://bucket/upload',
    downloadUrl: async () => 'http://bucket/download',
  };
  return { storage, objects };
}

/** Creds and keys in memory, remembering saves and clears. */
export function memoryAuth(): TableAuthState & { saves: number; clears: number } {
  const auth = {
    state: { creds: initAuthCreds(), keys: { get: async () => ({}), set: async () => undefined } },
    saves: 0,
    clears: 0,
    async saveCreds() {
      auth.saves++;
    },
    async clear() {
      auth.clears++;
    },
    async flush() {},
  };
  return auth;
}

/** A report that remembers what the session said. */
export function recordingReport(): SessionReport & { said: string[] } {
  const said: string[] = [];
  return {
    said,
    connected: async () => {
      said.push('connected');
      return true;
    },
    pairing: async (qr) => {
      said.push(`pairing ${qr}`);
      return true;
    },
    pairingCode: async (code) => {
      said.push(`pairingCode ${code}`);
      return true;
    },
    reconnecting: async (reason) => {
      said.push(`reconnecting ${reason}`);
      return true;
    },
    stopped: async (reason) => void said.push(`stopped ${reason}`),
  };
}

let ids = 0;

/** Ports enough for a session and its media: a bucket in memory; no table (auth is injected). */
export function sessionPorts(): { ports: Ports; objects: Map<string, { bytes: Uint8Array; mimetype: string }> } {
  const { storage, objects } = memoryStorage();
  const ports = { storage, newId: () => `F${String(++ids).padStart(6, '0')}`, clock: () => new Date() } as unknown as Ports;
  return { ports, objects };
}

export function sessionContext(run: Partial<ChannelRun> = {}) {
  const { sink, calls, missing, rang } = recordingSink();
  const report = recordingReport();
  const { ports, objects } = sessionPorts();
  const context: SessionContext = {
    ports,
    run: { accountId: 'ACC1', serviceId: `SVC${++ids}`, type: 'whatsapp', token: null, runId: 'RUN1', ...run },
    report,
    inbound: sink,
  };
  return { context, calls, report, objects, missing, rang };
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
