/**
 * The shape of a recorded first minute (bench/traces/first-minute.json, written by
 * scripts/record-first-minute.ts, replayed by scripts/bench-layout.ts) and how a request's path is
 * matched to its route in the route list.
 */
import type { HttpRoute } from '#functions/http/routes.ts';

export interface TraceRequest {
  method: string;
  /** `METHOD /path/{param}` of the route list, or null for a path no route has (the gateway's own answers). */
  route: string | null;
  /** The path asked, under /api, without the query. */
  path: string;
  /** Milliseconds from the trace's first request. */
  start: number;
  end: number;
  failed?: boolean;
}

export interface FirstMinuteTrace {
  recordedAt: string;
  how: string;
  /** When each step of the script began (ms, same clock as the requests). */
  steps: { name: string; at: number }[];
  requests: TraceRequest[];
}

/** `GET /contacts/01J…/read` → `POST /contacts/{id}/read`'s key, as API Gateway matches it (literal segments first). */
export function routeOf(routes: readonly HttpRoute[], method: string, path: string): string | null {
  const parts = path.split('/');
  const matches = routes.filter((route) => {
    if (route.method !== method) return false;
    const pattern = route.path.split('/');
    return pattern.length === parts.length && pattern.every((segment, i) => segment.startsWith('{') || segment === parts[i]);
  });
  const literal = (route: HttpRoute) => route.path.split('/').filter((s) => !s.startsWith('{')).length;
  const best = matches.sort((a, b) => literal(b) - literal(a))[0];
  return best ? `${best.method} ${best.path}` : null;
}
