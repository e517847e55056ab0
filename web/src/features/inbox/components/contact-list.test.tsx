import { act, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Contact } from '#contracts/contacts.ts';
import type { RealtimeEvent } from '#contracts/realtime.ts';
import { contactKeys } from '#web/api/keys.ts';
import { applyRealtimeEvent } from '#web/app/realtime-sync.ts';
import { emptyInboxFilters } from '#web/features/inbox/api/get-inbox-contacts.ts';
import * as format from '#web/lib/format.ts';
import { ContactList, contactListOverscan } from './contact-list.tsx';
import { contactRowHeight } from './contact-row.tsx';
import { contactFixture } from '#web/testing/contact-fixture.ts';

const t0 = Date.parse('2026-11-23T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function contact(i: number): Contact {
  return contactFixture(
    {
      id: `C${String(1000 - i).padStart(6, '0')}`,
      name: `Cliente ${i + 1}`,
      data: { email: `cliente${i + 1}@example.com`, phoneNumber: null, phoneCountry: null },
      idFromService: String(i),
      serviceId: 'S1',
      service: { id: 'S1', name: 'Loja', type: 'whatsapp' },
      lastMessage: { id: `M${i}`, text: `Mensagem ${i + 1}`, type: 'text', isFromMe: true, ack: 3, timestamp: iso(t0 - i * 60_000), file: null },
      lastMessageAt: iso(t0 - i * 60_000),
      createdAt: iso(t0 - 86_400_000),
    },
    iso(t0 - i * 60_000),
  );
}

/** Runs a cache change and lets TanStack Query deliver it (its notifications are batched on a timer). */
async function settle(change: () => void) {
  await act(async () => {
    change();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the inbox contact list under realtime events', () => {
  it('renders a new incoming message by re-rendering that contact’s row only, moved to the top', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
    const contacts = Array.from({ length: 30 }, (_, i) => contact(i));
    client.setQueryData(contactKeys.inbox(emptyInboxFilters), { pages: [{ data: contacts, totalCount: 30 }], pageParams: [0] });
    // jsdom lays nothing out: the list's scroll box gets a phone's size, so the virtualiser shows
    // what would be visible (and its overscan), not all 30 rows.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'inbox-contacts-scroll' ? 700 : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'inbox-contacts-scroll' ? 360 : 0;
    });
    // Each row draws its avatar's initials once per render: a render counter per row, by name.
    const rendered = vi.spyOn(format, 'initials');
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/inbox']}>
          <ContactList filters={emptyInboxFilters} onFiltersChange={() => {}} selectedId={undefined} services={[]} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const rows = await screen.findAllByTestId('inbox-contact');
    // What 700 px show (8 rows of 88 px) and the overscan below them, each rendered once.
    expect(rows).toHaveLength(Math.ceil(700 / contactRowHeight) + contactListOverscan);
    const shown = rendered.mock.calls.map(([name]) => name);
    expect(shown).toEqual(contacts.slice(0, rows.length).map((c) => c.name));

    // Contact 10 gets a message: one contact.UPDATED, as the server sends it after message.CREATED.
    rendered.mockClear();
    const previous = contacts[9]!;
    const updated = {
      ...previous,
      lastMessage: { id: 'M-new', text: 'Chegou agora', type: 'text', isFromMe: false, ack: 0, timestamp: iso(t0 + 1000), file: null },
      lastMessageAt: iso(t0 + 1000),
      unread: 1,
      updatedAt: iso(t0 + 1000),
    } as Contact;
    await settle(() => applyRealtimeEvent(client, { event: 'contact.UPDATED', data: updated } as RealtimeEvent));

    const after = screen.getAllByTestId('inbox-contact');
    expect(after[0]!.textContent).toContain('Chegou agora');
    expect(after[0]!.textContent).toContain('Cliente 10');
    expect(rendered.mock.calls.map(([name]) => name)).toEqual(['Cliente 10']);

    // A burst of events for other contacts: each re-renders its own row once.
    rendered.mockClear();
    await settle(() => {
      for (const i of [3, 7, 20]) {
        const c = contacts[i]!;
        applyRealtimeEvent(client, {
          event: 'contact.UPDATED',
          data: { ...c, lastMessage: { ...c.lastMessage!, id: `M-${i}-b` }, lastMessageAt: iso(t0 + 2000 + i), updatedAt: iso(t0 + 2000 + i) },
        } as RealtimeEvent);
      }
    });
    expect(rendered.mock.calls.map(([name]) => name).sort()).toEqual(['Cliente 21', 'Cliente 4', 'Cliente 8']);
  });
});
