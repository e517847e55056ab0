import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '#contracts/messages.ts';
import { flattenMessages, messagesQueryOptions } from '#web/features/inbox/api/get-messages.ts';
import { messageFixture } from '#web/testing/message-fixture.ts';

// The socket, played by the test: whatever listener the sync registers receives the messages.
const socket = vi.hoisted(() => ({ listeners: new Set<(raw: string) => void>() }));
vi.mock('#web/lib/realtime.ts', () => ({
  onRealtimeMessage: (listener: (raw: string) => void) => {
    socket.listeners.add(listener);
    return () => socket.listeners.delete(listener);
  },
  onRealtimeReconnect: () => () => undefined,
  onRealtimeDrop: () => () => undefined,
}));

const { useRealtimeSync } = await import('./realtime-sync.ts');

function message(id: string, text: string): Message {
  return messageFixture({ id, text }, '2026-11-25T12:00:00.000Z');
}

describe('the realtime sync before its contract has loaded', () => {
  it('applies the messages that arrived meanwhile, in their order', async () => {
    const client = new QueryClient();
    const key = messagesQueryOptions('c1').queryKey;
    client.setQueryData(key, { pages: [{ data: [], totalCount: 0 }], pageParams: [null] });
    renderHook(() => useRealtimeSync(client));
    const send = (event: unknown) => {
      for (const listener of socket.listeners) listener(JSON.stringify(event));
    };
    // Created, then edited, then a second one: the edit must land on the first, not before it.
    send({ event: 'message.CREATED', data: message('01A', 'primeira') });
    send({ event: 'message.UPDATED', data: { ...message('01A', 'primeira, editada'), updatedAt: '2026-11-25T12:00:01.000Z' } });
    send({ event: 'message.CREATED', data: message('01B', 'segunda') });
    await waitFor(() => expect(flattenMessages(client.getQueryData(key)).map((m) => `${m.id} ${m.text}`)).toEqual(['01A primeira, editada', '01B segunda']));
  });
});
