import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '#contracts/messages.ts';
import { messageKeys } from '#web/api/keys.ts';
import { flattenMessages, type ChatMessage } from './get-messages.ts';
import { sendOutgoing } from './send-message.ts';
import { messageFixture } from '#web/testing/message-fixture.ts';

afterEach(() => vi.restoreAllMocks());

function stored(patch: Partial<Message>): Message {
  return messageFixture(
    { id: 'M2', contactId: 'C1', serviceId: 'S1', text: '', isFromMe: true, ack: 1, user: { id: 'U1', name: 'Ana Souza' }, ...patch },
    '2026-11-25T14:02:00.000Z',
  );
}

describe('sending an internal note', () => {
  it('shows at once as a note, goes to POST /messages/notes (never /messages/send), and is replaced by the stored note', async () => {
    const client = new QueryClient();
    const key = messageKeys.list('C1', false);
    client.setQueryData(key, { pages: [{ data: [] as ChatMessage[], totalCount: 0 }], pageParams: [null] });
    let answer: (r: Response) => void = () => {};
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));

    const sent = sendOutgoing(client, { contactId: 'C1', serviceId: 'S1', text: 'Cliente VIP', kind: 'note', user: { id: 'U1', name: 'Ana Souza' } });
    const [local] = flattenMessages(client.getQueryData(key));
    expect(local).toMatchObject({ kind: 'note', text: 'Cliente VIP', isFromMe: true, local: { state: 'sending' } });

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/messages/notes');
    expect(JSON.parse(String(init!.body))).toEqual({ contactId: 'C1', text: 'Cliente VIP' });
    answer(new Response(JSON.stringify(stored({ kind: 'note', text: 'Cliente VIP' })), { status: 201 }));
    await sent;
    const list = flattenMessages(client.getQueryData(key));
    expect(list.map((m) => [m.id, m.kind, !!m.local])).toEqual([['M2', 'note', false]]);
  });
});
