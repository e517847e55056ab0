import { useState } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A loaded machine runs several suites at once: waits get more than the default second. */
const slow = { timeout: 5000 };
import type { Contact } from '#contracts/contacts.ts';
import type { InboxCounts } from '#contracts/conversations.ts';
import type { RealtimeEvent } from '#contracts/realtime.ts';
import { applyRealtimeEvent } from '#web/app/realtime-sync.ts';
import { emptyInboxFilters, type InboxFilters } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { countsRefreshDelayMs } from '#web/features/inbox/api/get-inbox-counts.ts';
import { ContactList } from './contact-list.tsx';

const me = 'U-me';
const tags = [
  { id: 'T1', name: 'VIP', color: '#db2777' },
  { id: 'T2', name: 'Atacado', color: '#2563eb' },
  { id: 'T3', name: 'Revenda', color: '#7c3aed' },
];
const departments = [{ id: 'D1', name: 'Vendas', userIds: [me], archivedAt: null }];

function contact(id: string, name: string, extra: Partial<Contact>): Contact {
  return {
    id,
    name,
    type: 'user',
    data: { email: null, phoneNumber: null, phoneCountry: null },
    serviceId: 'S1',
    service: { id: 'S1', name: 'Loja', type: 'whatsapp' },
    avatar: null,
    avatarUrl: null,
    archivedAt: null,
    lastMessage: { id: `M-${id}`, text: 'Oi', type: 'text', isFromMe: false, ack: 0, timestamp: '2026-11-25T12:00:00.000Z', file: null },
    lastMessageAt: '2026-11-25T12:00:00.000Z',
    unread: 0,
    status: 'open',
    userId: null,
    user: null,
    departmentId: null,
    department: null,
    tags: [],
    createdAt: '2026-11-20T12:00:00.000Z',
    updatedAt: '2026-11-25T12:00:00.000Z',
    ...extra,
  } as unknown as Contact;
}

const joana = contact('C1', 'Joana Pereira', {
  userId: me,
  user: { id: me, name: 'Ana Souza' },
  departmentId: 'D1',
  department: { id: 'D1', name: 'Vendas' },
  tags: ['T1', 'T2', 'T3', 'T-deleted'],
});
const rafael = contact('C2', 'Rafael Gomes', {});

const initialCounts: InboxCounts = {
  mine: { total: 2, open: 1, pending: 1, resolved: 0 },
  unassigned: { total: 1, open: 1, pending: 0, resolved: 0 },
  all: { total: 5, open: 2, pending: 1, resolved: 2 },
};

let counts = initialCounts;

/** The `where` of each GET to `path` so far. */
const wheres = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls
    .map(([url]) => new URL(String(url), 'http://x'))
    .filter((url) => url.pathname.endsWith(path))
    .map((url) => JSON.parse(url.searchParams.get('query') ?? '{}').where);

function mockApi() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://x');
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    if (url.pathname.endsWith('/inbox/counts')) return json(counts);
    if (url.pathname.endsWith('/tags')) return json({ data: tags, totalCount: tags.length });
    if (url.pathname.endsWith('/departments')) return json({ data: departments, totalCount: 1 });
    if (url.pathname.endsWith('/contacts')) {
      const where = JSON.parse(url.searchParams.get('query') ?? '{}').where;
      const data = [joana, rafael].filter((c) => (where.userId === undefined || c.userId === where.userId) && (!where.tags || c.tags.includes(where.tags)));
      return json({ data, totalCount: data.length });
    }
    return new Response('{}', { status: 404 });
  });
}

function Harness({ initial }: { initial: InboxFilters }) {
  const [filters, setFilters] = useState(initial);
  return <ContactList filters={filters} onFiltersChange={setFilters} selectedId={undefined} services={[]} />;
}

function renderList(initial: Partial<InboxFilters> = {}) {
  // jsdom lays nothing out: the list's scroll box gets a phone's size so the virtualiser shows rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.testid === 'inbox-contacts-scroll' ? 700 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.testid === 'inbox-contacts-scroll' ? 360 : 0;
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/inbox?tab=mine']}>
        <Harness initial={{ ...emptyInboxFilters, status: 'open', me, ...initial }} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

afterEach(() => {
  counts = initialCounts;
  cleanup();
  vi.restoreAllMocks();
});

describe('the inbox list’s tabs and filters', () => {
  it('shows the counts of the chosen status, who handles each row, its department and at most two tags', async () => {
    const fetchMock = mockApi();
    renderList();
    await screen.findByRole('tab', { name: 'Todos, 2 conversas' }, slow);
    expect(screen.getByRole('tab', { name: 'Meus, 1 conversa' })).toBeTruthy();
    const status = screen.getByLabelText('Status das conversas') as HTMLSelectElement;
    expect(status.value).toBe('open');
    expect([...status.options].map((o) => o.text)).toEqual(['Abertas (2)', 'Pendentes (1)', 'Resolvidas (2)', 'Todas (5)']);

    const rows = await screen.findAllByTestId('inbox-contact', {}, slow);
    await waitFor(() => expect(within(rows[0]!).getByTestId('inbox-contact-assignment').textContent).toContain('VIP'), slow);
    const first = within(rows[0]!).getByTestId('inbox-contact-assignment');
    expect(first.textContent).toBe('Atendente: Ana SouzaDepartamento: VendasEtiquetas: VIPAtacado+1 etiqueta');
    expect(within(rows[1]!).getByTestId('inbox-contact-assignment').textContent).toBe('Atendente: Não atribuída');
    // The opened conversation keeps the list's address.
    expect(rows[0]!.getAttribute('href')).toBe('/inbox/C1?tab=mine');

    // The list asks for open conversations of every tab; the counts get the same filters without status nor assignee.
    expect(wheres(fetchMock, '/contacts').at(-1)).toEqual({ archivedAt: null, status: 'open' });
    expect(wheres(fetchMock, '/inbox/counts')).toEqual([{ archivedAt: null }]);
  });

  it('sends the tab, status, department and tag to the list, and the shared filters alone to the counts', async () => {
    const fetchMock = mockApi();
    renderList();
    await screen.findByRole('tab', { name: 'Meus, 1 conversa' }, slow);

    fireEvent.click(screen.getByRole('tab', { name: 'Meus, 1 conversa' }));
    await waitFor(() => expect(wheres(fetchMock, '/contacts').at(-1)).toEqual({ archivedAt: null, status: 'open', userId: me }), slow);
    fireEvent.click(screen.getByRole('tab', { name: /^Não atribuídos/ }));
    await waitFor(() => expect(wheres(fetchMock, '/contacts').at(-1)).toEqual({ archivedAt: null, status: 'open', userId: null }), slow);
    fireEvent.change(screen.getByLabelText('Status das conversas'), { target: { value: '' } });
    await waitFor(() => expect(wheres(fetchMock, '/contacts').at(-1)).toEqual({ archivedAt: null, userId: null }), slow);
    // Tabs and status share one counts answer.
    expect(wheres(fetchMock, '/inbox/counts')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Filtros' }));
    const department = screen.getByLabelText('Departamento') as HTMLSelectElement;
    await waitFor(() => expect([...department.options].map((o) => o.text)).toEqual(['Todos os departamentos', 'Sem departamento', 'Vendas']), slow);
    fireEvent.change(department, { target: { value: 'D1' } });
    await waitFor(() => expect(wheres(fetchMock, '/contacts').at(-1)).toEqual({ archivedAt: null, userId: null, departmentId: 'D1' }), slow);
    fireEvent.change(screen.getByLabelText('Etiqueta'), { target: { value: 'T2' } });
    await waitFor(() => expect(wheres(fetchMock, '/contacts').at(-1)).toEqual({ archivedAt: null, userId: null, departmentId: 'D1', tags: 'T2' }), slow);
    expect(wheres(fetchMock, '/inbox/counts').at(-1)).toEqual({ archivedAt: null, departmentId: 'D1', tags: 'T2' });
    expect(screen.getByRole('button', { name: 'Filtros (2)' })).toBeTruthy();
    fireEvent.change(department, { target: { value: 'none' } });
    await waitFor(() => expect(wheres(fetchMock, '/contacts').at(-1)).toEqual({ archivedAt: null, userId: null, departmentId: null, tags: 'T2' }), slow);
  });

  it('says what each empty tab lacks', async () => {
    mockApi();
    renderList({ tab: 'mine', tagId: 'T9' });
    expect((await screen.findByTestId('inbox-empty', {}, slow)).textContent).toBe(
      'Nenhuma conversa atribuída a você.Nenhuma conversa aberta com estes filtros.',
    );
    cleanup();
    renderList({ tab: 'mine', me: 'U-nobody' });
    expect((await screen.findByTestId('inbox-empty', {}, slow)).textContent).toBe(
      'Nenhuma conversa atribuída a você.Assuma uma conversa em Não atribuídos para ela aparecer aqui.',
    );
    expect(screen.getByRole('tabpanel', { name: /^Meus/ })).toBeTruthy();
  });

  it('refetches the counts once for a burst of realtime events, and drops a conversation someone else takes from Não atribuídos', async () => {
    const fetchMock = mockApi();
    const client = renderList({ tab: 'unassigned' });
    await screen.findByRole('tab', { name: 'Não atribuídos, 1 conversa' }, slow);
    await waitFor(() => expect(screen.getAllByTestId('inbox-contact').map((r) => r.textContent)).toEqual([expect.stringContaining('Rafael Gomes')]), slow);
    expect(wheres(fetchMock, '/inbox/counts')).toHaveLength(1);

    counts = { ...counts, unassigned: { total: 0, open: 0, pending: 0, resolved: 0 } };
    const taken = { ...rafael, userId: 'U-bruno', user: { id: 'U-bruno', name: 'Bruno Lima' }, updatedAt: '2026-11-25T12:01:00.000Z' } as Contact;
    applyRealtimeEvent(client, { event: 'contact.UPDATED', data: taken } as RealtimeEvent);
    for (let i = 0; i < 5; i++) {
      applyRealtimeEvent(client, { event: 'message.CREATED', data: { ...joana.lastMessage, id: `M-burst-${i}`, contactId: 'C1' } } as unknown as RealtimeEvent);
    }
    await screen.findByRole('tab', { name: 'Não atribuídos, 0 conversas' }, slow);
    expect(await screen.findByText('Nenhuma conversa aguardando atendimento.', {}, slow)).toBeTruthy();
    await new Promise((r) => setTimeout(r, countsRefreshDelayMs + 100));
    expect(wheres(fetchMock, '/inbox/counts')).toHaveLength(2);
  });
});
