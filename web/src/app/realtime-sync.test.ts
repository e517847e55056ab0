import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { Message } from '#contracts/messages.ts';
import { emptyInboxFilters, inboxContactsQueryOptions } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { addLocalMessage, flattenMessages, messagesQueryOptions, settleLocalMessage, type ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import type { Service } from '#contracts/services.ts';
import { serviceKeys } from '#web/api/keys.ts';
import { sessionStore, setSession } from '#web/lib/auth.ts';
import { applyRealtimeEvent, loadRealtimeParser } from './realtime-sync.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { messageFixture } from '#web/testing/message-fixture.ts';

const at = (s: number) => new Date(Date.UTC(2025, 5, 8, 12, 0, s)).toISOString();

function message(id: string, patch: Partial<Message> = {}): Message {
  return messageFixture({ id, ...patch }, at(0));
}

function contact(id: string, patch: Partial<Contact> = {}): Contact {
  return contactFixture({ id, name: `Contato ${id}`, ...patch }, at(0));
}

function conversation(client: QueryClient, messages: Message[]) {
  const key = messagesQueryOptions('c1').queryKey;
  client.setQueryData(key, { pages: [{ data: messages, totalCount: messages.length }], pageParams: [null] });
  return () => flattenMessages(client.getQueryData(key));
}

afterEach(() => vi.restoreAllMocks());

describe('realtime events in the cache', () => {
  it('reads the server format { event, data } with the shared contract', async () => {
    const parseRealtimeEvent = await loadRealtimeParser();
    const stored = message('01A');
    expect(parseRealtimeEvent(JSON.stringify({ event: 'message.CREATED', data: stored }))).toEqual({ event: 'message.CREATED', data: stored });
    // A nullable field missing on the wire reads as null.
    const { error: _error, ...withoutError } = stored;
    expect(parseRealtimeEvent(JSON.stringify({ event: 'message.UPDATED', data: withoutError }))?.data).toEqual(stored);
  });

  it('ignores unknown and invalid events without touching the cache', async () => {
    const parseRealtimeEvent = await loadRealtimeParser();
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const client = new QueryClient();
    const read = conversation(client, [message('01A')]);
    const ignored = [
      'not json',
      JSON.stringify({ type: 'x' }),
      JSON.stringify({ event: 'tag.CREATED', data: { id: 't1' } }),
      JSON.stringify({ event: 'message.CREATED', data: { id: 'm1' } }),
      JSON.stringify({ event: 'contact.UPDATED', data: message('01B') }),
    ];
    for (const raw of ignored) {
      const event = parseRealtimeEvent(raw);
      expect(event).toBeNull();
      if (event) applyRealtimeEvent(client, event);
    }
    expect(debug).toHaveBeenCalledTimes(ignored.length);
    expect(read().map((m) => m.id)).toEqual(['01A']);
  });

  it('adds a new message to the open conversation once, however often it is delivered', () => {
    const client = new QueryClient();
    const read = conversation(client, [message('01B'), message('01A')]);
    const event = { event: 'message.CREATED' as const, data: message('01C') };
    applyRealtimeEvent(client, event);
    applyRealtimeEvent(client, event);
    expect(read().map((m) => m.id)).toEqual(['01A', '01B', '01C']);
  });

  it('replaces a message by id and keeps the later version', () => {
    const client = new QueryClient();
    const read = conversation(client, [message('01A', { isFromMe: true, ack: 1, updatedAt: at(5) })]);
    applyRealtimeEvent(client, { event: 'message.UPDATED', data: message('01A', { isFromMe: true, ack: 3, updatedAt: at(9) }) });
    applyRealtimeEvent(client, { event: 'message.UPDATED', data: message('01A', { isFromMe: true, ack: 2, updatedAt: at(7) }) });
    expect(read()[0]!.ack).toBe(3);
  });

  it('never shows a sent message twice when its event comes before the send answer', () => {
    const client = new QueryClient();
    const read = conversation(client, [message('01A')]);
    const local: ChatMessage = { ...message('local-1', { isFromMe: true, text: 'Olá' }), local: { state: 'sending' } };
    addLocalMessage(client, local);
    expect(read().map((m) => m.id)).toEqual(['01A', 'local-1']);
    const stored = message('01B', { isFromMe: true, text: 'Olá', ack: 0 });
    applyRealtimeEvent(client, { event: 'message.CREATED', data: stored });
    expect(read().map((m) => m.id)).toEqual(['01A', '01B']);
    settleLocalMessage(client, 'c1', 'local-1', stored);
    applyRealtimeEvent(client, { event: 'message.UPDATED', data: { ...stored, ack: 1, updatedAt: at(3) } });
    expect(read().map((m) => [m.id, m.ack])).toEqual([
      ['01A', 0],
      ['01B', 1],
    ]);
  });

  it('moves a contact with a new message to the top of the inbox list', () => {
    const client = new QueryClient();
    const key = inboxContactsQueryOptions(emptyInboxFilters).queryKey;
    client.setQueryData(key, {
      pages: [{ data: [contact('a', { lastMessageAt: at(9) }), contact('b', { lastMessageAt: at(5) })], totalCount: 2 }],
      pageParams: [0],
    });
    applyRealtimeEvent(client, { event: 'contact.UPDATED', data: contact('b', { lastMessageAt: at(20), unread: 0, updatedAt: at(20) }) });
    expect(client.getQueryData(key)!.pages[0]!.data.map((c) => c.id)).toEqual(['b', 'a']);
  });

  it('drops an archived contact from a list that hides archived ones, and adds a new one', () => {
    const client = new QueryClient();
    const key = inboxContactsQueryOptions(emptyInboxFilters).queryKey;
    client.setQueryData(key, { pages: [{ data: [contact('a', { lastMessageAt: at(9) })], totalCount: 1 }], pageParams: [0] });
    applyRealtimeEvent(client, { event: 'contact.CREATED', data: contact('n', { lastMessageAt: at(30), updatedAt: at(30) }) });
    applyRealtimeEvent(client, { event: 'contact.UPDATED', data: contact('a', { archivedAt: at(31), updatedAt: at(31) }) });
    const page = client.getQueryData(key)!.pages[0]!;
    expect(page.data.map((c) => c.id)).toEqual(['n']);
    expect(page.totalCount).toBe(1);
  });

  it('rings "Nova mensagem" once per incoming message, at volume 0.5', async () => {
    const shown: { title: string; body?: string }[] = [];
    class FakeNotification {
      static permission = 'granted';
      static requestPermission = vi.fn();
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body });
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    const volumes: number[] = [];
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      volumes.push(this.volume);
      return Promise.resolve();
    });
    const client = new QueryClient();
    const last = { id: 'm-new', text: 'Oi, tudo bem?', type: 'text' as const, isFromMe: false, ack: 0, timestamp: at(1), file: null };
    applyRealtimeEvent(client, { event: 'contact.UPDATED', data: contact('a', { lastMessage: last, unread: 1 }) });
    applyRealtimeEvent(client, { event: 'contact.UPDATED', data: contact('a', { lastMessage: last, unread: 1 }) });
    applyRealtimeEvent(client, { event: 'contact.UPDATED', data: contact('a', { lastMessage: { ...last, id: 'm-mine', isFromMe: true }, unread: 0 }) });
    await Promise.resolve();
    expect(shown).toEqual([{ title: 'Nova mensagem', body: 'Oi, tudo bem?' }]);
    expect(volumes).toEqual([0.5]);
    vi.unstubAllGlobals();
  });

  it('refreshes the signed-in user when their own user item changes', () => {
    const client = new QueryClient();
    const user = {
      id: 'u1',
      name: 'Ana',
      email: 'ana@x.com',
      accountId: 'a1',
      account: { id: 'a1', name: 'Loja' },
      avatar: null,
      isAdmin: true,
      isOwner: true,
      emailVerified: true,
      pendingEmail: null,
      archivedAt: null,
      archivedReason: null,
      skipSignature: false,
      createdAt: at(0),
      updatedAt: at(0),
    };
    setSession({ accessToken: 't', user });
    applyRealtimeEvent(client, { event: 'user.UPDATED', data: { ...user, name: 'Ana Lima', updatedAt: at(9) } });
    expect(sessionStore.get().user?.name).toBe('Ana Lima');
    applyRealtimeEvent(client, { event: 'user.UPDATED', data: { ...user, id: 'u2', name: 'Outra' } });
    expect(sessionStore.get().user?.name).toBe('Ana Lima');
  });

  it("keeps an admin's Cloud API webhook details when a connection's event (sent to every member, without them) updates it", () => {
    const client = new QueryClient();
    const cloud: Service = {
      id: 's1',
      name: 'WhatsApp oficial',
      type: 'whatsapp_cloud',
      status: 'connected',
      connected: true,
      data: { qrCode: null, pairingCode: null },
      internalData: {},
      statusReason: null,
      defaultDepartmentId: null,
      readReceipts: true,
      webhook: { path: '/api/webhooks/whatsapp-cloud/s1', verifyToken: 'segredo-de-verificacao' },
      createdAt: at(0),
      updatedAt: at(0),
    };
    client.setQueryData(serviceKeys.detail('s1'), cloud);
    const { webhook: _, ...event } = { ...cloud, status: 'disconnected' as const, connected: false, updatedAt: at(5) };
    applyRealtimeEvent(client, { event: 'service.UPDATED', data: event });
    expect(client.getQueryData<Service>(serviceKeys.detail('s1'))).toEqual({ ...event, webhook: cloud.webhook });
    // An older event changes nothing.
    applyRealtimeEvent(client, { event: 'service.UPDATED', data: { ...event, status: 'connected', updatedAt: at(1) } });
    expect(client.getQueryData<Service>(serviceKeys.detail('s1'))?.status).toBe('disconnected');
  });
});
