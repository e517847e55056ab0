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

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const token = getAccessToken();
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token && !headers.Authorization) headers.Authorization = `Bearer ${token}`;

  // The screen's first list, when the shell has already asked for it (lib/early-request.ts).
  const early = options.headers ? undefined : takeEarlyResponse(method, path, token);
  let response: Response;
  try {
    response = await (early ??
      fetch(`${apiBase}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal,
      }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }

  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }

  if (!response.ok) {
    const errorBody = (data && typeof data === 'object' ? data : {}) as Partial<ApiErrorBody>;
    if (response.status === 401 && token) {
      onUnauthorized();
      throw new ApiError(401, errorBody, true);
    }
    throw new ApiError(response.status, { error: errorBody.error ?? response.statusText, ...errorBody });
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
