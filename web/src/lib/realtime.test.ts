import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeRealtime, connectRealtime, onRealtimeDrop } from './realtime.ts';

/** Just the part of the browser's WebSocket the realtime link uses; the test plays the server. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
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
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.made = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

afterEach(() => {
  closeRealtime();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the realtime link when the server ends it', () => {
  it('tells drop listeners once when an open socket is closed by the server, not when a reconnection is refused', () => {
    const dropped = vi.fn();
    const off = onRealtimeDrop(dropped);
    connectRealtime('token-1');
    FakeSocket.made[0]!.accept();
    FakeSocket.made[0]!.drop();
    expect(dropped).toHaveBeenCalledTimes(1);
    // The reconnection is refused at the handshake (a revoked token): no second check.
    vi.runOnlyPendingTimers();
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.drop();
    expect(dropped).toHaveBeenCalledTimes(1);
    off();
  });

  it('does not tell them when the app closes the link itself (logout)', () => {
    const dropped = vi.fn();
    const off = onRealtimeDrop(dropped);
    connectRealtime('token-2');
    FakeSocket.made[0]!.accept();
    closeRealtime();
    expect(dropped).not.toHaveBeenCalled();
    off();
  });
});
