import { type BatchResult, maxBatchRequests, unbatchablePrefixes } from '#contracts/batch.ts';
import type { ApiErrorBody } from '#contracts/errors.ts';
import { clearSession, getAccessToken } from './auth.ts';
import { takeEarlyResponse } from './early-request.ts';
import { showToast } from './notify.ts';

export const apiBase = '/api';

/** An error answer from the API, carrying the server's title and text (docs/product.md#error-catalogue). */
export class ApiError extends Error {
  readonly status: number;
  /** The server title, e.g. 'Bad Request'. */
  readonly title: string;
  readonly details: { path: string; message: string }[];
  /** True when a signed-in call got 401: the session has been ended already. */
  readonly sessionExpired: boolean;

  constructor(status: number, body: Partial<ApiErrorBody>, sessionExpired = false) {
    super(body.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.title = body.error ?? '';
    this.details = Array.isArray(body.details) ? body.details : [];
    this.sessionExpired = sessionExpired;
  }
}

/** The request never got an answer (offline, server down, DNS...). */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Failed to fetch');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

export const sessionExpiredText = 'Sua sessão expirou. Entre novamente para continuar.';

/** Called on any 401 to a call that carried a token: logs out, clears the cache, closes realtime. */
function onUnauthorized(): void {
  if (!getAccessToken()) return;
  clearSession();
  showToast({ tone: 'info', title: 'Sessão encerrada', message: sessionExpiredText });
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Extra headers (rarely needed). An `Authorization` here wins over the stored token. */
  headers?: Record<string, string>;
}

/** What an answer's status and body make of a call: its data, or the ApiError it throws (a 401 with a token signs out). */
function settle<T>(status: number, statusText: string, data: unknown, token: string | null): T {
  if (status < 200 || status >= 300) {
    const errorBody = (data && typeof data === 'object' ? data : {}) as Partial<ApiErrorBody>;
    if (status === 401 && token) {
      onUnauthorized();
      throw new ApiError(401, errorBody, true);
    }
    throw new ApiError(status, { error: errorBody.error ?? statusText, ...errorBody });
  }
  return (status === 204 ? undefined : data) as T;
}

/** A fetch's answer as a call's outcome. */
async function read<T>(response: Response, token: string | null): Promise<T> {
  if (response.status === 204) return settle<T>(204, response.statusText, undefined, token);
  const text = await response.text();
  let data: unknown;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  return settle<T>(response.status, response.statusText, data, token);
}

async function send(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  signal?: AbortSignal,
  early?: Promise<Response>,
): Promise<Response> {
  try {
    return await (early ??
      fetch(`${apiBase}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }
}

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const token = getAccessToken();
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token && !headers.Authorization) headers.Authorization = `Bearer ${token}`;

  // The screen's first list, when the shell has already asked for it (lib/early-request.ts).
  const early = options.headers ? undefined : takeEarlyResponse(method, path, token);
  // GETs asked in the same tick leave as one read batch (below).
  if (!early && method === 'GET' && token && !options.headers && coalescable(path)) return coalesce<T>(path, token, options.signal);
  return read<T>(await send(method, path, body, headers, options.signal, early), token);
}

// ---- The read batch (docs/api.md#read-batch, ADR-0209) ----
//
// GETs asked in the same tick (a screen's first paint: its lists, counts and catalogues) leave as one
// `POST /batch`, so they meet one Lambda container instead of one each (ADR-0209). Each caller gets
// its own answer as if it had asked alone: the same data, the same ApiError, the same sign-out on a
// 401; the query hooks and their keys do not know. A GET alone in its tick leaves as itself.

/**
 * GETs that never go in a batch: another function's routes (the checkout session's; the server refuses them,
 * shared/contracts/batch.ts), and the token's check at start-up, which runs beside the page and must
 * not wait for the page's reads (ADR-0160).
 */
function coalescable(path: string): boolean {
  const bare = path.split('?')[0]!;
  return !unbatchablePrefixes.some((prefix) => bare.startsWith(prefix)) && bare !== '/auth/me';
}

interface Waiting {
  /** As asked, with its query string. */
  fullPath: string;
  path: string;
  query: Record<string, string>;
  token: string;
  signal?: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

let waiting: Waiting[] = [];

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function coalesce<T>(fullPath: string, token: string, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortError());
  const url = new URL(fullPath, 'http://app');
  const keys = [...url.searchParams.keys()];
  // A repeated parameter has no place in the batch's `query` object: asked alone.
  if (new Set(keys).size !== keys.length) return request<T>('GET', fullPath, undefined, { signal, headers: { Authorization: `Bearer ${token}` } });
  return new Promise<T>((resolve, reject) => {
    const entry: Waiting = {
      fullPath,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      token,
      signal,
      resolve: resolve as (v: unknown) => void,
      reject,
    };
    signal?.addEventListener('abort', () => reject(abortError()), { once: true });
    if (!waiting.length) setTimeout(flush, 0);
    waiting.push(entry);
  });
}

function flush(): void {
  const taken = waiting.filter((entry) => !entry.signal?.aborted);
  waiting = [];
  // One batch per token (a switch of account between two calls of a tick) and per batch's capacity.
  const byToken = new Map<string, Waiting[]>();
  for (const entry of taken) byToken.set(entry.token, [...(byToken.get(entry.token) ?? []), entry]);
  for (const [token, entries] of byToken) {
    for (let i = 0; i < entries.length; i += maxBatchRequests) {
      const sent = sendBatch(token, entries.slice(i, i + maxBatchRequests));
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
    }
  }
}

/** The batches (and lone GETs) sent and not yet answered. */
const inFlight = new Set<Promise<void>>();

/** How long the reads must stay quiet after an answer before `readsAnswered` resolves: the reads a screen asks on an answer (a row's details) leave within it. */
const readsQuietMs = 100;

/**
 * Resolves once the GETs asked until now, this tick's included, have been answered and no other has
 * been asked for `readsQuietMs` after them (those a screen asks on their answers), or after `capMs`
 * at most; at once when none was in flight. The realtime link asks its first ticket then rather
 * than beside the first paint's reads, so the two do not need two Lambda containers at once
 * (lib/realtime.ts, ADR-0209).
 */
export function readsAnswered(capMs = 2000): Promise<void> {
  const until = Date.now() + capMs;
  const tick = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, Math.min(ms, until - Date.now()))));
  return (async () => {
    await tick(0);
    let waited = false;
    while (Date.now() < until) {
      if (waiting.length) flush();
      if (!inFlight.size) {
        if (!waited) return;
        // Quiet for a while after the last answer: nothing more to wait for.
        await tick(readsQuietMs);
        if (!inFlight.size && !waiting.length) return;
        continue;
      }
      waited = true;
      await Promise.race([Promise.allSettled([...inFlight]), tick(until - Date.now())]);
    }
  })();
}

/** Asks `entry` alone, with the token it was asked with. */
function alone(entry: Waiting): Promise<void> {
  return send('GET', entry.fullPath, undefined, { Accept: 'application/json', Authorization: `Bearer ${entry.token}` }, entry.signal)
    .then((response) => read(response, entry.token))
    .then(entry.resolve, entry.reject);
}

async function sendBatch(token: string, entries: Waiting[]): Promise<void> {
  if (entries.length === 1) return alone(entries[0]!);
  const requests = entries.map((entry) => (Object.keys(entry.query).length ? { path: entry.path, query: entry.query } : { path: entry.path }));
  let response: Response;
  try {
    response = await send('POST', '/batch', { requests }, { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` });
  } catch (error) {
    for (const entry of entries) entry.reject(error);
    return;
  }
  let result: BatchResult;
  try {
    result = await read<BatchResult>(response, token);
  } catch (error) {
    // A server that does not know the batch, or refuses one of its reads: each asked alone, as before batches.
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      await Promise.all(entries.map(alone));
      return;
    }
    for (const entry of entries) entry.reject(error);
    return;
  }
  for (const [i, entry] of entries.entries()) {
    const answer = result.responses[i];
    try {
      if (!answer) throw new ApiError(500, { error: 'Internal Server Error' });
      entry.resolve(settle(answer.status, '', answer.body ?? undefined, token));
    } catch (error) {
      entry.reject(error);
    }
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
