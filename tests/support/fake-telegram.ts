/**
 * A stand-in for the Telegram Bot API that speaks its wire format, for grammY's `apiRoot`:
 *   POST /bot<token>/<method>   JSON, form or multipart bodies; `{ ok, result }` or
 *                               `{ ok: false, error_code, description, parameters? }` with that HTTP status
 *   GET  /file/bot<token>/<path> file downloads (after getFile)
 * Methods: getMe, setWebhook, deleteWebhook, getWebhookInfo, getUpdates (offsets confirm, long-poll
 * timeout, 409 while a webhook is set or when a newer getUpdates arrives), getFile,
 * getUserProfilePhotos, sendMessage (with an inline keyboard's `reply_markup`), sendPhoto, sendVideo,
 * sendAudio, sendVoice, sendDocument (multipart uploads with `attach://`), answerCallbackQuery; updates
 * of kinds the bot did not ask for (`allowed_updates`) are dropped, as Telegram drops them. Tests drive each bot: customer messages and edits become
 * updates, sends are recorded, chats can block the bot, and any method can be told to fail next
 * (for example 429 with `retry_after`). Unknown tokens answer 401; sends to chats that never wrote
 * to the bot answer 400 "chat not found", as Telegram does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A list parameter as the Bot API takes it: a JSON array, in a JSON body or as a form field's text. */
const listParam = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : JSON.parse(String(value)));
import type { AddressInfo } from 'node:net';

export interface ApiFailure {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export interface SentFile {
  field: string;
  name: string;
  mimetype: string;
  size: number;
  bytes: Buffer;
}

export interface SentCall {
  method: string;
  params: Record<string, any>;
  file: SentFile | null;
  /** What the fake answered: the message, or the failure. */
  answer: { ok: true; result: any } | ({ ok: false } & ApiFailure);
}

export interface Person {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
}

interface Waiter {
  res: ServerResponse;
  timer: NodeJS.Timeout;
  offset: number | undefined;
  limit: number;
}

export class FakeBot {
  readonly info: {
    id: number;
    is_bot: true;
    first_name: string;
    username: string;
    can_join_groups: boolean;
    can_read_all_group_messages: boolean;
    supports_inline_queries: boolean;
    can_connect_to_business: boolean;
    has_main_web_app: boolean;
  };
  webhook: { url: string; secret_token?: string; allowed_updates?: string[] } | null = null;
  readonly calls: { method: string; params: Record<string, any> }[] = [];
  readonly sent: SentCall[] = [];
  private queue: any[] = [];
  private nextUpdateId = 1000;
  private nextCallbackId = 7000;
  /** The kinds of update the bot asked for; null until it asked (then every usual kind). */
  private allowedUpdates: string[] | null = null;
  /** answerCallbackQuery calls: the callback ids answered. */
  readonly answeredCallbacks: string[] = [];
  private nextMessageId = 1;
  private failures = new Map<string, ApiFailure[]>();
  private blocked = new Set<string>();
  private knownChats = new Set<string>();
  private files = new Map<string, { path: string; bytes: Buffer }>();
  private waiter: Waiter | null = null;
  /** getUpdates calls answered with updates, and the offsets asked for. */
  readonly offsets: (number | undefined)[] = [];

  constructor(
    readonly token: string,
    name: string,
  ) {
    const id = Number(token.split(':')[0]) || 100;
    this.info = {
      id,
      is_bot: true,
      first_name: name,
      username: `${name.toLowerCase().replace(/\W+/g, '_')}_bot`,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
    };
  }

  /** The next call of `method` answers this failure (several calls: call again). */
  failNext(method: string, failure: ApiFailure): void {
    const list = this.failures.get(method) ?? [];
    list.push(failure);
    this.failures.set(method, list);
  }

  block(chatId: number | string): void {
    this.blocked.add(String(chatId));
  }

  private profilePhotos = new Map<string, string>();

  /** Gives a person a profile photo (answered by getUserProfilePhotos, fetched with getFile). */
  setProfilePhoto(userId: number, bytes: Buffer): void {
    this.profilePhotos.set(String(userId), this.addFile(bytes, `profile_photos/file_${userId}.jpg`));
  }

  /** Stores a file the bot can fetch with getFile; answers its file_id. */
  addFile(bytes: Buffer, path: string): string {
    const id = `file-${this.files.size + 1}-${Math.random().toString(36).slice(2, 8)}`;
    this.files.set(id, { path, bytes });
    return id;
  }

  /** A message from a customer (private chat by default) becomes an update; answers the update. */
  receive(from: Person, content: Record<string, any>, chat?: { id: number; type: 'group' | 'supergroup'; title: string }): any {
    const theChat = chat ?? { id: from.id, type: 'private', first_name: from.first_name, last_name: from.last_name, username: from.username };
    this.knownChats.add(String(theChat.id));
    const message = { message_id: this.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: theChat, from: { ...from, is_bot: false }, ...content };
    return this.push({ message });
  }

  /** The customer edits a message they sent. */
  edit(original: any, text: string): any {
    return this.push({ edited_message: { ...original, text, edit_date: Math.floor(Date.now() / 1000) } });
  }

  /** The customer taps one of the inline keyboard's buttons of a message we sent (`callback_data`). */
  tap(from: Person, sent: any, data: string): any {
    return this.push({
      callback_query: { id: String(this.nextCallbackId++), from: { ...from, is_bot: false }, message: sent, chat_instance: String(from.id), data },
    });
  }

  /**
   * Adds a raw update (its update_id is assigned); answers the full update. As Telegram does, an
   * update of a kind the bot did not ask for (`allowed_updates` of its last getUpdates or setWebhook)
   * is never delivered.
   */
  push(content: Record<string, any>): any {
    const update = { update_id: this.nextUpdateId++, ...content };
    const kind = Object.keys(content)[0]!;
    if (this.allowedUpdates && !this.allowedUpdates.includes(kind)) return update;
    this.queue.push(update);
    this.flush();
    return update;
  }

  /** Posts an update to the registered webhook as Telegram does; answers the HTTP status. */
  async deliver(update: any, secret: string | undefined = this.webhook?.secret_token): Promise<number> {
    if (!this.webhook) throw new Error('no webhook is set');
    const res = await fetch(this.webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret !== undefined ? { 'x-telegram-bot-api-secret-token': secret } : {}) },
      body: JSON.stringify(update),
    });
    await res.arrayBuffer();
    return res.status;
  }

  /** Updates not yet confirmed by an offset. */
  get pending(): number {
    return this.queue.length;
  }

  get polling(): boolean {
    return this.waiter !== null;
  }

  private confirm(offset: number | undefined) {
    if (offset !== undefined) this.queue = this.queue.filter((u) => u.update_id >= offset);
  }

  private flush() {
    const w = this.waiter;
    if (!w || !this.queue.length) return;
    this.waiter = null;
    clearTimeout(w.timer);
    this.offsets.push(w.offset);
    reply(w.res, 200, { ok: true, result: this.queue.slice(0, w.limit) });
  }

  /** Handles one Bot API method call. */
  async call(method: string, params: Record<string, any>, parts: Map<string, File>, res: ServerResponse): Promise<void> {
    this.calls.push({ method, params });
    const failure = this.failures.get(method)?.shift();
    const isSend = /^send/.test(method);
    const fail = (f: ApiFailure) => {
      if (isSend) this.sent.push({ method, params, file: null, answer: { ok: false, ...f } });
      return reply(res, f.error_code, { ok: false, ...f });
    };
    if (failure) return fail(failure);
    switch (method) {
      case 'getMe':
        return ok(res, this.info);
      case 'setWebhook':
        this.webhook = { url: String(params.url), secret_token: params.secret_token, allowed_updates: params.allowed_updates };
        if (params.allowed_updates) this.allowedUpdates = listParam(params.allowed_updates);
        return ok(res, true);
      case 'deleteWebhook':
        this.webhook = null;
        if (params.drop_pending_updates) this.queue = [];
        return ok(res, true);
      case 'getWebhookInfo':
        return ok(res, { url: this.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: this.queue.length });
      case 'getUpdates': {
        if (this.webhook)
          return fail({
            error_code: 409,
            description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
          });
        const offset = params.offset === undefined ? undefined : Number(params.offset);
        if (params.allowed_updates) this.allowedUpdates = listParam(params.allowed_updates);
        this.confirm(offset);
        const previous = this.waiter;
        if (previous) {
          this.waiter = null;
          clearTimeout(previous.timer);
          reply(previous.res, 409, {
            ok: false,
            error_code: 409,
            description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
          });
        }
        const limit = Math.min(Number(params.limit ?? 100), 100);
        const timeout = Number(params.timeout ?? 0);
        if (this.queue.length || timeout <= 0) {
          this.offsets.push(offset);
          return ok(res, this.queue.slice(0, limit));
        }
        const waiter: Waiter = {
          res,
          offset,
          limit,
          timer: setTimeout(() => {
            if (this.waiter === waiter) this.waiter = null;
            ok(res, []);
          }, timeout * 1000),
        };
        this.waiter = waiter;
        res.on('close', () => {
          if (this.waiter === waiter) {
            this.waiter = null;
            clearTimeout(waiter.timer);
          }
        });
        return;
      }
      case 'getFile': {
        const file = this.files.get(String(params.file_id));
        if (!file) return fail({ error_code: 400, description: 'Bad Request: invalid file_id' });
        return ok(res, { file_id: params.file_id, file_unique_id: `u-${params.file_id}`, file_size: file.bytes.length, file_path: file.path });
      }
      case 'getUserProfilePhotos': {
        const photo = this.profilePhotos.get(String(params.user_id));
        if (!photo) return ok(res, { total_count: 0, photos: [] });
        const size = (w: number) => ({
          file_id: photo,
          file_unique_id: `u-${photo}-${w}`,
          width: w,
          height: w,
          file_size: this.files.get(photo)!.bytes.length,
        });
        return ok(res, { total_count: 1, photos: [[size(160), size(320), size(640)]] });
      }
      case 'sendMessage':
      case 'sendPhoto':
      case 'sendVideo':
      case 'sendAudio':
      case 'sendVoice':
      case 'sendDocument': {
        const chatId = String(params.chat_id);
        if (this.blocked.has(chatId)) return fail({ error_code: 403, description: 'Forbidden: bot was blocked by the user' });
        if (!this.knownChats.has(chatId)) return fail({ error_code: 400, description: 'Bad Request: chat not found' });
        const field = { sendPhoto: 'photo', sendVideo: 'video', sendAudio: 'audio', sendVoice: 'voice', sendDocument: 'document' }[method as 'sendPhoto'];
        let file: SentFile | null = null;
        if (field) {
          const value = String(params[field] ?? '');
          const part = value.startsWith('attach://') ? parts.get(value.slice('attach://'.length)) : parts.get(field);
          if (!part) return fail({ error_code: 400, description: `Bad Request: there is no ${field} in the request` });
          const bytes = Buffer.from(await part.arrayBuffer());
          file = { field, name: part.name, mimetype: part.type, size: bytes.length, bytes };
        }
        const message = {
          message_id: this.nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(chatId), type: 'private' },
          from: { id: this.info.id, is_bot: true, first_name: this.info.first_name, username: this.info.username },
          ...(params.text !== undefined ? { text: params.text } : {}),
          ...(params.caption !== undefined ? { caption: params.caption } : {}),
          ...(params.reply_markup !== undefined
            ? { reply_markup: typeof params.reply_markup === 'string' ? JSON.parse(params.reply_markup) : params.reply_markup }
            : {}),
          ...(field
            ? { [field]: field === 'photo' ? [{ file_id: 'sent', file_unique_id: 'sent', width: 1, height: 1 }] : { file_id: 'sent', file_unique_id: 'sent' } }
            : {}),
        };
        this.sent.push({ method, params, file, answer: { ok: true, result: message } });
        return ok(res, message);
      }
      case 'answerCallbackQuery':
        this.answeredCallbacks.push(String(params.callback_query_id));
        return ok(res, true);
      default:
        return fail({ error_code: 404, description: 'Not Found: method not found' });
    }
  }

  fileAt(path: string): Buffer | undefined {
    for (const f of this.files.values()) if (f.path === path) return f.bytes;
    return undefined;
  }

  close() {
    if (this.waiter) {
      clearTimeout(this.waiter.timer);
      this.waiter.res.destroy();
      this.waiter = null;
    }
  }
}

function reply(res: ServerResponse, status: number, body: unknown) {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const ok = (res: ServerResponse, result: unknown) => reply(res, 200, { ok: true, result });

/** Multipart and form values arrive as strings; objects and arrays as JSON text. */
function decodeValue(value: string): unknown {
  if (/^[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

async function readParams(req: IncomingMessage, url: URL): Promise<{ params: Record<string, any>; parts: Map<string, File> }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const params: Record<string, any> = Object.fromEntries(url.searchParams);
  const parts = new Map<string, File>();
  const type = String(req.headers['content-type'] ?? '');
  if (!body.length) return { params, parts };
  if (type.startsWith('application/json')) return { params: { ...params, ...JSON.parse(body.toString('utf8')) }, parts };
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(body.toString('utf8'))) params[name] = decodeValue(value);
  }
  if (type.startsWith('multipart/form-data')) {
    const boundary = /boundary=("?)([^";]+)\1/.exec(type)?.[2];
    if (!boundary) throw new Error('multipart body without boundary');
    for (const part of splitMultipart(body, boundary)) {
      if (part.filename !== undefined)
        parts.set(part.name, new File([new Uint8Array(part.data)], part.filename, { type: part.type ?? 'application/octet-stream' }));
      else params[part.name] = decodeValue(part.data.toString('utf8'));
    }
  }
  return { params, parts };
}

/**
 * A multipart/form-data reader as lenient as Telegram's: grammY writes `content-disposition:form-data;name="x";filename=y`
 * (no spaces, filename unquoted), which stricter parsers refuse.
 */
function splitMultipart(body: Buffer, boundary: string): { name: string; filename?: string; type?: string; data: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const result: { name: string; filename?: string; type?: string; data: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    let from = start + delimiter.length;
    if (body.subarray(from, from + 2).toString() === '--') break;
    if (body.subarray(from, from + 2).toString() === '\r\n') from += 2;
    const end = body.indexOf(delimiter, from);
    if (end === -1) break;
    const chunk = body.subarray(from, end - 2); // without the CRLF before the next delimiter
    const split = chunk.indexOf('\r\n\r\n');
    const head = chunk.subarray(0, split).toString('utf8');
    const data = chunk.subarray(split + 4);
    const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
    const filename = /filename=("?)([^";\r\n]*)\1/i.exec(head)?.[2];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim();
    result.push({ name, filename, type, data });
    start = end;
  }
  return result;
}

export interface FakeTelegram {
  /** The Bot API root to give grammY (`apiRoot`) or TELEGRAM_API_ROOT. */
  url: string;
  addBot(token: string, name?: string): FakeBot;
  bot(token: string): FakeBot;
  /**
   * BotFather's /revoke: from now on the old token answers 401 Unauthorized, as the Bot API does
   * for a revoked token, and the same bot (its chats, what it sent) answers to `newToken`.
   */
  revoke(token: string, newToken: string): FakeBot;
  close(): Promise<void>;
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const bots = new Map<string, FakeBot>();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://fake');
      const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
      if (file) {
        const bytes = bots.get(decodeURIComponent(file[1]!))?.fileAt(decodeURIComponent(file[2]!));
        if (!bytes) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
        return res.end(bytes);
      }
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
      if (!m) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const { params, parts } = await readParams(req, url);
      const bot = bots.get(decodeURIComponent(m[1]!));
      if (!bot) return reply(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      await bot.call(m[2]!, params, parts, res);
    } catch (error) {
      reply(res, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${(error as Error).message}` });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    addBot(token, name = 'Loja') {
      const bot = new FakeBot(token, name);
      bots.set(token, bot);
      return bot;
    },
    bot(token) {
      const bot = bots.get(token);
      if (!bot) throw new Error(`no fake bot with token ${token}`);
      return bot;
    },
    revoke(token, newToken) {
      const bot = bots.get(token);
      if (!bot) throw new Error(`no fake bot with token ${token}`);
      bots.delete(token);
      bots.set(newToken, bot);
      return bot;
    },
    async close() {
      for (const bot of bots.values()) bot.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
