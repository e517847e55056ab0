/**
 * A small client of Meta's Graph API as the Cloud API uses it: JSON calls and the multipart media
 * upload, the system-user token as a Bearer header, the root and version from ./config.ts. A Graph
 * error answer (`{ error: { code, error_subcode, message, ... } }`) becomes `GraphError`; no answer
 * at all (network, timeout, a body that is not Graph's) becomes `GraphUnreachable`.
 */
import { graphApiRoot, graphApiVersion, graphTimeoutMs } from './config.ts';

export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly subcode: number | undefined,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'GraphError';
  }

  /** Graph's "Object with ID ... does not exist, cannot be loaded due to missing permissions" (code 100, subcode 33). */
  get objectNotFound(): boolean {
    return this.code === 100 && this.subcode === 33;
  }

  /** The token is invalid, expired or revoked (code 190, any subcode). */
  get tokenRejected(): boolean {
    return this.code === 190;
  }
}

export class GraphUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GraphUnreachable';
  }
}

export interface GraphClient {
  get<T>(path: string, query?: Record<string, string>): Promise<T>;
  post<T>(path: string, body: Record<string, unknown>): Promise<T>;
  delete<T>(path: string): Promise<T>;
  /** POST /{phone-number-id}/media: answers the media id to send by. */
  upload(phoneNumberId: string, file: { bytes: Uint8Array; mimetype: string; name: string }): Promise<string>;
}

interface GraphErrorBody {
  error?: { code?: unknown; error_subcode?: unknown; message?: unknown; error_data?: { details?: unknown } };
}

/** `timeoutMs`: how long one call may take here (default the configured Graph timeout, ./config.ts). */
export function graphClient(accessToken: string, options: { timeoutMs?: number } = {}): GraphClient {
  const base = `${graphApiRoot()}/${graphApiVersion()}`;
  async function call<T>(method: string, path: string, init: { query?: Record<string, string>; body?: BodyInit; json?: unknown } = {}): Promise<T> {
    const url = new URL(`${base}/${path.replace(/^\/+/, '')}`);
    for (const [key, value] of Object.entries(init.query ?? {})) url.searchParams.set(key, value);
    const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? graphTimeoutMs()) });
      text = await response.text();
    } catch (error) {
      throw new GraphUnreachable(`Graph API ${method} ${url.pathname}: ${(error as Error).message}`, { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new GraphUnreachable(`Graph API ${method} ${url.pathname}: ${response.status}, not JSON`);
    }
    const error = (parsed as GraphErrorBody).error;
    if (!response.ok || error) {
      if (error && typeof error.code === 'number') {
        const subcode = typeof error.error_subcode === 'number' ? error.error_subcode : undefined;
        const details = typeof error.error_data?.details === 'string' ? error.error_data.details : undefined;
        throw new GraphError(response.status, error.code, subcode, String(error.message ?? ''), details);
      }
      throw new GraphUnreachable(`Graph API ${method} ${url.pathname}: ${response.status}`);
    }
    return parsed as T;
  }
  return {
    get: (path, query) => call('GET', path, { query }),
    post: (path, json) => call('POST', path, { json }),
    delete: (path) => call('DELETE', path),
    async upload(phoneNumberId, file) {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', file.mimetype);
      form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimetype }), file.name);
      const answer = await call<{ id?: unknown }>('POST', `${encodeURIComponent(phoneNumberId)}/media`, { body: form });
      if (typeof answer.id !== 'string') throw new GraphUnreachable('Graph API media upload answered no id');
      return answer.id;
    },
  };
}
