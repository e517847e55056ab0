/**
 * The webhook sender (the `WebhookSender` port): posts a delivery to a customer's URL without
 * letting that URL reach anything inside our network (ADR-0231).
 *
 * - Only http and https, no credentials in the URL, no port on the fetch standard's "bad port" list.
 * - The host is resolved once per hop and EVERY address it resolves to must be public
 *   (`addressRefusal`); the connection then goes to those vetted addresses only (a `lookup`
 *   that answers them, so Host and TLS's server name stay the URL's host name), so a DNS answer
 *   that changes between the check and the connection (rebinding) is never used.
 * - Redirects are followed by hand, each hop checked again, at most `maxRedirects`; 307 and 308
 *   send the same POST again, 301, 302 and 303 continue as a GET without body (as fetch does),
 *   an https URL never redirects to http, and credentials headers never cross to another origin.
 * - One deadline for the whole exchange (DNS, every hop, the answer's body) and one for each
 *   connection; at most `maxResponseBytes` of an answer's body are read (the rest is not
 *   downloaded: the connection is closed), and its status is the answer. Response headers past
 *   16 KiB are refused as 'too_large'.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookPost, WebhookPostResult, WebhookRefusal, WebhookSender } from '#domain/webhooks/webhook-sender.ts';
import { addressRefusal } from './public-address.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (the default asks the system resolver, as a connection would). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface SafeWebhookSenderOptions {
  /** Lets 127.0.0.1 and ::1 through (nothing else of loopback): the local runtime with WEBHOOKS_ALLOW_LOOPBACK=1 only. */
  allowLoopback?: boolean;
  /** The whole exchange, every hop included. */
  timeoutMs?: number;
  /** Each connection (TCP, and TLS for https) until it is established. */
  connectTimeoutMs?: number;
  /** The most of an answer's body read; the rest is never downloaded. */
  maxResponseBytes?: number;
  maxRedirects?: number;
  lookup?: HostLookup;
}

const defaults = { timeoutMs: 10_000, connectTimeoutMs: 5_000, maxResponseBytes: 64 * 1024, maxRedirects: 3 };
/** How much of an answer's body the result carries, for the delivery log. */
const snippetCharacters = 1_000;
const maxHeaderBytes = 16 * 1024;
const maxUrlLength = 2_048;

/** The fetch standard's bad ports (https://fetch.spec.whatwg.org/#bad-port), and 0. */
const badPorts = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a body, dropped when a redirect turns the POST into a GET (fetch's request-body-header names). */
const bodyHeaders = ['content-type', 'content-encoding', 'content-language', 'content-location'];
/** Headers that carry credentials, dropped when a redirect leaves the origin. */
const credentialHeaders = ['authorization', 'proxy-authorization', 'cookie'];
/** Headers the sender sets itself. */
const ownHeaders = ['host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade'];

class Refused extends Error {
  constructor(
    readonly reason: WebhookRefusal,
    readonly detail: string,
  ) {
    super(detail);
  }
}

interface Hop {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body: string | undefined;
}

/** A hop's destination after its checks: the URL and the vetted addresses to connect to. */
interface Destination {
  url: URL;
  host: string;
  addresses: readonly ResolvedAddress[];
}

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function withoutHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}

function parseUrl(raw: string, base?: URL): URL {
  if (raw.length > maxUrlLength) throw new Refused('bad_url', `A URL passa de ${maxUrlLength} caracteres.`);
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new Refused('bad_url', 'A URL não é válida.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Refused('bad_url', 'A URL precisa começar com http:// ou https://.');
  if (url.username || url.password) throw new Refused('bad_url', 'A URL não pode conter usuário ou senha.');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (badPorts.has(port)) throw new Refused('bad_url', `A porta ${port} não é permitida.`);
  return url;
}

/**
 * A hop's URL checked and its host resolved: every address must be allowed. `abandoned` settles
 * (rejects) when the deadline passes, so a resolver that hangs is given up on.
 */
async function destinationOf(url: URL, options: { allowLoopback: boolean; lookup: HostLookup }, abandoned: Promise<never>): Promise<Destination> {
  // URL keeps an IPv6 literal in brackets; IPv4 in decimal, octal or hex is already dotted.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: readonly ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await Promise.race([options.lookup(host), abandoned]);
    } catch (error) {
      if (error instanceof Refused) throw error;
      const code = (error as { code?: string }).code;
      throw new Refused('dns', `Não foi possível resolver ${host}${code ? ` (${code})` : ''}.`);
    }
    if (addresses.length === 0) throw new Refused('dns', `${host} não tem endereço.`);
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, options);
    if (refusal === null) continue;
    throw new Refused(
      'blocked_address',
      host === address ? `O endereço ${address} (${refusal}) não recebe webhooks.` : `${host} aponta para ${address} (${refusal}), que não recebe webhooks.`,
    );
  }
  return { url, host, addresses };
}

/** A `lookup` for the connection that answers only the vetted addresses, whatever DNS says now. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((a) => family === undefined || a.family === family);
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error(`No vetted address of family ${family} for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all)
      callback(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, first.address, first.family);
  };
}

function exchange(destination: Destination, hop: Hop, options: Required<Omit<SafeWebhookSenderOptions, 'lookup'>>, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const { url } = destination;
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = { 'user-agent': 'Conversa-Webhooks/1.0', ...withoutHeaders(hop.headers, ownHeaders), connection: 'close' };
    if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
      action();
    };
    const onAbort = () => settle(() => reject(new Refused('timeout', `Sem resposta em ${options.timeoutMs / 1000} s.`)));
    let request: http.ClientRequest;
    try {
      request = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: destination.host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers,
        agent: false,
        lookup: pinnedLookup(destination.addresses),
        maxHeaderSize: maxHeaderBytes,
        signal,
      });
    } catch (error) {
      reject(new Refused('network', `A requisição não pôde ser montada: ${(error as Error).message}`));
      return;
    }
    signal.addEventListener('abort', onAbort);
    request.on('socket', (socket) => {
      connectTimer = setTimeout(() => {
        settle(() => reject(new Refused('timeout', `A conexão não se estabeleceu em ${options.connectTimeoutMs / 1000} s.`)));
        request.destroy();
      }, options.connectTimeoutMs);
      socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted) return onAbort();
      if (error.code === 'HPE_HEADER_OVERFLOW')
        settle(() => reject(new Refused('too_large', `Os cabeçalhos da resposta passam de ${maxHeaderBytes / 1024} KiB.`)));
      else settle(() => reject(new Refused('network', `Falha de rede: ${error.code ?? error.message}.`)));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location !== undefined) {
        settle(() => resolve({ status, location, body: '' }));
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        if (signal.aborted) return onAbort();
        settle(() => resolve({ status, location: undefined, body: new TextDecoder().decode(Buffer.concat(chunks)) }));
      };
      response.on('data', (chunk: Buffer) => {
        const room = options.maxResponseBytes - size;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += Math.min(chunk.length, room);
        if (size >= options.maxResponseBytes) {
          // The status is the answer: the rest of the body is not fetched.
          finish();
          response.destroy();
        }
      });
      // A body cut short by the receiver still answers with the status it sent.
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', () => finish());
    });
    request.end(hop.body);
  });
}

/** The request after a redirect to `location` (fetch's rules for the method; see the module's comment). */
function nextHop(hop: Hop, from: URL, to: URL, status: number): Hop {
  if (from.protocol === 'https:' && to.protocol === 'http:') throw new Refused('bad_url', 'Um redirecionamento de https para http não é seguido.');
  let next: Hop = { ...hop, url: to.href };
  if (status === 303 || ((status === 301 || status === 302) && hop.method === 'POST')) {
    next = { url: to.href, method: 'GET', headers: withoutHeaders(hop.headers, bodyHeaders), body: undefined };
  }
  if (to.origin !== from.origin) next = { ...next, headers: withoutHeaders(next.headers, credentialHeaders) };
  return next;
}

export function createSafeWebhookSender(options: SafeWebhookSenderOptions = {}): WebhookSender {
  const settings = {
    allowLoopback: options.allowLoopback ?? false,
    timeoutMs: options.timeoutMs ?? defaults.timeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? defaults.connectTimeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? defaults.maxResponseBytes,
    maxRedirects: options.maxRedirects ?? defaults.maxRedirects,
  };
  const lookup = options.lookup ?? systemLookup;

  return {
    async post(request: WebhookPost): Promise<WebhookPostResult> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), settings.timeoutMs);
      const abandoned = new Promise<never>((_, reject) => {
        deadline.signal.addEventListener('abort', () => reject(new Refused('timeout', `Sem resposta em ${settings.timeoutMs / 1000} s.`)));
      });
      abandoned.catch(() => {});
      try {
        let hop: Hop = { url: request.url, method: 'POST', headers: request.headers, body: request.body };
        let url = parseUrl(hop.url);
        for (let redirects = 0; ; redirects++) {
          const destination = await destinationOf(url, { allowLoopback: settings.allowLoopback, lookup }, abandoned);
          const answer = await exchange(destination, hop, settings, deadline.signal);
          if (answer.location === undefined) {
            return { outcome: 'answered', status: answer.status, ms: elapsed(), bodySnippet: answer.body.slice(0, snippetCharacters) };
          }
          if (redirects >= settings.maxRedirects) {
            throw new Refused('too_many_redirects', `Mais de ${settings.maxRedirects} redirecionamentos.`);
          }
          const to = parseUrl(answer.location, url);
          hop = nextHop(hop, url, to, answer.status);
          url = to;
        }
      } catch (error) {
        const refused = error instanceof Refused ? error : new Refused('network', `Falha inesperada: ${(error as Error).message}`);
        return { outcome: 'refused', reason: refused.reason, ms: elapsed(), detail: refused.detail };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
