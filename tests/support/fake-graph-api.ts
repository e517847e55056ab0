/**
 * A stand-in for Meta's Graph API as the WhatsApp Cloud API uses it, speaking its wire format on
 * 127.0.0.1 (random port). Give the adapter `url` as the Graph root (instead of https://graph.facebook.com);
 * paths carry the version, `/{version}/...`. Shapes follow Graph API v23.0 (the version Meta's
 * WhatsApp reference pages were rendered for when this was written; any `vNN.N` is accepted and recorded).
 * Why a double of our own, and how far it is trusted: ADR-0208.
 *
 * Endpoints (Bearer token in `Authorization`, or `access_token` in the query, as Graph accepts):
 *   POST   /{v}/{phone-number-id}/messages          text, image/audio/video/document/sticker (id or link,
 *                                                   caption, filename), location, contacts, reaction,
 *                                                   template (components/parameters), interactive (button,
 *                                                   list), context.message_id replies; `status: 'read'` marks read
 *   POST   /{v}/{phone-number-id}/media             multipart upload (messaging_product, file, type) -> { id }
 *   GET    /{v}/{media-id}                          { messaging_product, url, mime_type, sha256, file_size, id }
 *   DELETE /{v}/{media-id}                          { success: true }
 *   GET    /whatsapp_business/attachments/?mid=…    the short-lived media URL: needs the Bearer token, expires
 *   GET    /{v}/{phone-number-id}?fields=…          display_phone_number, verified_name, quality_rating, …
 *   POST   /{v}/{phone-number-id}/register          { messaging_product, pin } -> { success: true }
 *   GET    /{v}/{waba-id}/phone_numbers             { data: [...] }
 *   GET|POST|DELETE /{v}/{waba-id}/message_templates   list (paging cursors) / create (PENDING) / delete by name
 *   GET|POST|DELETE /{v}/{waba-id}/subscribed_apps     (override_callback_uri honoured for deliveries)
 *   GET    /{v}/oauth/access_token?client_id&client_secret&code   Embedded Signup's code exchange (issueSignupCode)
 *
 * Errors are Graph error bodies `{ error: { message, type, code, error_subcode?, error_data?, fbtrace_id } }`
 * (META_ERRORS lists each code with its HTTP status). Unhappy answers a test selects, per call kind:
 * `failNext(kind, code, details?, { status })` (Meta's passing failures 1, 2, 131000, 131016, the rate
 * limits 4, 80007, 130429, 131056, or any code under a 5xx carrying Meta's body), `hangNext(kind)` (the
 * call is read and never answered, so the client's timeout is what ends it), `serveHuge(mediaId, size,
 * declare)` (a download far over any cap, its size told by `file_size`, by Content-Length or not at all,
 * written only as fast as the client reads: `bytesServed` shows how much it took), and
 * `expiredUrlStatus` (404 or 401 for a download URL past its five minutes). Webhooks are built as Meta's `messages`,
 * `message_template_status_update`, `phone_number_quality_update`, `account_update` and
 * `smb_message_echoes` payloads and POSTed with `X-Hub-Signature-256: sha256=<hex HMAC of the raw body>`.
 *
 * Where the shapes come from (Meta's developer documentation, read through public mirrors and search):
 * - send response, media retrieval (`file_size` a number, `sha256` hex, lookaside URL with `mid`, `ext`,
 *   `hash`): Meta's "Media API" reference (v23.0, "URLs are valid for 5 minutes") and a recorded
 *   response in a public client's VCR cassette;
 * - Graph error envelope: "Handling Errors" (Graph API); WhatsApp codes, titles and details strings:
 *   Meta's "WhatsApp error codes" page as quoted by several providers (HTTP statuses: see META_ERRORS);
 * - webhook envelopes: Meta's webhook references for messages/status (conversation omitted from v24.0),
 *   messages/errors, unsupported messages (131051 "Message type unknown"), edit and revoke (coexistence
 *   numbers only), message_template_status_update, phone_number_quality_update, smb_message_echoes.
 * Not confirmed from documentation (chosen, and listed so adapters stay tolerant): whether 131047 is
 * answered synchronously or only by a `failed` status (both modes exist here, `windowErrors`), the HTTP
 * status of 131056 (400 here; one provider says 429), the download URL's answer once expired (404 here)
 * or without a token (401 here), the upload errors' exact codes, and Meta escaping non-ASCII as `\uXXXX`
 * in webhook bodies (reported by developers; done here so a receiver must verify the raw bytes).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GRAPH_API_VERSION = 'v23.0';
/** The 24-hour customer-service window. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The media URL answered by GET /{media-id} is valid for five minutes. */
export const MEDIA_URL_TTL_MS = 5 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Errors

export interface GraphErrorBody {
  error: {
    message: string;
    type: string;
    code: number;
    error_subcode?: number;
    error_user_title?: string;
    error_user_msg?: string;
    error_data?: { messaging_product: 'whatsapp'; details: string };
    fbtrace_id: string;
  };
}

/** A WhatsApp error as it appears in webhooks (`statuses[].errors`, `messages[].errors`, `value.errors`). */
export interface WebhookError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href?: string;
}

/** The codes the fake answers: title (also the webhook `message`), HTTP status, Meta's details text. */
export const META_ERRORS = {
  // Meta's passing failures (retry with a backoff): "WhatsApp error codes", Authorization and
  // Integrity / Throttling / Other errors. HTTP 500/503 as that page gives them for 131000/131016
  // and code 2; code 1 has no status of its own there (500 chosen).
  1: { title: 'API Unknown', http: 500, details: 'Invalid request or possible server error.' },
  2: { title: 'API Service', http: 503, details: 'Temporary due to downtime or due to being overloaded.' },
  4: { title: 'API Too Many Calls', http: 400, details: 'The app has reached its API call rate limit.' },
  100: { title: 'Invalid parameter', http: 400, details: 'Invalid parameter' },
  190: { title: 'Access token has expired', http: 401, details: '' },
  80007: { title: 'Rate limit issues', http: 400, details: 'The WhatsApp Business Account has reached its rate limit.' },
  130429: { title: 'Rate limit hit', http: 400, details: 'Cloud API message throughput has been reached.' },
  131000: { title: 'Something went wrong', http: 500, details: 'Message failed to send due to an unknown error.' },
  131016: { title: 'Service unavailable', http: 503, details: 'A service is temporarily unavailable.' },
  131026: {
    title: 'Message undeliverable',
    http: 400,
    details:
      'Unable to deliver message. Reasons can include: The recipient phone number is not a WhatsApp phone number; the recipient has not accepted our new Terms of Service and Privacy Policy; the recipient is using an old WhatsApp version.',
  },
  131047: { title: 'Re-engagement message', http: 400, details: 'More than 24 hours have passed since the recipient last replied to the sender number.' },
  131051: { title: 'Unsupported message type', http: 400, details: 'Message type is currently not supported.' },
  131053: { title: 'Media upload error', http: 400, details: 'Unable to upload the media used in the message.' },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    http: 400,
    details: 'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
  },
  132000: { title: 'Number of parameters does not match the expected number of params', http: 400, details: '' },
  // "Parameter format does not match format in the created template", details "Variable parameter
  // values formatted incorrectly.": Meta's title and details as quoted by providers' error pages
  // (Meta's own error-code page was not readable in full here); a synchronous 400.
  132012: { title: 'Parameter format does not match format in the created template', http: 400, details: 'Variable parameter values formatted incorrectly.' },
  // Registration ("Register a business phone number"; codes from "WhatsApp error codes"): a PIN that is
  // not the number's, ten registrations in 72 hours, and a send from a number not registered.
  133005: { title: 'Two step verification PIN Mismatch', http: 400, details: 'Two step verification PIN incorrect.' },
  133010: { title: 'Phone number Not Registered', http: 400, details: 'Phone number is not registered on the WhatsApp Business Platform.' },
  133016: {
    title: 'Account register deregister rate limit exceeded',
    http: 400,
    details: 'Registration or Deregistration failed because there were too many attempts for this phone number in a short period of time.',
  },
  132001: { title: 'Template name does not exist in the translation', http: 404, details: '' },
} as const satisfies Record<number, { title: string; http: number; details: string }>;
export type MetaErrorCode = keyof typeof META_ERRORS;

const ERROR_DOCS = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

/** Thrown inside the fake for a call it must leave unanswered (`hangNext`): the socket stays open, no byte is written. */
class Hang extends Error {}

class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: GraphErrorBody,
  ) {
    super(body.error.message);
  }
}

const traceId = () => randomBytes(9).toString('base64url').slice(0, 11);

/** A WhatsApp error (`(#code) title`, with error_data.details) as the Graph API answers it. */
export function whatsappError(code: MetaErrorCode, details?: string, status?: number): GraphFailure {
  const meta = META_ERRORS[code];
  return new GraphFailure(status ?? meta.http, {
    error: {
      message: `(#${code}) ${meta.title}`,
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details: details ?? meta.details },
      fbtrace_id: traceId(),
    },
  });
}

/** Graph's own parameter errors: `(#100) <text>` with no error_data. */
function paramError(text: string, subcode?: number): GraphFailure {
  return new GraphFailure(400, {
    error: { message: `(#100) ${text}`, type: 'OAuthException', code: 100, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: traceId() },
  });
}

/** Graph's answer for an id the token cannot see (or that does not exist). */
function unsupported(method: string, id: string): GraphFailure {
  return new GraphFailure(400, {
    error: {
      message: `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
      fbtrace_id: traceId(),
    },
  });
}

function webhookError(code: MetaErrorCode, details?: string): WebhookError {
  const meta = META_ERRORS[code];
  return { code, title: meta.title, message: meta.title, error_data: { details: details ?? meta.details }, href: ERROR_DOCS };
}

// ---------------------------------------------------------------------------------------------
// State

export type QualityRating = 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';

export interface FakeNumber {
  phoneNumberId: string;
  wabaId: string;
  /** As Meta shows it, e.g. "+55 11 98765-4321"; webhooks carry the digits only. */
  displayPhoneNumber: string;
  verifiedName: string;
  qualityRating: QualityRating;
  codeVerificationStatus: 'VERIFIED' | 'NOT_VERIFIED' | 'EXPIRED';
  nameStatus: 'APPROVED' | 'PENDING_REVIEW' | 'DECLINED' | 'NONE';
  platformType: 'CLOUD_API' | 'NOT_APPLICABLE';
  throughputLevel: 'STANDARD' | 'HIGH' | 'NOT_APPLICABLE';
  messagingLimitTier: string;
  registered: boolean;
  pin?: string;
  /** Coexistence number (WhatsApp Business app stays in use; echoes, edits and revokes are delivered). */
  coexistence: boolean;
}

export interface TemplateComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS';
  format?: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'LOCATION';
  text?: string;
  buttons?: { type: string; text: string; url?: string; phone_number?: string; example?: unknown }[];
  example?: Record<string, unknown>;
}

export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED';
export type TemplateCategory = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';

export interface FakeTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  components: TemplateComponent[];
  rejected_reason?: string;
}

export interface FakeMedia {
  id: string;
  phoneNumberId: string;
  bytes: Buffer;
  mimeType: string;
  filename?: string;
  /** Deleted media answer like unknown ids. */
  deleted: boolean;
  /**
   * Served instead of `bytes` by the download URL (`serveHuge`): this many bytes, streamed in chunks
   * as long as the client reads, and how the size is told (GET /{media-id}'s `file_size`, the
   * download's Content-Length, or neither: a chunked body).
   */
  huge?: { size: number; declare: 'file_size' | 'content-length' | 'none' };
  /** Bytes the download URL has written for this media so far (a client that stops reading stops it). */
  bytesServed: number;
}

/** One POST /messages call: what was asked and what the fake answered. */
export interface SentMessage {
  phoneNumberId: string;
  body: Record<string, any>;
  at: number;
  status: number;
  answer: any;
  /** The wamid when accepted. */
  id?: string;
  /** Set when Meta would report the failure later through a `failed` status (it is queued in `outbox`). */
  asyncFailure?: WebhookError;
  category?: 'service' | 'marketing' | 'utility' | 'authentication';
}

export interface GraphCall {
  method: string;
  path: string;
  version?: string;
  token?: string;
  status: number;
}

interface TokenRecord {
  /** WABA ids this token can reach; '*' for every one. */
  wabaIds: Set<string> | '*';
  state: 'valid' | 'revoked';
  /** Fake-clock ms after which the token answers 190/463. */
  expiresAt?: number;
}

// ---------------------------------------------------------------------------------------------
// Webhook payloads

export interface WebhookChange<F extends string = string, V = any> {
  field: F;
  value: V;
}
export interface WebhookPayload {
  object: 'whatsapp_business_account';
  entry: { id: string; time?: number; changes: WebhookChange[] }[];
}

export interface InboundContact {
  waId: string;
  name: string;
}

type MediaIn = { bytes: Buffer; mime_type: string; caption?: string };
/** What a customer sends; `fake.inbound` turns it into Meta's message object. */
export type InboundContent =
  | { type: 'text'; body: string }
  | ({ type: 'image' } & MediaIn)
  | ({ type: 'video' } & MediaIn)
  | ({ type: 'audio'; voice?: boolean } & Omit<MediaIn, 'caption'>)
  | ({ type: 'document'; filename: string } & MediaIn)
  | ({ type: 'sticker'; animated?: boolean } & Omit<MediaIn, 'caption'>)
  | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string; url?: string }
  | { type: 'contacts'; contacts: Record<string, any>[] }
  | { type: 'button_reply'; id: string; title: string }
  | { type: 'list_reply'; id: string; title: string; description?: string }
  | { type: 'button'; text: string; payload: string }
  | { type: 'reaction'; message_id: string; emoji: string }
  /** `media`: the edit of a photo's, video's or document's caption (`body` is the new caption); else of a text. */
  | { type: 'edit'; original_message_id: string; body: string; media?: 'image' | 'video' | 'document' }
  | { type: 'revoke'; original_message_id: string }
  | { type: 'unsupported'; unsupported_type: string };

export type StatusName = 'sent' | 'delivered' | 'read' | 'failed';

/** HMAC-SHA256 of the raw body with the app secret, as Meta's X-Hub-Signature-256 carries it. */
export function signPayload(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** JSON with non-ASCII characters escaped as \uXXXX, as Meta's deliveries are written. */
export function metaJson(payload: unknown): string {
  return JSON.stringify(payload).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export type SignatureMode = 'valid' | 'missing' | 'wrong';

export interface Delivery {
  url: string;
  rawBody: string;
  headers: Record<string, string>;
  status: number;
  responseBody: string;
}

// ---------------------------------------------------------------------------------------------
// Media limits (Meta's "Supported media types")

const MEDIA_LIMITS: Record<string, number> = {
  'audio/aac': 16 << 20,
  'audio/amr': 16 << 20,
  'audio/mpeg': 16 << 20,
  'audio/mp4': 16 << 20,
  'audio/ogg': 16 << 20,
  'text/plain': 100 << 20,
  'application/pdf': 100 << 20,
  'application/msword': 100 << 20,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 100 << 20,
  'application/vnd.ms-excel': 100 << 20,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 100 << 20,
  'application/vnd.ms-powerpoint': 100 << 20,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 100 << 20,
  'image/jpeg': 5 << 20,
  'image/png': 5 << 20,
  'image/webp': 500 << 10,
  'video/mp4': 16 << 20,
  'video/3gpp': 16 << 20,
};
const baseMime = (mime: string) => mime.split(';')[0]!.trim().toLowerCase();

const SEND_TYPES = ['audio', 'contacts', 'document', 'image', 'interactive', 'location', 'reaction', 'sticker', 'template', 'text', 'video'];
const MEDIA_TYPES = new Set(['audio', 'document', 'image', 'sticker', 'video']);

const digits = (s: string) => s.replace(/\D/g, '');

// ---------------------------------------------------------------------------------------------
// The fake

export interface FakeGraphApiOptions {
  /** The Meta app's secret, used to sign deliveries. */
  appSecret?: string;
  appId?: string;
  /** Fake clock start (ms since epoch). */
  now?: number;
  /** 'webhook' (default): a free-form send outside the window is accepted and fails later with a 131047
   * `failed` status in `outbox`; 'sync': it is refused at once with 131047. */
  windowErrors?: 'webhook' | 'sync';
}

export class FakeGraphApi {
  url = '';
  readonly appSecret: string;
  readonly appId: string;
  /** The app-level callback URL and verify token (App Dashboard > WhatsApp > Configuration). */
  callbackUrl: string | null = null;
  verifyToken: string | null = null;
  windowErrors: 'webhook' | 'sync';
  mediaUrlTtlMs = MEDIA_URL_TTL_MS;
  /**
   * What an expired download URL answers: 404 ('URL signature expired') by default; 401 is what
   * developers report for some expired lookaside URLs (Meta documents only that they expire after
   * five minutes), so the adapter is tested against both.
   */
  expiredUrlStatus: 404 | 401 = 404;

  readonly numbers = new Map<string, FakeNumber>();
  readonly wabas = new Map<string, { id: string; name: string; subscribed: boolean; overrideCallbackUri?: string; overrideVerifyToken?: string }>();
  readonly templates = new Map<string, FakeTemplate>();
  readonly media = new Map<string, FakeMedia>();
  readonly sent: SentMessage[] = [];
  readonly reads: { phoneNumberId: string; messageId: string; at: number }[] = [];
  readonly calls: GraphCall[] = [];
  readonly deliveries: Delivery[] = [];
  /** Webhooks Meta would send on its own (async failures); `flush()` delivers them. */
  readonly outbox: WebhookPayload[] = [];

  private clockMs: number;
  private tokens = new Map<string, TokenRecord>();
  /** (number, customer wa_id) -> last inbound ms. */
  private lastInbound = new Map<string, number>();
  private undeliverable = new Set<string>();
  private throttles = { numbers: new Map<string, number>(), pairs: new Map<string, number>(), wabas: new Map<string, number>() };
  private failures = new Map<string, (GraphFailure | Hang)[]>();
  /** Registration requests per number (fake-clock ms), for Meta's 10 in 72 hours. */
  private registrations = new Map<string, number[]>();
  private seq = 0;
  private readonly urlSecret = randomBytes(16);
  /** wamid -> the accepted send, for statuses. */
  private byWamid = new Map<string, SentMessage>();
  /** Embedded Signup's exchangeable codes (`issueSignupCode`): the business token each stands for. */
  private signupCodes = new Map<string, { token: string; used: boolean; expiresAt: number }>();
  /** When true, POST subscribed_apps with `override_callback_uri` first runs Meta's GET handshake on it (as Meta does). */
  verifyOverrides = false;

  constructor(options: FakeGraphApiOptions = {}) {
    this.appSecret = options.appSecret ?? randomBytes(16).toString('hex');
    this.appId = options.appId ?? '1234567890123456';
    this.clockMs = options.now ?? Date.UTC(2026, 10, 27, 12, 0, 0);
    this.windowErrors = options.windowErrors ?? 'webhook';
  }

  // --- clock -----------------------------------------------------------------------------------

  now(): number {
    return this.clockMs;
  }
  advance(ms: number): void {
    this.clockMs += ms;
  }
  setNow(ms: number): void {
    this.clockMs = ms;
  }
  private unix(): string {
    return String(Math.floor(this.clockMs / 1000));
  }

  // --- setup -----------------------------------------------------------------------------------

  /** Adds a system-user token; `wabaIds` limits what it can reach (default: every WABA). */
  addToken(token: string, options: { wabaIds?: string[]; expiresAt?: number } = {}): void {
    this.tokens.set(token, { wabaIds: options.wabaIds ? new Set(options.wabaIds) : '*', state: 'valid', expiresAt: options.expiresAt });
  }
  /**
   * What Embedded Signup hands the browser when a business finishes Meta's window: an exchangeable
   * code for a new business token (reaching `wabaIds`, default every WABA), valid 30 seconds on the
   * fake clock and once, for GET /oauth/access_token with this app's id and secret.
   */
  issueSignupCode(options: { wabaIds?: string[] } = {}): { code: string; token: string } {
    const token = `EAAG${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;
    this.addToken(token, options);
    const code = `AQ${randomBytes(48).toString('base64url')}`;
    this.signupCodes.set(code, { token, used: false, expiresAt: this.clockMs + 30_000 });
    return { code, token };
  }
  revokeToken(token: string): void {
    const t = this.tokens.get(token);
    if (t) t.state = 'revoked';
  }
  expireToken(token: string): void {
    const t = this.tokens.get(token);
    if (t) t.expiresAt = this.clockMs - 1;
  }

  addNumber(input: Partial<FakeNumber> & { displayPhoneNumber: string; verifiedName: string }): FakeNumber {
    const number: FakeNumber = {
      phoneNumberId: input.phoneNumberId ?? this.newId(),
      wabaId: input.wabaId ?? this.newId(),
      displayPhoneNumber: input.displayPhoneNumber,
      verifiedName: input.verifiedName,
      qualityRating: input.qualityRating ?? 'GREEN',
      codeVerificationStatus: input.codeVerificationStatus ?? 'VERIFIED',
      nameStatus: input.nameStatus ?? 'APPROVED',
      platformType: input.platformType ?? 'CLOUD_API',
      throughputLevel: input.throughputLevel ?? 'STANDARD',
      messagingLimitTier: input.messagingLimitTier ?? 'TIER_250',
      registered: input.registered ?? true,
      coexistence: input.coexistence ?? false,
    };
    this.numbers.set(number.phoneNumberId, number);
    if (!this.wabas.has(number.wabaId)) this.wabas.set(number.wabaId, { id: number.wabaId, name: number.verifiedName, subscribed: false });
    return number;
  }

  /** Adds a template directly (status APPROVED unless told). */
  addTemplate(wabaId: string, t: Omit<FakeTemplate, 'id' | 'wabaId' | 'status'> & { status?: TemplateStatus }): FakeTemplate {
    const template: FakeTemplate = { id: this.newId(), wabaId, status: t.status ?? 'APPROVED', ...t } as FakeTemplate;
    this.templates.set(template.id, template);
    return template;
  }

  /** Changes a template's status and answers the message_template_status_update webhook for it. */
  setTemplateStatus(templateId: string, status: TemplateStatus, reason?: string): WebhookPayload {
    const t = this.templates.get(templateId);
    if (!t) throw new Error(`no template ${templateId}`);
    t.status = status;
    if (status === 'REJECTED') t.rejected_reason = reason ?? 'INVALID_FORMAT';
    return this.templateStatusUpdate(t, status, reason);
  }
  approveTemplate(templateId: string): WebhookPayload {
    return this.setTemplateStatus(templateId, 'APPROVED');
  }
  rejectTemplate(templateId: string, reason = 'INVALID_FORMAT'): WebhookPayload {
    return this.setTemplateStatus(templateId, 'REJECTED', reason);
  }

  /** Sends to this customer are accepted and later fail with 131026 (not on WhatsApp, blocked, old app). */
  markUndeliverable(waId: string): void {
    this.undeliverable.add(digits(waId));
  }

  /** Until `forMs` passes on the fake clock (default: until cleared), sends from the number answer 130429. */
  throttleNumber(phoneNumberId: string, forMs = Number.POSITIVE_INFINITY): void {
    this.throttles.numbers.set(phoneNumberId, this.clockMs + forMs);
  }
  /** Sends from the number to this customer answer 131056. */
  throttlePair(phoneNumberId: string, waId: string, forMs = Number.POSITIVE_INFINITY): void {
    this.throttles.pairs.set(`${phoneNumberId}:${digits(waId)}`, this.clockMs + forMs);
  }
  /** Management calls on the WABA (templates, phone numbers, subscriptions, registration) answer 80007. */
  throttleWaba(wabaId: string, forMs = Number.POSITIVE_INFINITY): void {
    this.throttles.wabas.set(wabaId, this.clockMs + forMs);
  }
  clearThrottles(): void {
    this.throttles.numbers.clear();
    this.throttles.pairs.clear();
    this.throttles.wabas.clear();
  }

  /**
   * The next call of this kind answers this error (several: call again), with the code's HTTP
   * status or `options.status` (a 5xx carrying Meta's error body, say). Kinds: messages, media,
   * templates, phone, register, subscribed_apps, media_info, download.
   */
  failNext(kind: string, code: MetaErrorCode, details?: string, options: { status?: number } = {}): void {
    const list = this.failures.get(kind) ?? [];
    list.push(whatsappError(code, details, options.status));
    this.failures.set(kind, list);
  }

  /**
   * The next call of this kind is never answered: the request is read, then nothing is written
   * and the connection stays open until the client gives up (its timeout) or the fake closes. The
   * call is recorded with status 0. Kinds as `failNext`.
   */
  hangNext(kind: string): void {
    const list = this.failures.get(kind) ?? [];
    list.push(new Hang(kind));
    this.failures.set(kind, list);
  }

  /**
   * The media's download serves `size` bytes instead of its own (zeros, 64 KiB a chunk, written only
   * as fast as the client reads), telling the size by `declare`: in GET /{media-id}'s `file_size`,
   * in the download's Content-Length only (`file_size` left out), or nowhere (a chunked body).
   */
  serveHuge(mediaId: string, size: number, declare: 'file_size' | 'content-length' | 'none'): void {
    const m = this.media.get(mediaId);
    if (!m) throw new Error(`no media ${mediaId}`);
    m.huge = { size, declare };
  }

  /** Whether a free-form message from the number to the customer would be allowed now. */
  windowOpen(phoneNumberId: string, waId: string): boolean {
    const last = this.lastInbound.get(`${phoneNumberId}:${digits(waId)}`);
    return last !== undefined && this.clockMs - last < SERVICE_WINDOW_MS;
  }

  /** The accepted sends, newest last. */
  get accepted(): SentMessage[] {
    return this.sent.filter((s) => s.id);
  }

  // --- inbound & webhooks ----------------------------------------------------------------------

  private number(phoneNumberId: string): FakeNumber {
    const n = this.numbers.get(phoneNumberId);
    if (!n) throw new Error(`no fake number ${phoneNumberId}`);
    return n;
  }

  private envelope(wabaId: string, field: string, value: any, withTime = false): WebhookPayload {
    return {
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, ...(withTime ? { time: Math.floor(this.clockMs / 1000) } : {}), changes: [{ value, field }] }],
    };
  }

  private metadata(n: FakeNumber) {
    return { display_phone_number: digits(n.displayPhoneNumber), phone_number_id: n.phoneNumberId };
  }

  newWamid(): string {
    return `wamid.${Buffer.from(`HBgN${Date.now().toString(36)}${(++this.seq).toString(36)}${randomBytes(8).toString('hex')}`).toString('base64')}`;
  }

  private storeMedia(phoneNumberId: string, bytes: Buffer, mimeType: string, filename?: string): FakeMedia {
    const m: FakeMedia = { id: this.newId(), phoneNumberId, bytes, mimeType, filename, deleted: false, bytesServed: 0 };
    this.media.set(m.id, m);
    return m;
  }

  private messageBody(phoneNumberId: string, content: InboundContent): Record<string, any> {
    const media = (c: MediaIn & { filename?: string }) => {
      const m = this.storeMedia(phoneNumberId, c.bytes, c.mime_type, c.filename);
      // Webhook media carry a base64 SHA-256 (GET /{media-id} answers hex).
      return { mime_type: c.mime_type, sha256: createHash('sha256').update(c.bytes).digest('base64'), id: m.id };
    };
    switch (content.type) {
      case 'text':
        return { type: 'text', text: { body: content.body } };
      case 'image':
      case 'video':
        return { type: content.type, [content.type]: { ...(content.caption !== undefined ? { caption: content.caption } : {}), ...media(content) } };
      case 'audio':
        return { type: 'audio', audio: { ...media(content), voice: content.voice ?? false } };
      case 'document':
        return {
          type: 'document',
          document: { ...(content.caption !== undefined ? { caption: content.caption } : {}), filename: content.filename, ...media(content) },
        };
      case 'sticker':
        return { type: 'sticker', sticker: { ...media(content), animated: content.animated ?? false } };
      case 'location':
        return {
          type: 'location',
          location: {
            latitude: content.latitude,
            longitude: content.longitude,
            ...(content.name ? { name: content.name } : {}),
            ...(content.address ? { address: content.address } : {}),
            ...(content.url ? { url: content.url } : {}),
          },
        };
      case 'contacts':
        return { type: 'contacts', contacts: content.contacts };
      case 'button_reply':
        return { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: content.id, title: content.title } } };
      case 'list_reply':
        return {
          type: 'interactive',
          interactive: {
            type: 'list_reply',
            list_reply: { id: content.id, title: content.title, ...(content.description ? { description: content.description } : {}) },
          },
        };
      case 'button':
        return { type: 'button', button: { payload: content.payload, text: content.text } };
      case 'reaction':
        return { type: 'reaction', reaction: { message_id: content.message_id, emoji: content.emoji } };
      case 'edit':
        return {
          type: 'edit',
          edit: {
            original_message_id: content.original_message_id,
            message: content.media ? { type: content.media, [content.media]: { caption: content.body } } : { type: 'text', text: { body: content.body } },
          },
        };
      case 'revoke':
        return { type: 'revoke', revoke: { original_message_id: content.original_message_id } };
      case 'unsupported':
        return { type: 'unsupported', unsupported: { type: content.unsupported_type }, errors: [webhookError(131051)] };
    }
  }

  /**
   * A customer's message to the number: answers Meta's `messages` webhook (not yet delivered) and the
   * message object. Opens the customer-service window at the fake clock's time; media are stored so
   * GET /{media-id} serves them. `context` makes it a reply to an earlier message.
   */
  inbound(phoneNumberId: string, from: InboundContact, content: InboundContent, options: { context?: { from: string; id: string } } = {}) {
    const n = this.number(phoneNumberId);
    const waId = digits(from.waId);
    const message: { from: string; id: string; timestamp: string } & Record<string, any> = {
      ...(options.context ? { context: options.context } : {}),
      from: waId,
      id: this.newWamid(),
      timestamp: this.unix(),
      ...this.messageBody(phoneNumberId, content),
    };
    this.lastInbound.set(`${phoneNumberId}:${waId}`, this.clockMs);
    const payload = this.envelope(n.wabaId, 'messages', {
      messaging_product: 'whatsapp',
      metadata: this.metadata(n),
      contacts: [{ profile: { name: from.name }, wa_id: waId }],
      messages: [message],
    });
    return { payload, message };
  }

  /**
   * A status webhook for an accepted send. sent and delivered carry conversation (before v24.0) and
   * pricing; failed carries `errors`.
   */
  status(wamid: string, status: StatusName, options: { error?: { code: MetaErrorCode; details?: string } } = {}): WebhookPayload {
    const s = this.byWamid.get(wamid);
    if (!s) throw new Error(`no accepted message ${wamid}`);
    const n = this.number(s.phoneNumberId);
    const category = s.category ?? 'service';
    const billing =
      status === 'sent' || status === 'delivered'
        ? {
            conversation: {
              id: createHash('md5').update(`${n.phoneNumberId}:${s.body.to}`).digest('hex'),
              ...(status === 'sent' ? { expiration_timestamp: String(Math.floor((s.at + SERVICE_WINDOW_MS) / 1000)) } : {}),
              origin: { type: category },
            },
            pricing: { billable: category !== 'service', pricing_model: 'PMP', type: category === 'service' ? 'free_customer_service' : 'regular', category },
          }
        : {};
    const errors = status === 'failed' ? { errors: [s.asyncFailure ?? webhookError(options.error?.code ?? 131026, options.error?.details)] } : {};
    return this.envelope(n.wabaId, 'messages', {
      messaging_product: 'whatsapp',
      metadata: this.metadata(n),
      statuses: [{ id: wamid, status, timestamp: this.unix(), recipient_id: digits(String(s.body.to)), ...billing, ...errors }],
    });
  }

  /** A `messages` webhook with a system/app-level `errors` array (no message). */
  valueErrors(phoneNumberId: string, code: MetaErrorCode, details?: string): WebhookPayload {
    const n = this.number(phoneNumberId);
    return this.envelope(n.wabaId, 'messages', { messaging_product: 'whatsapp', metadata: this.metadata(n), errors: [webhookError(code, details)] });
  }

  templateStatusUpdate(t: FakeTemplate, event: string, reason?: string): WebhookPayload {
    return this.envelope(
      t.wabaId,
      'message_template_status_update',
      {
        event,
        message_template_id: Number(t.id),
        message_template_name: t.name,
        message_template_language: t.language,
        reason: reason ?? (event === 'REJECTED' ? 'INVALID_FORMAT' : 'NONE'),
        message_template_category: t.category,
        ...(event === 'REJECTED' && (reason ?? 'INVALID_FORMAT') === 'INVALID_FORMAT'
          ? { rejection_info: { reason: 'Variable parameters are not properly formatted.', recommendation: 'Check the format of the variables.' } }
          : {}),
      },
      true,
    );
  }

  /** Changes the number's quality rating and answers phone_number_quality_update. */
  qualityUpdate(phoneNumberId: string, change: { event: string; currentLimit: string; oldLimit?: string; quality?: QualityRating }): WebhookPayload {
    const n = this.number(phoneNumberId);
    if (change.quality) n.qualityRating = change.quality;
    n.messagingLimitTier = change.currentLimit;
    return this.envelope(
      n.wabaId,
      'phone_number_quality_update',
      {
        display_phone_number: digits(n.displayPhoneNumber),
        event: change.event,
        ...(change.oldLimit ? { old_limit: change.oldLimit } : {}),
        current_limit: change.currentLimit,
        max_daily_conversations_per_business: change.currentLimit,
      },
      true,
    );
  }

  accountUpdate(wabaId: string, event: string, extra: Record<string, unknown> = {}): WebhookPayload {
    return this.envelope(wabaId, 'account_update', { event, ...extra }, true);
  }

  /** A message the business sent from the WhatsApp Business app (coexistence), as smb_message_echoes. */
  echo(phoneNumberId: string, to: string, content: { type: 'text'; body: string } | Record<string, any>) {
    const n = this.number(phoneNumberId);
    const typed = content.type === 'text' && 'body' in content ? { type: 'text', text: { body: content.body } } : content;
    const message = { from: digits(n.displayPhoneNumber), to: digits(to), id: this.newWamid(), timestamp: this.unix(), ...typed };
    const payload = this.envelope(n.wabaId, 'smb_message_echoes', { messaging_product: 'whatsapp', metadata: this.metadata(n), message_echoes: [message] });
    return { payload, message };
  }

  /** Where Meta would POST deliveries for this WABA: its override callback, else the app's. */
  callbackFor(wabaId: string): string | null {
    return this.wabas.get(wabaId)?.overrideCallbackUri ?? this.callbackUrl;
  }

  /**
   * POSTs a payload as Meta does: raw body with non-ASCII escaped, X-Hub-Signature-256 (and the
   * legacy sha1 X-Hub-Signature). `signature`: 'valid', 'missing', 'wrong' (signed with another
   * secret), or an explicit header value. `times` repeats the same bytes (duplicate delivery).
   */
  async deliver(
    payload: WebhookPayload,
    options: { url?: string; signature?: SignatureMode | string; times?: number; secret?: string } = {},
  ): Promise<Delivery[]> {
    const url = options.url ?? this.callbackFor(payload.entry[0]!.id);
    if (!url) throw new Error('no callback URL: set fake.callbackUrl or subscribe the WABA with override_callback_uri');
    const rawBody = metaJson(payload);
    const mode = options.signature ?? 'valid';
    const secret = mode === 'wrong' ? `${options.secret ?? this.appSecret}-wrong` : (options.secret ?? this.appSecret);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'facebookexternalua' };
    if (mode === 'valid' || mode === 'wrong') {
      headers['x-hub-signature-256'] = signPayload(rawBody, secret);
      headers['x-hub-signature'] = `sha1=${createHmac('sha1', secret).update(rawBody).digest('hex')}`;
    } else if (mode !== 'missing') headers['x-hub-signature-256'] = mode;
    const out: Delivery[] = [];
    for (let i = 0; i < (options.times ?? 1); i++) {
      const res = await fetch(url, { method: 'POST', headers, body: rawBody });
      const delivery = { url, rawBody, headers, status: res.status, responseBody: await res.text() };
      this.deliveries.push(delivery);
      out.push(delivery);
    }
    return out;
  }

  /** Delivers the queued outbox (async failures) in order; answers the deliveries. */
  async flush(): Promise<Delivery[]> {
    const out: Delivery[] = [];
    while (this.outbox.length) out.push(...(await this.deliver(this.outbox.shift()!)));
    return out;
  }

  /** Meta's verification request (GET ?hub.mode=subscribe&hub.challenge&hub.verify_token); `ok` when the challenge is echoed with 200. */
  async verifyCallback(url: string, verifyToken: string): Promise<{ status: number; body: string; ok: boolean }> {
    const challenge = String(Math.floor(Math.random() * 1e9));
    const u = new URL(url);
    u.searchParams.set('hub.mode', 'subscribe');
    u.searchParams.set('hub.challenge', challenge);
    u.searchParams.set('hub.verify_token', verifyToken);
    const res = await fetch(u);
    const body = await res.text();
    return { status: res.status, body, ok: res.status === 200 && body === challenge };
  }

  // --- HTTP handling ---------------------------------------------------------------------------

  private newId(): string {
    return String(100000000000000 + Math.floor(Math.random() * 899999999999999));
  }

  private authenticate(req: IncomingMessage, url: URL): { token: string; record: TokenRecord } {
    const header = String(req.headers.authorization ?? '');
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? url.searchParams.get('access_token') ?? '';
    if (!token)
      throw new GraphFailure(400, {
        error: {
          message: 'An active access token must be used to query information about the current user.',
          type: 'OAuthException',
          code: 2500,
          fbtrace_id: traceId(),
        },
      });
    const record = this.tokens.get(token);
    if (!record)
      throw new GraphFailure(401, {
        error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: traceId() },
      });
    if (record.state === 'revoked')
      throw new GraphFailure(401, {
        error: {
          message:
            'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
          type: 'OAuthException',
          code: 190,
          error_subcode: 460,
          fbtrace_id: traceId(),
        },
      });
    if (record.expiresAt !== undefined && this.clockMs > record.expiresAt) {
      const when = new Date(record.expiresAt).toUTCString();
      throw new GraphFailure(401, {
        error: {
          message: `Error validating access token: Session has expired on ${when}. The current time is ${new Date(this.clockMs).toUTCString()}.`,
          type: 'OAuthException',
          code: 190,
          error_subcode: 463,
          fbtrace_id: traceId(),
        },
      });
    }
    return { token, record };
  }

  private canReach(record: TokenRecord, wabaId: string): boolean {
    return record.wabaIds === '*' || record.wabaIds.has(wabaId);
  }

  private failure(kind: string): void {
    const f = this.failures.get(kind)?.shift();
    if (f) throw f;
  }

  private wabaThrottle(wabaId: string): void {
    const until = this.throttles.wabas.get(wabaId);
    if (until !== undefined && this.clockMs < until) throw whatsappError(80007);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const call: GraphCall = { method, path: url.pathname, status: 200 };
    this.calls.push(call);
    const send = (status: number, body: unknown) => {
      call.status = status;
      const text = JSON.stringify(body);
      const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) };
      const err = (body as GraphErrorBody)?.error;
      if (err) {
        headers['x-fb-trace-id'] = err.fbtrace_id;
        if (err.code === 190) headers['www-authenticate'] = `OAuth "Facebook Platform" "invalid_token" "${err.message.replace(/"/g, "'")}"`;
      }
      res.writeHead(status, headers);
      res.end(text);
    };
    try {
      if (url.pathname.replace(/\/$/, '') === '/whatsapp_business/attachments') return await this.download(req, url, res, call);
      if (/^\/v\d+\.\d+\/oauth\/access_token\/?$/.test(url.pathname)) return send(200, this.exchangeCode(url));
      const m = /^\/(v\d+\.\d+)\/([^/]+)(?:\/([^/]+))?\/?$/.exec(url.pathname);
      if (!m) throw paramError(`Unknown path components: ${url.pathname}`);
      call.version = m[1];
      const { token, record } = this.authenticate(req, url);
      call.token = token;
      const id = decodeURIComponent(m[2]!);
      const edge = m[3];
      const body = await readBody(req, url);
      const result = await this.route(method, id, edge, body, url, record);
      send(200, result);
    } catch (error) {
      if (error instanceof Hang) {
        // Never answered: the client's timeout (or the fake's close) ends the exchange.
        call.status = 0;
        return;
      }
      if (error instanceof GraphFailure) return send(error.status, error.body);
      send(500, { error: { message: `An unknown error occurred: ${(error as Error).message}`, type: 'OAuthException', code: 1, fbtrace_id: traceId() } });
    }
  }

  private async route(method: string, id: string, edge: string | undefined, body: BodyData, url: URL, token: TokenRecord): Promise<unknown> {
    const number = this.numbers.get(id);
    const waba = this.wabas.get(id);
    const media = this.media.get(id);
    const reachable = (wabaId: string) => this.canReach(token, wabaId);
    if (number && reachable(number.wabaId)) {
      if (!edge && method === 'GET') return this.phoneInfo(number, url);
      if (edge === 'messages' && method === 'POST') return this.postMessage(number, body.fields);
      if (edge === 'media' && method === 'POST') return this.upload(number, body);
      if (edge === 'register' && method === 'POST') return this.register(number, body.fields);
    } else if (waba && reachable(waba.id)) {
      this.wabaThrottle(waba.id);
      if (!edge && method === 'GET') return { id: waba.id, name: waba.name };
      if (edge === 'message_templates') return this.templatesEdge(method, waba.id, body.fields, url);
      if (edge === 'subscribed_apps' && method === 'POST' && this.verifyOverrides && body.fields.override_callback_uri !== undefined)
        await this.verifyOverride(String(body.fields.override_callback_uri), String(body.fields.verify_token ?? ''));
      if (edge === 'subscribed_apps') return this.subscribedApps(method, waba, body.fields);
      if (edge === 'phone_numbers' && method === 'GET')
        return { data: [...this.numbers.values()].filter((n) => n.wabaId === waba.id).map((n) => this.phoneFields(n, DEFAULT_PHONE_FIELDS)) };
    } else if (media && !media.deleted && reachable(this.number(media.phoneNumberId).wabaId)) {
      const phoneFilter = url.searchParams.get('phone_number_id');
      if (phoneFilter && phoneFilter !== media.phoneNumberId) throw unsupported(method, id);
      if (!edge && method === 'GET') return this.mediaInfo(media);
      if (!edge && method === 'DELETE') {
        media.deleted = true;
        return { success: true };
      }
    }
    if ((number && reachable(number.wabaId)) || (waba && reachable(waba.id)) || media) {
      if (edge) throw paramError(`Unknown path components: /${edge}`);
    }
    throw unsupported(method, id);
  }

  // --- Embedded Signup ---

  /**
   * GET /oauth/access_token?client_id&client_secret&code (no Bearer token): `{ access_token, token_type }`.
   * Refusals as Graph answers them (OAuthException, HTTP 400): a wrong app id (101) or client secret
   * (1); a code it never issued, "Invalid verification code format." (100); a used one, subcode 36009;
   * one past its 30 seconds, subcode 36007.
   */
  private exchangeCode(url: URL) {
    const q = url.searchParams;
    const oauth = (code: number, message: string, subcode?: number) =>
      new GraphFailure(400, { error: { message, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: traceId() } });
    if (q.get('client_id') !== this.appId) throw oauth(101, 'Error validating application. Invalid application ID.');
    if (q.get('client_secret') !== this.appSecret) throw oauth(1, 'Error validating client secret.');
    const entry = this.signupCodes.get(q.get('code') ?? '');
    if (!entry) throw oauth(100, 'Invalid verification code format.');
    if (entry.used) throw oauth(100, 'This authorization code has been used.', 36009);
    if (this.clockMs > entry.expiresAt) throw oauth(100, 'This authorization code has expired.', 36007);
    entry.used = true;
    return { access_token: entry.token, token_type: 'bearer' };
  }

  /** Meta's handshake on an alternate callback URL before it takes it; a failed one is error 2200. */
  private async verifyOverride(uri: string, verifyToken: string): Promise<void> {
    const answer = await this.verifyCallback(uri, verifyToken).catch((error: Error) => ({ ok: false, status: 0, body: error.message }));
    if (!answer.ok)
      throw new GraphFailure(400, {
        error: {
          message: `(#2200) Callback verification failed with the following errors: HTTP Status Code = ${answer.status}; HTTP Message = ${answer.body.slice(0, 80)}`,
          type: 'OAuthException',
          code: 2200,
          fbtrace_id: traceId(),
        },
      });
  }

  // --- phone numbers ---

  private phoneFields(n: FakeNumber, fields: string[]): Record<string, unknown> {
    const all: Record<string, unknown> = {
      verified_name: n.verifiedName,
      code_verification_status: n.codeVerificationStatus,
      display_phone_number: n.displayPhoneNumber,
      quality_rating: n.qualityRating,
      platform_type: n.platformType,
      throughput: { level: n.throughputLevel },
      name_status: n.nameStatus,
      messaging_limit_tier: n.messagingLimitTier,
      is_official_business_account: false,
      account_mode: 'LIVE',
      status: n.registered ? 'CONNECTED' : 'PENDING',
      id: n.phoneNumberId,
    };
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      if (!(f in all)) throw paramError(`Tried accessing nonexisting field (${f}) on node type (WhatsAppBusinessPhoneNumber)`);
      out[f] = all[f];
    }
    out.id = n.phoneNumberId;
    return out;
  }

  private phoneInfo(n: FakeNumber, url: URL) {
    this.failure('phone');
    this.wabaThrottle(n.wabaId);
    const fields = url.searchParams.get('fields');
    return this.phoneFields(
      n,
      fields
        ? fields
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean)
        : DEFAULT_PHONE_FIELDS,
    );
  }

  /**
   * POST /{phone-number-id}/register: the PIN becomes the number's two-step verification PIN when it
   * has none, else must match it (133005); at most 10 requests per number in a 72-hour moving window
   * on the fake clock (then 133016), as Meta's registration page says.
   */
  private register(n: FakeNumber, fields: Record<string, any>) {
    this.failure('register');
    this.wabaThrottle(n.wabaId);
    const window = 72 * 60 * 60 * 1000;
    const recent = (this.registrations.get(n.phoneNumberId) ?? []).filter((at) => this.clockMs - at < window);
    if (recent.length >= 10) throw whatsappError(133016);
    this.registrations.set(n.phoneNumberId, [...recent, this.clockMs]);
    if (fields.messaging_product !== 'whatsapp') throw paramError('The parameter messaging_product is required.');
    if (fields.pin === undefined) throw paramError('The parameter pin is required.');
    if (!/^\d{6}$/.test(String(fields.pin))) throw paramError('Param pin must be 6 characters long.');
    if (n.pin && n.pin !== String(fields.pin)) throw whatsappError(133005);
    n.pin = String(fields.pin);
    n.registered = true;
    return { success: true };
  }

  // --- subscribed apps ---

  private subscribedApps(
    method: string,
    waba: { id: string; subscribed: boolean; overrideCallbackUri?: string; overrideVerifyToken?: string },
    fields: Record<string, any>,
  ) {
    this.failure('subscribed_apps');
    if (method === 'POST') {
      if (fields.override_callback_uri !== undefined) {
        if (!fields.verify_token) throw paramError('The parameter verify_token is required.');
        waba.overrideCallbackUri = String(fields.override_callback_uri);
        waba.overrideVerifyToken = String(fields.verify_token);
      }
      waba.subscribed = true;
      return { success: true };
    }
    if (method === 'DELETE') {
      waba.subscribed = false;
      waba.overrideCallbackUri = undefined;
      return { success: true };
    }
    if (method === 'GET')
      return {
        data: waba.subscribed
          ? [
              {
                whatsapp_business_api_data: { id: this.appId, link: `https://www.facebook.com/games/?app_id=${this.appId}`, name: 'Conversa' },
                ...(waba.overrideCallbackUri ? { override_callback_uri: waba.overrideCallbackUri } : {}),
              },
            ]
          : [],
      };
    throw unsupported(method, waba.id);
  }

  // --- templates ---

  private templatesEdge(method: string, wabaId: string, fields: Record<string, any>, url: URL) {
    this.failure('templates');
    if (method === 'GET') {
      let list = [...this.templates.values()].filter((t) => t.wabaId === wabaId);
      const name = url.searchParams.get('name');
      const status = url.searchParams.get('status');
      if (name) list = list.filter((t) => t.name.includes(name));
      if (status) list = list.filter((t) => t.status === status.toUpperCase());
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, 100);
      const after = url.searchParams.get('after');
      const start = after ? Number(Buffer.from(after, 'base64').toString()) : 0;
      const page = list.slice(start, start + limit);
      const cursor = (i: number) => Buffer.from(String(i)).toString('base64');
      const more = start + limit < list.length;
      return {
        data: page.map((t) => ({
          name: t.name,
          parameter_format: 'POSITIONAL',
          components: t.components,
          language: t.language,
          status: t.status,
          category: t.category,
          ...(t.rejected_reason ? { rejected_reason: t.rejected_reason } : {}),
          id: t.id,
        })),
        paging: {
          cursors: { before: cursor(start), after: cursor(start + page.length) },
          ...(more ? { next: `${this.url}${url.pathname}?after=${cursor(start + limit)}` } : {}),
        },
      };
    }
    if (method === 'POST') {
      for (const p of ['name', 'category', 'language', 'components']) if (fields[p] === undefined) throw paramError(`The parameter ${p} is required.`);
      const name = String(fields.name);
      if (!/^[a-z0-9_]{1,512}$/.test(name))
        throw new GraphFailure(400, {
          error: {
            message: 'Invalid parameter',
            type: 'OAuthException',
            code: 100,
            error_subcode: 2388093,
            error_user_title: 'Invalid template name',
            error_user_msg: 'Template names can only contain lowercase letters, numbers and underscores.',
            fbtrace_id: traceId(),
          },
        });
      const category = String(fields.category).toUpperCase();
      if (!['MARKETING', 'UTILITY', 'AUTHENTICATION'].includes(category))
        throw paramError(`Param category must be one of {AUTHENTICATION, MARKETING, UTILITY} - got "${fields.category}".`);
      const components = fields.components as TemplateComponent[];
      if (!Array.isArray(components) || !components.some((c) => String(c.type).toUpperCase() === 'BODY'))
        throw paramError('Param components must contain a BODY component.');
      const language = String(fields.language);
      if ([...this.templates.values()].some((t) => t.wabaId === wabaId && t.name === name && t.language === language))
        throw new GraphFailure(400, {
          error: {
            message: 'Invalid parameter',
            type: 'OAuthException',
            code: 100,
            error_subcode: 2388024,
            error_user_title: 'Message template already exists',
            error_user_msg: `There is already ${language} content for this template. You can create a new template and try again.`,
            fbtrace_id: traceId(),
          },
        });
      const t = this.addTemplate(wabaId, {
        name,
        language,
        category: category as TemplateCategory,
        components: components.map((c) => ({ ...c, type: String(c.type).toUpperCase() as TemplateComponent['type'] })),
        status: 'PENDING',
      });
      return { id: t.id, status: t.status, category: t.category };
    }
    if (method === 'DELETE') {
      const name = url.searchParams.get('name') ?? fields.name;
      if (!name) throw paramError('The parameter name is required.');
      const matches = [...this.templates.values()].filter((t) => t.wabaId === wabaId && t.name === name);
      if (!matches.length) throw paramError(`Message template "${name}" not found`);
      for (const t of matches) this.templates.delete(t.id);
      return { success: true };
    }
    throw unsupported(method, wabaId);
  }

  // --- media ---

  private upload(n: FakeNumber, body: BodyData) {
    this.failure('media');
    if (body.fields.messaging_product !== 'whatsapp') throw paramError('The parameter messaging_product is required.');
    const file = body.files.get('file');
    if (!file) throw paramError('The parameter file is required.');
    const mime = baseMime(file.type || String(body.fields.type ?? ''));
    const limit = MEDIA_LIMITS[mime];
    if (limit === undefined)
      throw whatsappError(
        131053,
        `Param file must be a file with one of the following types: ${Object.keys(MEDIA_LIMITS).join(', ')}. Received file of type '${mime}'.`,
      );
    if (file.bytes.length > limit) throw whatsappError(131053, `Media file size ${file.bytes.length} exceeds the limit of ${limit} bytes for ${mime}.`);
    if (file.bytes.length === 0) throw whatsappError(131053, 'Media file is empty.');
    const m = this.storeMedia(n.phoneNumberId, file.bytes, file.type || mime, file.name);
    return { id: m.id };
  }

  private mediaInfo(m: FakeMedia) {
    this.failure('media_info');
    const ext = Math.floor((this.clockMs + this.mediaUrlTtlMs) / 1000);
    const hash = createHmac('sha256', this.urlSecret).update(`${m.id}:${ext}`).digest('base64url');
    return {
      url: `${this.url}/whatsapp_business/attachments/?mid=${m.id}&ext=${ext}&hash=${hash}`,
      mime_type: m.mimeType,
      sha256: createHash('sha256').update(m.bytes).digest('hex'),
      ...(m.huge ? (m.huge.declare === 'file_size' ? { file_size: m.huge.size } : {}) : { file_size: m.bytes.length }),
      id: m.id,
      messaging_product: 'whatsapp',
    };
  }

  private async download(req: IncomingMessage, url: URL, res: ServerResponse, call: GraphCall): Promise<void> {
    const plain = (status: number, text: string) => {
      call.status = status;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const mid = url.searchParams.get('mid') ?? '';
    const ext = Number(url.searchParams.get('ext'));
    const hash = url.searchParams.get('hash') ?? '';
    const m = this.media.get(mid);
    const expected = createHmac('sha256', this.urlSecret).update(`${mid}:${ext}`).digest('base64url');
    if (!m || m.deleted || hash !== expected) return plain(404, 'Not Found');
    const token = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1]?.trim();
    const record = token ? this.tokens.get(token) : undefined;
    const valid = record && record.state === 'valid' && (record.expiresAt === undefined || this.clockMs <= record.expiresAt);
    if (!valid || !this.canReach(record!, this.number(m.phoneNumberId).wabaId)) return plain(401, 'Unauthorized');
    call.token = token;
    if (this.clockMs > ext * 1000) return plain(this.expiredUrlStatus, this.expiredUrlStatus === 404 ? 'URL signature expired' : 'Unauthorized');
    this.failure('download');
    call.status = 200;
    if (m.huge) return this.streamHuge(m, m.huge, res);
    res.writeHead(200, { 'content-type': m.mimeType, 'content-length': m.bytes.length });
    m.bytesServed += m.bytes.length;
    res.end(m.bytes);
  }

  /** Writes a huge media's zeros as long as the client reads them (back-pressure), stopping when it goes away. */
  private async streamHuge(m: FakeMedia, huge: NonNullable<FakeMedia['huge']>, res: ServerResponse): Promise<void> {
    res.writeHead(200, { 'content-type': m.mimeType, ...(huge.declare === 'content-length' ? { 'content-length': huge.size } : {}) });
    const chunk = Buffer.alloc(64 * 1024);
    let closed = false;
    let wake = () => {};
    res.on('close', () => {
      closed = true;
      wake();
    });
    res.on('drain', () => wake());
    while (!closed && m.bytesServed < huge.size) {
      const part = chunk.subarray(0, Math.min(chunk.length, huge.size - m.bytesServed));
      m.bytesServed += part.length;
      if (!res.write(part) && !closed) await new Promise<void>((resolve) => (wake = resolve));
    }
    if (!closed) res.end();
  }

  // --- messages ---

  private postMessage(n: FakeNumber, fields: Record<string, any>) {
    const record: SentMessage = { phoneNumberId: n.phoneNumberId, body: fields, at: this.clockMs, status: 200, answer: null };
    try {
      const answer = this.acceptMessage(n, fields, record);
      record.answer = answer;
      if (fields.status !== 'read') this.sent.push(record);
      return answer;
    } catch (error) {
      if (error instanceof GraphFailure && fields.status !== 'read') {
        record.status = error.status;
        record.answer = error.body;
        this.sent.push(record);
      }
      throw error;
    }
  }

  private acceptMessage(n: FakeNumber, f: Record<string, any>, record: SentMessage) {
    this.failure('messages');
    if (!n.registered) throw whatsappError(133010);
    if (f.messaging_product === undefined) throw paramError('The parameter messaging_product is required.');
    if (f.messaging_product !== 'whatsapp') throw paramError(`Param messaging_product must be one of {WHATSAPP} - got "${f.messaging_product}".`);
    if (f.status !== undefined) {
      if (f.status !== 'read') throw paramError(`Param status must be one of {READ} - got "${f.status}".`);
      if (!f.message_id) throw paramError('The parameter message_id is required.');
      if (!this.isInboundId(String(f.message_id))) throw paramError('Invalid parameter');
      this.reads.push({ phoneNumberId: n.phoneNumberId, messageId: String(f.message_id), at: this.clockMs });
      return { success: true };
    }
    if (f.recipient_type !== undefined && !['individual', 'group'].includes(f.recipient_type))
      throw paramError(`Param recipient_type must be one of {GROUP, INDIVIDUAL} - got "${f.recipient_type}".`);
    if (f.to === undefined || f.to === '') throw paramError('The parameter to is required.');
    const to = digits(String(f.to));
    if (to.length < 8 || to.length > 15) throw paramError('Invalid parameter', undefined);
    const type = f.type === undefined ? 'text' : String(f.type);
    if (!SEND_TYPES.includes(type)) throw paramError(`Param type must be one of {${SEND_TYPES.map((t) => t.toUpperCase()).join(', ')}} - got "${type}".`);
    if (f[type] === undefined || typeof f[type] !== 'object') throw paramError(`The parameter ${type} is required.`);
    const content = f[type];
    let category: SentMessage['category'] = 'service';
    switch (type) {
      case 'text':
        if (typeof content.body !== 'string' || content.body === '') throw paramError("The parameter text['body'] is required.");
        if (content.body.length > 4096) throw paramError("Param text['body'] must be at most 4096 characters long.");
        break;
      case 'reaction':
        if (!content.message_id) throw paramError("The parameter reaction['message_id'] is required.");
        if (typeof content.emoji !== 'string') throw paramError("The parameter reaction['emoji'] is required.");
        break;
      case 'location':
        if (content.latitude === undefined || content.longitude === undefined) throw paramError("The parameter location['latitude'] is required.");
        break;
      case 'contacts':
        if (!Array.isArray(content) && !Array.isArray(f.contacts)) throw paramError('The parameter contacts is required.');
        break;
      case 'interactive':
        this.checkInteractive(content);
        break;
      case 'template':
        category = this.checkTemplate(n, content);
        break;
      default:
        if (MEDIA_TYPES.has(type)) this.checkMedia(n, type, content);
    }
    if (f.context !== undefined && (typeof f.context !== 'object' || !f.context.message_id))
      throw paramError("The parameter context['message_id'] is required.");
    const numberUntil = this.throttles.numbers.get(n.phoneNumberId);
    if (numberUntil !== undefined && this.clockMs < numberUntil) throw whatsappError(130429);
    const pairUntil = this.throttles.pairs.get(`${n.phoneNumberId}:${to}`);
    if (pairUntil !== undefined && this.clockMs < pairUntil) throw whatsappError(131056);
    const freeForm = type !== 'template';
    const outside = freeForm && !this.windowOpen(n.phoneNumberId, to);
    if (outside && this.windowErrors === 'sync') throw whatsappError(131047);
    const id = this.newWamid();
    record.id = id;
    record.category = category;
    this.byWamid.set(id, record);
    const failure: WebhookError | undefined = outside ? webhookError(131047) : this.undeliverable.has(to) ? webhookError(131026) : undefined;
    if (failure) {
      record.asyncFailure = failure;
      this.outbox.push(this.status(id, 'failed'));
    }
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: String(f.to), wa_id: to }],
      messages: [{ id, ...(type === 'template' ? { message_status: 'accepted' } : {}) }],
    };
  }

  private isInboundId(id: string): boolean {
    // Read receipts name a message the customer sent; the fake accepts any wamid it produced.
    return id.startsWith('wamid.');
  }

  private checkMedia(n: FakeNumber, type: string, content: Record<string, any>) {
    const hasId = content.id !== undefined;
    const hasLink = content.link !== undefined;
    if (hasId === hasLink) throw paramError(`Param ${type} must contain exactly one of the following fields: id, link.`);
    if (hasId) {
      const m = this.media.get(String(content.id));
      if (!m || m.deleted || m.phoneNumberId !== n.phoneNumberId)
        throw paramError(`Param ${type}['id'] is not a valid whatsapp business account media attachment ID`);
    } else if (!/^https?:\/\//.test(String(content.link))) throw paramError(`Param ${type}['link'] is not a valid URI.`);
    if (content.caption !== undefined && !['image', 'video', 'document'].includes(type)) throw paramError(`Param ${type}['caption'] is not supported.`);
    if (content.filename !== undefined && type !== 'document') throw paramError(`Param ${type}['filename'] is not supported.`);
  }

  private checkInteractive(content: Record<string, any>) {
    const kind = content.type;
    if (!['button', 'list', 'cta_url', 'product', 'product_list', 'flow'].includes(kind))
      throw paramError(`Param interactive['type'] must be one of {BUTTON, CTA_URL, FLOW, LIST, PRODUCT, PRODUCT_LIST} - got "${kind}".`);
    if (!content.action) throw paramError("The parameter interactive['action'] is required.");
    if (kind === 'button') {
      const buttons = content.action.buttons;
      if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3)
        throw paramError("Param interactive['action']['buttons'] must have between 1 and 3 elements.");
      for (const b of buttons) {
        if (b.type !== 'reply' || !b.reply?.id || !b.reply?.title) throw paramError("The parameter interactive['action']['buttons'][0]['reply'] is required.");
        if (String(b.reply.title).length > 20)
          throw paramError("Param interactive['action']['buttons'][0]['reply']['title'] must be at most 20 characters long.");
      }
      if (!content.body?.text) throw paramError("The parameter interactive['body'] is required.");
    }
    if (kind === 'list') {
      if (!content.action.button) throw paramError("The parameter interactive['action']['button'] is required.");
      const sections = content.action.sections;
      if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10)
        throw paramError("Param interactive['action']['sections'] must have between 1 and 10 elements.");
      const rows = sections.reduce((sum: number, s: any) => sum + (Array.isArray(s.rows) ? s.rows.length : 0), 0);
      if (rows < 1 || rows > 10) throw paramError('Total row count exceed max allowed count: 10');
      if (!content.body?.text) throw paramError("The parameter interactive['body'] is required.");
    }
  }

  /**
   * A template send checked as Graph does against the approved template (its components):
   * - the `header`: a text header takes one `text` parameter per variable; a media header
   *   (IMAGE, VIDEO, DOCUMENT) one parameter of that type, with an uploaded media `id` (as a
   *   media message: an id this number did not upload answers 100) or a `link`, `filename` only
   *   on a document; a parameter of another type answers 132012 (`header: Format mismatch,
   *   expected IMAGE, received DOCUMENT`, the details developers report);
   * - the `body`: one `text` parameter per distinct variable;
   * - each `button` component by `index` among the template's buttons and `sub_type` (url,
   *   quick_reply, copy_code, as the button's type): a URL whose address ends in `{{1}}` takes one
   *   `text`, a copy code one `coupon_code`, a quick reply at most one `payload`; another type
   *   answers 132012, an index with no such button 100.
   * A count that differs answers 132000 (`<component> number of localizable_params (got) does not
   * match the expected number of params (want)`, as Meta's details read). Chosen, not confirmed:
   * a media header sent with no header component counts as 0 of 1 (132000; developers also
   * report 132012 `received UNKNOWN` for it), and a dynamic URL button left out answers 132000
   * for that button.
   */
  private checkTemplate(n: FakeNumber, content: Record<string, any>): SentMessage['category'] {
    if (!content.name) throw paramError("The parameter template['name'] is required.");
    if (!content.language?.code) throw paramError("The parameter template['language'] is required.");
    const t = [...this.templates.values()].find((x) => x.wabaId === n.wabaId && x.name === content.name && x.language === content.language.code);
    if (t?.status !== 'APPROVED') throw whatsappError(132001, `template name (${content.name}) does not exist in ${content.language.code}`);
    const components: any[] = Array.isArray(content.components) ? content.components : [];
    const ofKind = (kind: string) => components.filter((c) => String(c.type).toLowerCase() === kind);
    const paramsOf = (kind: string): any[] => ofKind(kind).flatMap((c) => (Array.isArray(c.parameters) ? c.parameters : []));
    const count = (where: string, got: number, want: number) => {
      if (got !== want) throw whatsappError(132000, `${where} number of localizable_params (${got}) does not match the expected number of params (${want})`);
    };
    const variables = (text?: string) => new Set(text?.match(/\{\{\s*\w+\s*\}\}/g) ?? []).size;

    const header = t.components.find((x) => x.type === 'HEADER');
    const headerParams = paramsOf('header');
    const format = header ? (header.format ?? 'TEXT') : null;
    if (!header || !format || format === 'TEXT') {
      count('header', headerParams.length, header ? variables(header.text) : 0);
      for (const p of headerParams)
        if (p?.type !== 'text') throw whatsappError(132012, `header: Format mismatch, expected TEXT, received ${String(p?.type ?? 'UNKNOWN').toUpperCase()}`);
    } else if (format !== 'LOCATION') {
      count('header', headerParams.length, 1);
      const p = headerParams[0];
      const want = format.toLowerCase();
      if (p?.type !== want) throw whatsappError(132012, `header: Format mismatch, expected ${format}, received ${String(p?.type ?? 'UNKNOWN').toUpperCase()}`);
      if (!p[want] || typeof p[want] !== 'object') throw paramError(`The parameter template['components'][0]['parameters'][0]['${want}'] is required.`);
      this.checkMedia(n, want, p[want]);
    }

    const bodyParams = paramsOf('body');
    count('body', bodyParams.length, variables(t.components.find((x) => x.type === 'BODY')?.text));
    for (const p of bodyParams)
      if (p?.type !== 'text') throw whatsappError(132012, `body: Format mismatch, expected TEXT, received ${String(p?.type ?? 'UNKNOWN').toUpperCase()}`);

    const buttons = t.components.find((x) => x.type === 'BUTTONS')?.buttons ?? [];
    const given = new Map<number, any>();
    for (const c of ofKind('button')) {
      const index = Number(c.index);
      const button = buttons[index];
      if (!Number.isInteger(index) || !button) throw paramError(`Param template['components'][n]['index'] is not a valid button index: ${String(c.index)}`);
      const subType = String(c.sub_type ?? '').toUpperCase();
      if (subType !== button.type)
        throw whatsappError(132012, `button at index ${index}: Format mismatch, expected ${button.type}, received ${subType || 'UNKNOWN'}`);
      given.set(index, c);
    }
    buttons.forEach((button, index) => {
      const params: any[] = Array.isArray(given.get(index)?.parameters) ? given.get(index).parameters : [];
      const where = `button at index ${index} of sub_type ${button.type.toLowerCase()}:`;
      if (button.type === 'URL') {
        count(where, params.length, variables(button.url));
        if (params.some((p) => p?.type !== 'text' || typeof p.text !== 'string')) throw whatsappError(132012, `${where} Format mismatch, expected TEXT`);
      } else if (button.type === 'COPY_CODE') {
        count(where, params.length, 1);
        if (params[0]?.type !== 'coupon_code' || typeof params[0].coupon_code !== 'string')
          throw whatsappError(132012, `${where} Format mismatch, expected COUPON_CODE`);
      } else if (button.type === 'QUICK_REPLY') {
        if (params.length > 1) count(where, params.length, 1);
        if (params.some((p) => p?.type !== 'payload')) throw whatsappError(132012, `${where} Format mismatch, expected PAYLOAD`);
      } else if (params.length) count(where, params.length, 0);
    });
    return t.category.toLowerCase() as SentMessage['category'];
  }
}

const DEFAULT_PHONE_FIELDS = ['verified_name', 'code_verification_status', 'display_phone_number', 'quality_rating', 'platform_type', 'throughput'];

interface BodyData {
  fields: Record<string, any>;
  files: Map<string, { name: string; type: string; bytes: Buffer }>;
}

async function readBody(req: IncomingMessage, url: URL): Promise<BodyData> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const fields: Record<string, any> = {};
  for (const [k, v] of url.searchParams) if (k !== 'access_token') fields[k] = v;
  const files = new Map<string, { name: string; type: string; bytes: Buffer }>();
  if (!raw.length) return { fields, files };
  const type = String(req.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    try {
      Object.assign(fields, JSON.parse(raw.toString('utf8')));
    } catch {
      throw paramError('Invalid JSON for postcard');
    }
  } else if (type.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData();
    for (const [k, v] of form) {
      if (typeof v === 'string') fields[k] = v;
      else files.set(k, { name: v.name, type: v.type, bytes: Buffer.from(await v.arrayBuffer()) });
    }
  } else {
    for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) {
      fields[k] = /^[[{]/.test(v) ? safeJson(v) : v;
    }
  }
  return { fields, files };
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Starts the fake on 127.0.0.1 (random port). `close()` stops it. */
export async function startFakeGraphApi(options: FakeGraphApiOptions = {}): Promise<FakeGraphApi & { close(): Promise<void> }> {
  const fake = new FakeGraphApi(options);
  const server = createServer((req, res) => {
    void fake.handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
