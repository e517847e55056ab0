/**
 * The channel port: what a channel adapter (Telegram through grammY, WhatsApp through Baileys)
 * offers the product, and the shapes it hands over. The domain owns it; adapters in `connectors/`
 * implement it and are registered at the composition roots (`functions/lib/channels.ts`, and the
 * local runtime). The domain reaches adapters only through `ports.channels`.
 *
 * An adapter translates and hands over: it never reads contacts or messages itself. Inbound it
 * calls the `InboundSink` it is given; outbound it answers `send`. Everything an adapter keeps for
 * itself (webhook secrets, poll offsets, auth state) lives in its own folder, stored through the
 * generic channel records of `shared/db/channel-records.ts`.
 */
import type { ErrorText } from '#contracts/errors.ts';
import type { MessageType } from '#contracts/messages.ts';
import type { CloudQualityRating, ServiceStatus, ServiceType } from '#contracts/services.ts';
import type { TemplateSendSpec } from '#contracts/template-fill.ts';
import type { MessageTemplate, TemplatePayload, TemplateStatus } from '#contracts/templates.ts';
import type { Ports } from '../ports.ts';

/** The connection an adapter acts on, with its credentials opened from the vault. */
export interface ChannelConnection {
  accountId: string;
  serviceId: string;
  type: ServiceType;
  /** Channel credentials (the Telegram bot token); null for channels paired otherwise (WhatsApp). */
  token: string | null;
}

/** A connection being started: a new run id at every start, so late reports of an older run change nothing. */
export interface ChannelRun extends ChannelConnection {
  runId: string;
  /**
   * The phone number (digits with the country code, no '+') this run pairs by code instead of a
   * QR (WhatsApp's "Conectar com número de telefone"); null or absent: pair by QR.
   */
  pairingPhone?: string | null;
}

// ─── Outbound ──────────────────────────────────────────────────────────────────────────────────

export interface OutboundMessage {
  messageId: string;
  /** The contact's id on the channel (Telegram chat id, WhatsApp JID). */
  to: string;
  type: MessageType;
  text: string;
  /**
   * The file to send. A voice note recorded as WebM/Opus is handed over as OGG/Opus
   * (`oggOpusMimetype`, a `.ogg` name, its length in `durationSeconds`). `url` is the stored file's.
   */
  file: { name: string; mimetype: string; size: number; durationSeconds?: number; read: () => Promise<Uint8Array>; url: string } | null;
  /** The channel id of the message this one replies to. */
  replyTo: string | null;
  /**
   * An approved message template to send instead of `text` (the Cloud API outside the 24-hour
   * window): its name, language, the body's values in order, its header's (a media header is
   * `file`) and its buttons' values. `text` is the rendered template, as the conversation shows it.
   */
  template?: TemplateSendSpec | null;
  /** Forwarded from another conversation: WhatsApp (QR) marks it 'Encaminhada'; other channels send it as any message. */
  forwarded?: boolean;
  /**
   * The options an automated menu or the rating question offers (docs/conversation-lifecycle.md):
   * a channel with buttons or lists (the Cloud API) sends them so, answering with the option's
   * `key`; the others send `text`, which numbers them.
   */
  choices?: MessageChoice[];
  /**
   * Which hand-over of this send attempt this is (1: the first; the send queue's receive count),
   * so a channel that asks to come back later can ask for a longer wait each time (the Cloud
   * API's backoff). Absent: the first.
   */
  attempt?: number;
}

/** One option of a menu or of the rating question: the key the customer answers with, and its label. */
export interface MessageChoice {
  key: string;
  label: string;
}

/** Our reaction to a message of a chat: `emoji` empty takes it away. */
export interface OutboundReaction {
  /** The chat's id on the channel (the contact's `idFromService`). */
  to: string;
  /** The channel id of the message reacted to. */
  channelMessageId: string;
  emoji: string;
}

/** The mimetype of an OGG/Opus voice note, as WhatsApp labels its own. */
export const oggOpusMimetype = 'audio/ogg; codecs=opus';

export interface SentMessage {
  channelMessageId: string;
  timestamp?: string;
  /**
   * The channel knows the recipient under other ids than `to` (WhatsApp answered a number typed by
   * hand under the JID it keeps, and its LID): the contact keeps `idFromService` as its id and the
   * `aliases` as its other ids, so the person's own messages find it (linked as inbound links are).
   */
  recipient?: { idFromService: string; aliases: string[]; phoneNumber?: string | null };
}

/** A send the channel refused. `retryAfterSeconds` when the channel asks to come back later. */
export class ChannelSendError extends Error {
  constructor(
    /** Why, in pt-BR, as the person who sent it should read it. */
    readonly reason: string,
    readonly options: { retryAfterSeconds?: number; permanent?: boolean } = {},
  ) {
    super(reason);
    this.name = 'ChannelSendError';
  }
}

// ─── Credentials and lifecycle ─────────────────────────────────────────────────────────────────

/**
 * The channel refused the credentials (an invalid or revoked bot token). `field`: which field of the
 * connection form is wrong and why (pt-BR), with the catalogue text to answer; absent: the
 * Telegram token's. `stopReason`: the connection's statusReason when a start is refused (pt-BR).
 */
export class CredentialsRejected extends Error {
  constructor(
    message = 'credentials rejected',
    readonly details: { field?: { error: ErrorText; path: string; message: string }; stopReason?: string } = {},
  ) {
    super(message);
    this.name = 'CredentialsRejected';
  }
}

/** The channel could not be reached or answered with a failure that is not about the credentials. */
export class ChannelUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChannelUnreachable';
  }
}

export interface ChannelCredentials {
  /**
   * Checks credentials with the channel before they are stored; throws CredentialsRejected or
   * ChannelUnreachable. May answer what the channel told about the account, stored on the connection.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a channel with nothing to tell answers nothing (Telegram's check)
  verify(token: string, options?: VerifyOptions): Promise<ChannelProfile | void>;
  /**
   * What the credentials must hold alone across the whole product (a Telegram bot serves one
   * connection): the claim's kind and id, and the error when another connection holds it.
   * Claimed in the same transaction that stores the credentials; pure, no network.
   */
  exclusive?(token: string): ExclusiveClaim;
}

/** What the connection form gave beside the credentials, used while checking them and never stored. */
export interface VerifyOptions {
  /** The Cloud API number's two-step verification PIN, to register a number not registered yet. */
  registrationPin?: string;
}

/** What a channel answered about the account its credentials open (the Cloud API's number), shown on the connection. */
export interface ChannelProfile {
  displayPhoneNumber?: string;
  verifiedName?: string;
  qualityRating?: CloudQualityRating;
}

export interface ExclusiveClaim {
  kind: string;
  id: string;
  /** The catalogue text and the field problem answered when another connection holds the claim. */
  inUse: { error: ErrorText; path: string; message: string };
}

export interface ChannelLifecycle {
  /**
   * Starts delivery for a run. Answers the status to record: `connected` when delivery is set up,
   * `starting` when a worker-held session finishes the start (and reports through its `SessionReport`).
   */
  start(ports: Ports, run: ChannelRun): Promise<ServiceStatus>;
  /** Stops delivery; `logout` also forgets what the channel kept for the connection (pending updates, offsets, auth state). */
  stop(ports: Ports, connection: ChannelConnection, options: { logout: boolean }): Promise<void>;
}

// ─── Sessions held by the channel worker ───────────────────────────────────────────────────────

/** How a session reports on its connection; every write is conditional on the session's run. */
export interface SessionReport {
  /** The session receives; answers false when the run was replaced or stopped meanwhile. */
  connected(): Promise<boolean>;
  /** A pairing code to show (a QR as an image data URL): status `isOnQrCode`. */
  pairing(qrCode: string): Promise<boolean>;
  /** A code to type on the phone instead of reading a QR (WhatsApp's 8 characters): status `isOnQrCode`. */
  pairingCode(code: string): Promise<boolean>;
  /**
   * The session lost its channel and is getting it back (a transient close, a dead socket): status
   * `starting` with a pt-BR reason, until `connected` (which clears the reason). Answers false when
   * the run was replaced or stopped meanwhile, or the connection is waiting for a pairing.
   */
  reconnecting(reason: string): Promise<boolean>;
  /** The session ended by itself (token revoked, logged out on the phone), with a pt-BR reason. */
  stopped(reason: string): Promise<void>;
}

/** What the worker gives a session it opens. */
export interface SessionContext {
  ports: Ports;
  run: ChannelRun;
  report: SessionReport;
  inbound: InboundSink;
  /** The worker holding the connection's session lease: what the session writes of its own state is refused once another holds it. */
  leaseOwner?: string;
}

/** A running session; it runs until `stop` resolves. */
export interface ChannelSession {
  stop(): Promise<void>;
  /**
   * Unpairs on the channel through the session (WhatsApp's socket) and forgets what the session
   * kept (its auth state); the session ends. Asked by the worker that holds the session when a
   * logout command reaches it.
   */
  logout?(): Promise<void>;
}

/**
 * How an adapter holds a session in the long-running channel worker (Telegram long polling where
 * no webhook can reach; WhatsApp's socket always). The worker reconciles: it opens a session for
 * every connection that `wants` one and closes it when the connection stops wanting it or its
 * run changes.
 */
export interface SessionHolding {
  /** Whether a connection that should run (starting, on QR code, connected) needs a session held by a worker now. */
  wants(connection: { status: ServiceStatus; runId?: string | null; tokenSealed: string | null }): boolean;
  open(context: SessionContext): ChannelSession;
  /** The channel can pair a run by a code typed on the phone (`ChannelRun.pairingPhone`) instead of a QR. */
  readonly pairsByPhoneNumber?: boolean;
  /**
   * The channel is reached only through the session (WhatsApp's socket lives in the worker that
   * holds it): sends must run in that worker, so the dispatcher queues them on the worker queue
   * instead of the send queue, and a logout (which the adapter's lifecycle queues for the worker)
   * is queued before the connection's status changes. Absent or false: any process may send
   * (Telegram's Bot API).
   */
  readonly sendsInSession?: boolean;
  /**
   * A logout while no worker holds a session of the connection: forgets what the sessions kept
   * (auth state) and unpairs on the channel if it can. Called by a worker that holds the lease for
   * the time of the call, so no session opens meanwhile.
   */
  logoutWithoutSession?(ports: Ports, connection: ChannelConnection): Promise<void>;
  /**
   * Sends the channel's read receipts for received messages of a chat (WhatsApp's blue ticks),
   * through the session this worker holds. Throws `ChannelSendError` with `retryAfterSeconds` when
   * the session has no live socket right now (reconnecting). Absent: the channel has none to send.
   */
  markRead?(connection: ChannelConnection, read: ReadReceipts): Promise<void>;
  /**
   * The channel can tell whether a person typed by hand is on it (`checkContact`, in the worker
   * that holds the session): a contact made by hand is checked as soon as it is made. Declared
   * where the functions see it (they queue the check; only the worker's adapter has `checkContact`).
   */
  readonly checksContacts?: boolean;
  /**
   * Asks the channel, through the session this worker holds, whether a person typed by hand (a
   * contact's `idFromService`) is on it and under which ids (WhatsApp's `onWhatsApp`). Throws
   * `ChannelSendError` with `retryAfterSeconds` when the session has no live socket right now.
   * Absent: the channel has no such check (the contact is found out at its first send, or never).
   */
  checkContact?(connection: ChannelConnection, id: string): Promise<ContactCheck>;
}

/**
 * What a channel answered about a person: on it (`recipient` when under other ids than asked, as a
 * send answers them), not on it, or no answer in time.
 */
export type ContactCheck = { kind: 'on'; recipient?: SentMessage['recipient'] } | { kind: 'absent' } | { kind: 'unknown' };

/** Received messages of one chat an agent has read. */
export interface ReadReceipts {
  /** The chat's id on the channel (the contact's `idFromService`). */
  chat: string;
  /** Newest first; `author`: in groups, the member who wrote it. */
  messages: { channelMessageId: string; author: string | null }[];
}

// ─── Webhooks ──────────────────────────────────────────────────────────────────────────────────

export interface WebhookDelivery {
  /** The connection named in the route (`/api/webhooks/<type>/{serviceId}`). */
  serviceId: string;
  headers: Record<string, string | undefined>;
  body: unknown;
  /** The body's bytes exactly as received, for receivers that check a signature over them (the Cloud API). */
  rawBody?: Uint8Array;
}

/** Deliveries a channel posts to our route; the adapter checks them itself (a secret header). */
export interface WebhookReceiver {
  /** Handles one delivery; throws WebhookRefused for one that is not genuine or not for a live connection. */
  receive(ports: Ports, inbound: (connection: ChannelConnection) => InboundSink, delivery: WebhookDelivery): Promise<void>;
  /**
   * The channel's `GET` verification of the route (Meta's `hub.mode`/`hub.verify_token`/
   * `hub.challenge`): answers the text to echo back, or null to refuse. Absent: no such handshake.
   */
  handshake?(ports: Ports, serviceId: string, query: Record<string, string | undefined>): Promise<string | null>;
}

/** A webhook delivery that is not genuine (wrong or missing secret) or names no live connection. */
export class WebhookRefused extends Error {
  constructor(readonly kind: 'unauthorized' | 'invalid') {
    super(`webhook delivery refused: ${kind}`);
    this.name = 'WebhookRefused';
  }
}

// ─── The adapter ───────────────────────────────────────────────────────────────────────────────

export interface ChannelAdapter {
  readonly type: ServiceType;
  send(connection: ChannelConnection, message: OutboundMessage): Promise<SentMessage>;
  /** Absent: the channel takes no credentials to check (WhatsApp pairs by QR). */
  readonly credentials?: ChannelCredentials;
  /** Absent: connections of this type cannot be started. */
  readonly lifecycle?: ChannelLifecycle;
  readonly sessions?: SessionHolding;
  readonly webhook?: WebhookReceiver;
  /**
   * Sends the channel's read receipts for received messages of a chat without a session (the Cloud
   * API's `status: 'read'`), in the process that opens the conversation. Channels reached through a
   * worker-held session have `sessions.markRead` instead. Absent: neither way, no receipts.
   */
  markRead?(connection: ChannelConnection, read: ReadReceipts): Promise<void>;
  /** The channel's message templates (the Cloud API's). Absent: the channel has none. */
  readonly templates?: ChannelTemplates;
  /**
   * Sets our reaction on a message of the chat, or takes it away (empty emoji), on the channel;
   * answers under which reactor id the channel reports our own reactions (the id inbound reactions
   * made from the phone or the Business app carry), so the stored reaction is the same one.
   * Throws `ChannelSendError` when refused. Absent: the channel takes no reactions from us.
   */
  react?(connection: ChannelConnection, reaction: OutboundReaction): Promise<{ reactorId: string }>;
  /** Meta's Embedded Signup (the Cloud API's; ADR-0217). Absent: the channel has none. */
  readonly embeddedSignup?: ChannelEmbeddedSignup;
}

/** The operator's Meta app, whose login configuration runs Embedded Signup in the browser. */
export interface MetaApp {
  appId: string;
  appSecret: string;
}

/**
 * The server's half of Meta's Embedded Signup: the code the browser got exchanged for the business's
 * token (a refused code is `CredentialsRejected` on `code`), the WABA's number found when the flow
 * named none, and the number registered for the Cloud API (not a WhatsApp Business app number, which
 * is registered already). A failure that is not about the credentials is `ChannelUnreachable`.
 */
export interface ChannelEmbeddedSignup {
  exchangeCode(app: MetaApp, code: string): Promise<string>;
  onlyNumber(accessToken: string, wabaId: string): Promise<string>;
  register(accessToken: string, phoneNumberId: string): Promise<void>;
}

/** A message template as the channel holds it; `id` is the channel's own. */
export type ChannelTemplate = Omit<MessageTemplate, 'serviceId' | 'createdAt' | 'updatedAt' | 'variableCount'>;

/**
 * Message templates managed at the channel: listed (every page), created (answered with the
 * channel's id and first status), deleted by name (every language of it). A refusal of the
 * channel's is `TemplateRefused`; no answer at all, `ChannelUnreachable`.
 */
export interface ChannelTemplates {
  list(connection: ChannelConnection): Promise<ChannelTemplate[]>;
  create(connection: ChannelConnection, template: TemplatePayload): Promise<{ id: string; status: TemplateStatus }>;
  remove(connection: ChannelConnection, name: string): Promise<void>;
}

/** The channel refused a template change: one of that name and language exists, or the content was refused (its own words in `detail`). */
export class TemplateRefused extends Error {
  constructor(
    readonly kind: 'exists' | 'invalid' | 'notFound',
    readonly detail?: string,
  ) {
    super(`template refused: ${kind}${detail ? ` (${detail})` : ''}`);
    this.name = 'TemplateRefused';
  }
}

// ─── Inbound: what adapters hand over ─────────────────────────────────────────────────────────

/** Media the adapter can fetch; the domain asks for it only for a message not stored before. */
export interface InboundMedia {
  /** Copies the bytes into the bucket (under the account) and describes them; null when the channel will not hand them over. */
  load(): Promise<{ objectKey: string; name: string; mimetype: string; size: number } | null>;
  /** The text stored instead when the media cannot be had (pt-BR). */
  unavailableText: string;
  /**
   * Set when the file comes after the message (a download that may take minutes must not hold the
   * chat's other messages): the message is stored at once without the file, showing this text
   * (pt-BR) unless it has a caption, and the adapter hands the file over with `InboundSink.attach`.
   */
  pendingText?: string;
}

/** The file of a message stored before it (`InboundMedia.pendingText`). */
export interface InboundAttachment {
  channelMessageId: string;
  type: MessageType;
  /** The message's own text (a caption), kept once the file is there. */
  text: string;
  media: InboundMedia;
}

/** A message the adapter received (or saw sent from the phone itself). */
export interface InboundMessage {
  channelMessageId: string;
  /** The chat: the person, or the group for group messages. */
  chat: {
    /** The id to keep the contact under and to send to (WhatsApp: the phone-number JID when known). */
    idFromService: string;
    /**
     * Other ids the channel gives the same chat (WhatsApp's private `@lid` id of a person whose
     * phone-number JID is `idFromService`). They find the same contact; a contact known only by
     * one of them takes `idFromService` as its id (see ADR-0076).
     */
    aliases?: string[];
    name: string;
    isGroup: boolean;
    phoneNumber?: string | null;
    /** Copies the chat's picture into the bucket; asked only when the chat becomes a new contact. */
    avatar?: () => Promise<string | null>;
    /** Looks the chat's name up on the channel (a WhatsApp group's subject) when `name` is empty; asked only when the chat becomes a new contact. */
    lookupName?: () => Promise<string>;
  };
  /** In groups, who wrote it. */
  author?: { idFromService: string; name: string } | null;
  isFromMe: boolean;
  type: MessageType;
  text: string;
  media?: InboundMedia | null;
  replyToChannelMessageId?: string | null;
  /** The key of the option the customer picked from our buttons or list (`OutboundMessage.choices`), when they picked one. */
  choice?: string | null;
  timestamp: string;
}

export interface InboundAck {
  channelMessageId: string;
  ack: number;
  /** Why the channel refused a message it had taken (ack -2), in pt-BR; shown on the bubble. */
  reason?: string;
  /**
   * The channel's own rule for where the ack moves from `current` (the Cloud API's forward-only
   * rule, in which a late `failed` does not undo a delivery). Absent: the product's `nextAck`.
   */
  next?: (current: number, incoming: number) => number;
}

export interface InboundEdit {
  channelMessageId: string;
  text: string;
  /** False when the text changes without its author editing it (a poll's tally after a vote): the message is not marked edited. @default true */
  edited?: boolean;
}

/** A message deleted for everyone on the channel. */
export interface InboundDeletion {
  channelMessageId: string;
}

/** A reaction to a message; an empty emoji takes the reactor's reaction away. */
export interface InboundReaction {
  channelMessageId: string;
  /** Who reacted, by channel id (the contact, or our own number for reactions from the phone). */
  reactorId: string;
  fromMe: boolean;
  emoji: string;
  timestamp: string;
}

/**
 * The channel learnt that two ids name one chat (WhatsApp: a person's `@lid` id and phone-number
 * JID). `idFromService` is the one to keep and send to; `alias` then finds the same contact.
 */
export interface InboundAlias {
  idFromService: string;
  alias: string;
  /** The phone number (digits) `idFromService` carries, when it is one. */
  phoneNumber?: string | null;
}

/**
 * A person calling the connection's number (a WhatsApp voice or video call ringing), handed over
 * once per call, before it is answered. Group calls are not handed over.
 */
export interface InboundCall {
  /** The channel's id of the call; a call is recorded once per id. */
  callId: string;
  /** The caller's chat, as a message of theirs would name it. */
  chat: InboundMessage['chat'];
  isVideo: boolean;
  timestamp: string;
}

/** What became of a call the domain recorded: whether the channel rejected it (the account's 'Rejeitar ligações do WhatsApp'). */
export interface CallOutcome {
  rejected: boolean;
}

/** Where an adapter hands over what it receives, for one connection. Built by the domain. */
export interface InboundSink {
  /** Stores a message once per channel id; answers false for a redelivery (nothing changed). */
  message(input: InboundMessage): Promise<boolean>;
  /** Moves a message's ack; answers false when no message has that channel id (yet: a receipt may race the send's own write). */
  ack(input: InboundAck): Promise<boolean>;
  edit(input: InboundEdit): Promise<void>;
  deletion(input: InboundDeletion): Promise<void>;
  reaction(input: InboundReaction): Promise<void>;
  /** Two ids of one chat: links them to one contact, merging two contacts made before the link was known. */
  alias(input: InboundAlias): Promise<void>;
  /** Loads and attaches the file of a message stored before it, if that message still waits for it (a repeat does nothing). */
  attach(input: InboundAttachment): Promise<void>;
  /** What the channel now says about the connection's number (the Cloud API's quality rating), stored on the connection. */
  profile?(change: ChannelProfile): Promise<void>;
  /**
   * A call ringing: recorded in the caller's conversation once per call id. Where the account rejects
   * calls, `reject` (the adapter's rejection on the channel; a throw is a rejection that failed) is
   * called first, so the line tells what became of it. Answers that, or null for a call already
   * recorded (nothing rejected, nothing written).
   */
  call?(input: InboundCall, reject: () => Promise<void>): Promise<CallOutcome | null>;
}
