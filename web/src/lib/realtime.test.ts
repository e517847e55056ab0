import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pingIntervalMs, pingMessage, pongMessage } from '#contracts/realtime-link.ts';
import { closeRealtime, connectRealtime, onRealtimeDrop, onRealtimeMessage } from './realtime.ts';
import { currentScreenShown, screenShown } from './screen-code.ts';

/** Just the part of the browser's WebSocket the realtime link uses; the test plays the server. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  /** The server closes (or refuses, before accepting) the socket. */
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
  close() {
    this.drop();
  }
  send(data: string) {
    this.sent.push(data);
  }
  receive(data: string) {
    this.onmessage?.({ data });
  }
}

/** The tickets the API answered, in order, and the token each was asked with. */
let tickets: { authorization: string | undefined }[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.made = [];
  tickets = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      expect([url, init.method]).toEqual(['/api/ws-ticket', 'POST']);
      tickets.push({ authorization: (init.headers as Record<string, string>).Authorization });
      return new Response(JSON.stringify({ ticket: `ticket-${tickets.length}`, expiresIn: 30 }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  closeRealtime();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Lets the ticket's request and answer settle (promises only: no timer moves). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

/** Until the n-th socket exists (its ticket answered). */
async function socketNumber(n: number): Promise<FakeSocket> {
  for (let i = 0; i < 50 && FakeSocket.made.length < n; i++) await settle();
  expect(FakeSocket.made).toHaveLength(n);
  return FakeSocket.made[n - 1]!;
}

describe('the realtime link opens with a one-time ticket', () => {
  it('asks a ticket with the session’s token before each (re)connection, and only the ticket goes in the URL', async () => {
    connectRealtime('token-1');
    const first = await socketNumber(1);
    expect(tickets).toEqual([{ authorization: 'Bearer token-1' }]);
    expect(first.url).toMatch(/\/ws\?ticket=ticket-1$/);
    expect(first.url).not.toContain('token-1');
    first.accept();
    first.drop();
    vi.runOnlyPendingTimers();
    const second = await socketNumber(2);
    expect(tickets).toHaveLength(2);
    expect(second.url).toMatch(/\/ws\?ticket=ticket-2$/);
  });

  it('asks its first ticket once the screen at the address has rendered, or after 3 s when it never does', async () => {
    // The shell opened the link while the screen's chunk was still on its way (app/query-scope.tsx says when it renders).
    window.history.replaceState(null, '', '/inbox');
    connectRealtime('token-5', currentScreenShown());
    await settle();
    await settle();
    expect(tickets).toEqual([]);
    screenShown('/inbox');
    await socketNumber(1);
    expect(tickets).toEqual([{ authorization: 'Bearer token-5' }]);

    // Shown already (the screen's code came first): at once.
    closeRealtime();
    connectRealtime('token-6', currentScreenShown());
    await socketNumber(2);

    // Another address whose screen never renders: the ticket goes after 3 s all the same.
    closeRealtime();
    window.history.replaceState(null, '', '/contacts');
    connectRealtime('token-7', currentScreenShown());
    await vi.advanceTimersByTimeAsync(2999);
    expect(tickets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(100);
    await socketNumber(3);
    expect(tickets.at(-1)).toEqual({ authorization: 'Bearer token-7' });
    window.history.replaceState(null, '', '/');
  });

  it('opens nothing when the link was closed while the ticket was on its way', async () => {
    connectRealtime('token-3');
    closeRealtime();
    await settle();
    await settle();
    expect(FakeSocket.made).toHaveLength(0);
  });
});

describe('the realtime link keeps its socket alive', () => {
  it('pings about every 5 minutes while open, and keeps the pongs to itself', async () => {
    const heard = vi.fn();
    const off = onRealtimeMessage(heard);
    connectRealtime('token-4');
    const socket = await socketNumber(1);
    vi.advanceTimersByTime(pingIntervalMs);
    expect(socket.sent).toEqual([]);
    socket.accept();
    vi.advanceTimersByTime(pingIntervalMs - 1000);
    expect(socket.sent).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(socket.sent).toEqual([pingMessage]);
    socket.receive(pongMessage);
    expect(heard).not.toHaveBeenCalled();
    socket.receive('{"event":"account.UPDATED","data":{}}');
    expect(heard).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(pingIntervalMs);
    expect(socket.sent).toEqual([pingMessage, pingMessage]);
    // A closed socket pings no more.
    socket.drop();
    vi.advanceTimersByTime(3 * pingIntervalMs);
    expect(socket.sent).toEqual([pingMessage, pingMessage]);
    off();
  });
});

describe('the realtime link when the server ends it', () => {
  it('tells drop listeners once when an open socket is closed by the server, not when a reconnection is refused', async () => {
    const dropped = vi.fn();
    const off = onRealtimeDrop(dropped);
    connectRealtime('token-1');
    (await socketNumber(1)).accept();
    FakeSocket.made[0]!.drop();
    expect(dropped).toHaveBeenCalledTimes(1);
    // The reconnection is refused at the handshake (a ticket of an ended session): no second check.
    vi.runOnlyPendingTimers();
    (await socketNumber(2)).drop();
    expect(dropped).toHaveBeenCalledTimes(1);
    off();
  });

  it('does not tell them when the app closes the link itself (logout)', async () => {
    const dropped = vi.fn();
    const off = onRealtimeDrop(dropped);
    connectRealtime('token-2');
    (await socketNumber(1)).accept();
    closeRealtime();
    expect(dropped).not.toHaveBeenCalled();
    off();
  });
});
