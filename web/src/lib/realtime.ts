/**
 * The realtime connection (docs/realtime.md): one socket per signed-in tab, reconnecting with
 * exponential backoff. Each socket opens with a one-time ticket asked just before
 * (`POST /api/ws-ticket`, then `/ws?ticket=<ticket>`): the access token never goes in a URL, where
 * WAF and CloudFront would log it. An open socket pings every few minutes (API Gateway and
 * CloudFront close one idle for 10 minutes); the gateway's pong stays here. Listeners get each
 * other server message as it came (one JSON `{ event, data }`); the signed-in app parses it with the
 * shared contract (`app/realtime-sync.ts`), which keeps zod out of this module. Only the signed-in app
 * shell loads it (public pages load no realtime code: scripts/check-bundle-size.mjs). Reconnect
 * listeners run when a socket opens (events sent meanwhile are not replayed, so they refetch what is
 * shown). Drop listeners run when an open socket is closed by the server, which is what ending the
 * session does.
 */
import { pingIntervalMs, pingMessage, pongMessage, type WsTicketAnswer } from '#contracts/realtime-link.ts';
import { api, readsAnswered } from './api-client.ts';
import { onSignOut } from './auth.ts';

type Listener = (message: string) => void;

let socket: WebSocket | null = null;
let token: string | null = null;
/** Moves on every connect and close: a ticket that comes back for an older link opens nothing. */
let link = 0;
let attempts = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let pingTimer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<Listener>();
const reconnectListeners = new Set<() => void>();
const dropListeners = new Set<() => void>();

const maxDelayMs = 30_000;

export function realtimeUrl(ticket: string, location: Pick<Location, 'protocol' | 'host'> = globalThis.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?ticket=${encodeURIComponent(ticket)}`;
}

/** Delay before the n-th reconnection: 1 s, 2 s, 4 s ... capped at 30 s, with jitter. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(maxDelayMs, 1000 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

/** The link's state on <html data-realtime>, for styling and for the browser tests to wait on. */
function markState(state: 'open' | 'closed'): void {
  if (typeof document !== 'undefined') document.documentElement.dataset.realtime = state;
}

function retryLater(): void {
  retryTimer = setTimeout(() => void open(), backoffDelay(attempts++));
}

/**
 * Asks a ticket for the current session, then opens the socket with it. A ticket refused with 401
 * means the session is over: the API client signs out, which closes the link (`onSignOut`).
 */
async function open(afterReads = false, screen?: Promise<void>): Promise<void> {
  if (!token || typeof WebSocket === 'undefined') return;
  const mine = link;
  // A link's first ticket waits for the screen to render and ask its reads (its code may arrive
  // after the shell's), then for those reads (the first paint's batch): beside them, it would need
  // a second Lambda container at once (lib/screen-code.ts, lib/api-client.ts `readsAnswered`,
  // ADR-0209). A reconnection asks at once.
  if (afterReads) {
    await screen;
    if (mine !== link || !token) return;
    await readsAnswered();
    if (mine !== link || !token) return;
  }
  let ticket: string;
  try {
    ({ ticket } = await api.post<WsTicketAnswer>('/ws-ticket', undefined, { headers: { Authorization: `Bearer ${token}` } }));
  } catch {
    // Offline, or the API is down: try again later. (A 401 has signed out, and the check below ends it.)
    if (mine === link && token) retryLater();
    return;
  }
  if (mine !== link || !token) return;
  const ws = new WebSocket(realtimeUrl(ticket));
  socket = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    attempts = 0;
    markState('open');
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (ws.readyState === 1) ws.send(pingMessage);
    }, pingIntervalMs);
    // Events sent before this socket was accepted are not replayed: refetch what is shown, also on
    // the first open (a page fetched just before it could otherwise miss a change).
    for (const listener of [...reconnectListeners]) listener();
  };
  ws.onmessage = (message) => {
    const text = String(message.data);
    if (text === pongMessage) return;
    for (const listener of [...listeners]) listener(text);
  };
  ws.onclose = () => {
    if (socket !== ws || !token) return;
    clearInterval(pingTimer);
    markState('closed');
    socket = null;
    retryLater();
    // The server closes an open socket when its session ends (logout elsewhere, password reset, the
    // user archived): drop listeners check the session once, and a 401 signs out.
    if (opened) for (const listener of [...dropListeners]) listener();
  };
}

/** Opens the link for the session; its first ticket waits for `screen` (the screen's first render, lib/screen-code.ts) when given. */
export function connectRealtime(accessToken: string, screen?: Promise<void>): void {
  if (token === accessToken && socket) return;
  closeRealtime();
  token = accessToken;
  attempts = 0;
  void open(true, screen);
}

export function closeRealtime(): void {
  token = null;
  link++;
  clearTimeout(retryTimer);
  clearInterval(pingTimer);
  const ws = socket;
  socket = null;
  markState('closed');
  if (ws && ws.readyState <= 1) ws.close(1000, 'logout');
}

// The socket goes with the session (sign-out, or a 401 that ended it).
onSignOut(closeRealtime);

/** Runs for every message the server sends, as text (the keep-alive's pongs aside). */
export function onRealtimeMessage(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Runs when an open socket is closed by the other side (not by `closeRealtime`). */
export function onRealtimeDrop(listener: () => void): () => void {
  dropListeners.add(listener);
  return () => dropListeners.delete(listener);
}

/** Runs whenever a socket opens (first connection and every reconnection). */
export function onRealtimeReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}
