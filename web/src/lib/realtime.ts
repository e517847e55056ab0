/**
 * The realtime connection (`/ws?token=<accessToken>`), reconnecting with exponential backoff.
 * Only connect/close for now: the event handling comes with the inbox.
 */
type Listener = (event: { type: string; payload: unknown }) => void;

let socket: WebSocket | null = null;
let token: string | null = null;
let attempts = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<Listener>();

const maxDelayMs = 30_000;

export function realtimeUrl(accessToken: string, location: Pick<Location, 'protocol' | 'host'> = globalThis.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(accessToken)}`;
}

/** Delay before the n-th reconnection: 1 s, 2 s, 4 s ... capped at 30 s, with jitter. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(maxDelayMs, 1000 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

function open(): void {
  if (!token || typeof WebSocket === 'undefined') return;
  const ws = new WebSocket(realtimeUrl(token));
  socket = ws;
  ws.onopen = () => {
    attempts = 0;
  };
  ws.onmessage = (message) => {
    try {
      const event = JSON.parse(String(message.data)) as { type: string; payload: unknown };
      for (const listener of listeners) listener(event);
    } catch {
      /* not an event */
    }
  };
  ws.onclose = () => {
    if (socket !== ws || !token) return;
    socket = null;
    retryTimer = setTimeout(open, backoffDelay(attempts++));
  };
}

export function connectRealtime(accessToken: string): void {
  if (token === accessToken && socket) return;
  closeRealtime();
  token = accessToken;
  attempts = 0;
  open();
}

export function closeRealtime(): void {
  token = null;
  clearTimeout(retryTimer);
  const ws = socket;
  socket = null;
  if (ws && ws.readyState <= 1) ws.close(1000, 'logout');
}

export function onRealtimeEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
