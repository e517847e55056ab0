/** A WebSocket client of the realtime API that collects the events it receives. */
import { inject } from 'vitest';
import WebSocket from 'ws';
import { realtimeUrl } from '../support/realtime-url.ts';

export interface EventLog {
  events: { event: string; data: any }[];
  waitFor(predicate: (e: { event: string; data: any }) => boolean, ms?: number): Promise<{ event: string; data: any }>;
  close(): void;
  /** Settles once the socket is closed, by either side. */
  closed: Promise<void>;
}

export async function listen(token: string): Promise<EventLog> {
  // As the web app does: a one-time ticket for each socket, never the access token in the URL.
  const socket = new WebSocket(await realtimeUrl(inject('baseUrl'), token));
  const events: { event: string; data: any }[] = [];
  const waiters: (() => void)[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('message', (data) => {
    events.push(JSON.parse(data.toString()));
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    events,
    async waitFor(predicate, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no such event; got ${events.map((e) => e.event).join(', ')}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
    close: () => socket.close(),
    closed,
  };
}
