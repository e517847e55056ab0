import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Contact } from '#contracts/contacts.ts';
import type { User } from '#contracts/entities.ts';
import { useContact } from '#web/api/get-contact.ts';
import { contactKeys } from '#web/api/keys.ts';
import { sessionStore } from '#web/lib/auth.ts';
import { toastStore } from '#web/lib/notify.ts';
import { ConversationHeader } from './conversation-header.tsx';
import { contactFixture } from '#web/testing/contact-fixture.ts';

const iso = '2026-11-25T12:00:00.000Z';
const ana = { id: 'u1', name: 'Ana Souza', isAdmin: false } as User;
const carla = { id: 'u0', name: 'Carla Dona', isAdmin: true } as User;

function contact(fields: Partial<Contact> = {}): Contact {
  return contactFixture(
    {
      id: 'c1',
      name: 'Helena Prado',
      idFromService: '1',
      service: { id: 's1', name: 'Bot da Loja', type: 'telegram' },
      departmentId: 'd1',
      department: { id: 'd1', name: 'Vendas' },
      tags: ['t1'],
      ...fields,
    },
    iso,
  );
}

const tags = [
  { id: 't1', name: 'VIP', color: '#db2777', createdAt: iso, updatedAt: iso },
  { id: 't2', name: 'Atacado', color: '#2563eb', createdAt: iso, updatedAt: iso },
];
const users = [
  { id: 'u1', name: 'Ana Souza', archivedAt: null },
  { id: 'u2', name: 'Bruno Lima', archivedAt: null },
  { id: 'u3', name: 'Carla Arquivada', archivedAt: iso },
];
const departments = [
  { id: 'd1', name: 'Vendas', userIds: ['u1'], archivedAt: null },
  { id: 'd2', name: 'Financeiro', userIds: [], archivedAt: null },
  { id: 'd3', name: 'Antigo', userIds: [], archivedAt: iso },
];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
type Handler = (url: string, init: RequestInit | undefined) => Response | undefined;

/** Answers the palette, the team and the departments; `handler` answers the rest (else 404). */
function mockApi(handler: Handler) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const answer = handler(url, init);
    if (answer) return answer;
    if (url.includes('/api/tags')) return json({ data: tags, totalCount: 2 });
    if (url.includes('/api/users')) return json({ data: users, totalCount: 3 });
    if (url.includes('/api/departments')) return json({ data: departments, totalCount: 3 });
    return json({ statusCode: 404, error: 'Not Found', message: 'Not found' }, 404);
  });
}

const calls = (fetchMock: ReturnType<typeof mockApi>, method: string, path: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => (init?.method ?? 'GET') === method && String(url).includes(path))
    .map(([, init]) => init?.body && JSON.parse(String(init.body)));

/** The header of the cached contact, as the inbox page shows it (it follows the cache). */
function Open() {
  const { data } = useContact('c1');
  return data ? <ConversationHeader contact={data} /> : null;
}

/** The list page: says which address it was opened with (the filters live in its query). */
function List() {
  const location = useLocation();
  return (
    <>
      <p>A lista de conversas</p>
      <output data-testid="list-address">{`${location.search}${(location.state as { list?: boolean } | null)?.list ? ' (lista escolhida)' : ''}`}</output>
    </>
  );
}

const filtered = '?tab=unassigned&status=pending&q=boleto&tags=t1';

function show(start: Contact, me: User, address = '/inbox/c1') {
  sessionStore.set({ accessToken: 'token', user: me });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY }, mutations: { retry: false } } });
  client.setQueryData(contactKeys.detail('c1'), start);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[address]}>
        <Routes>
          <Route path="/inbox/:contactId" element={<Open />} />
          <Route path="/inbox" element={<List />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

const toastTitles = () => toastStore.get().map((t) => t.title);
const facts = () => within(screen.getByTestId('conversation-facts'));

/** Pretends the screen is at least 640 px wide (jsdom has no matchMedia). */
function wideScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener: () => {}, removeEventListener: () => {} }));
}

beforeEach(() => toastStore.set([]));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the conversation header', () => {
  it('shows the status, that nobody handles it, the department and the tags', async () => {
    mockApi(() => undefined);
    show(contact(), ana);
    expect(facts().getByText('Aberta')).toBeTruthy();
    expect(screen.getByTestId('conversation-assignee').textContent).toBe('Não atribuída');
    expect(screen.getByTestId('conversation-department').textContent).toBe('Vendas');
    expect(await facts().findByText('VIP')).toBeTruthy();
  });

  it("goes back to the list with the list's filters: the address's query as it was", async () => {
    mockApi(() => undefined);
    show(contact(), ana, `/inbox/c1${filtered}`);
    const back = screen.getByRole('link', { name: 'Voltar para as conversas' });
    expect(back.getAttribute('href')).toBe(`/inbox${filtered}`);
    fireEvent.click(back);
    expect(await screen.findByText('A lista de conversas')).toBeTruthy();
    expect(screen.getByTestId('list-address').textContent).toBe(`${filtered} (lista escolhida)`);
  });

  it('lets a member take nobody’s conversation: the header follows the answer', async () => {
    const fetchMock = mockApi((url, init) =>
      init?.method === 'POST' && url.endsWith('/contacts/c1/take') ? json(contact({ userId: 'u1', user: { id: 'u1', name: 'Ana Souza' } })) : undefined,
    );
    show(contact(), ana);
    // A phone: 'Transferir' and the statuses are in the menu; 'Liberar' is not offered for nobody's.
    fireEvent.click(screen.getByRole('button', { name: 'Mais ações' }));
    const menu = screen.getByRole('menu', { name: 'Mais ações' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Transferir', 'Marcar como pendente', 'Resolver']);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Mais ações' }));

    fireEvent.click(screen.getByRole('button', { name: 'Assumir' }));
    await waitFor(() => expect(screen.getByTestId('conversation-assignee').textContent).toBe('Ana Souza'));
    expect(calls(fetchMock, 'POST', '/contacts/c1/take')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Assumir' })).toBeNull();
    expect(toastTitles()).toContain('Você assumiu a conversa');
    fireEvent.click(screen.getByRole('button', { name: 'Mais ações' }));
    expect(screen.getByRole('menuitem', { name: 'Liberar' })).toBeTruthy();
  });

  // A member sees someone else's conversation (and gets this 409) only with the account's 'membersSeeAll'.
  it('says who took it first when the take answers 409, and reads the conversation again', async () => {
    const fetchMock = mockApi((url, init) => {
      if (init?.method === 'POST' && url.endsWith('/contacts/c1/take')) {
        return json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: 'The conversation is already assigned to someone else',
            details: [{ path: 'userId', message: 'Bruno Lima já atende esta conversa' }],
          },
          409,
        );
      }
      if (url.endsWith('/contacts/c1')) return json(contact({ userId: 'u2', user: { id: 'u2', name: 'Bruno Lima' }, updatedAt: '2026-11-25T12:01:00.000Z' }));
      return undefined;
    });
    show(contact(), ana);
    fireEvent.click(screen.getByRole('button', { name: 'Assumir' }));
    await waitFor(() => expect(toastTitles()).toContain('Outra pessoa já assumiu esta conversa. Atualize a lista para ver quem a atende.'));
    expect(toastStore.get()[0]?.message).toBe('Bruno Lima já atende esta conversa');
    await waitFor(() => expect(screen.getByTestId('conversation-assignee').textContent).toBe('Bruno Lima'));
    expect(calls(fetchMock, 'GET', '/contacts/c1').length).toBeGreaterThan(0);
    // Someone else's conversation: a member has no action on it.
    expect(screen.queryByRole('button', { name: 'Assumir' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mais ações' })).toBeNull();
  });

  it('sends a member back to the list when the conversation taken first is no longer one they see', async () => {
    mockApi((url, init) =>
      init?.method === 'POST' && url.endsWith('/contacts/c1/take')
        ? json({ statusCode: 409, error: 'Conflict', message: 'The conversation is already assigned to someone else', details: [] }, 409)
        : undefined,
    );
    show(contact(), ana);
    fireEvent.click(screen.getByRole('button', { name: 'Assumir' }));
    expect(await screen.findByText('A lista de conversas')).toBeTruthy();
    expect(toastTitles()).toEqual(['Outra pessoa já assumiu esta conversa. Atualize a lista para ver quem a atende.']);
  });

  const notFound = () => json({ statusCode: 404, error: 'Not Found', message: 'Not found' }, 404);

  it.each([
    ['take', () => fireEvent.click(screen.getByRole('button', { name: 'Assumir' }))],
    [
      'status',
      () => {
        fireEvent.click(screen.getByRole('button', { name: 'Mais ações' }));
        fireEvent.click(screen.getByRole('menuitem', { name: 'Resolver' }));
      },
    ],
  ] as const)(
    'tells a member whose %s answers 404 (someone else took it: hidden from them now) that it is gone, back on the list read again',
    async (action, trigger) => {
      const fetchMock = mockApi((url, init) => (init?.method === 'POST' && url.endsWith(`/contacts/c1/${action}`) ? notFound() : undefined));
      const client = show(contact(), ana, `/inbox/c1${filtered}`);
      const list = contactKeys.inbox({ tab: 'unassigned' });
      client.setQueryData(list, { data: [contact()], totalCount: 1 });
      trigger();
      expect(await screen.findByText('A lista de conversas')).toBeTruthy();
      expect(screen.getByTestId('list-address').textContent).toBe(`${filtered} (lista escolhida)`);
      expect(toastStore.get().map(({ tone, title, message }) => ({ tone, title, message }))).toEqual([
        { tone: 'error', title: 'Esta conversa não está mais disponível para você', message: 'Outra pessoa pode tê-la assumido.' },
      ]);
      expect(client.getQueryState(list)?.isInvalidated).toBe(true);
      expect(calls(fetchMock, 'POST', `/contacts/c1/${action}`)).toHaveLength(1);
    },
  );

  it('offers an admin, on a wide screen, Transferir as a button and Liberar and the statuses in the menu, moved by the keyboard', async () => {
    wideScreen();
    const fetchMock = mockApi((url, init) =>
      init?.method === 'POST' && url.endsWith('/contacts/c1/status')
        ? json(contact({ userId: 'u2', user: { id: 'u2', name: 'Bruno Lima' }, status: 'resolved' }))
        : undefined,
    );
    show(contact({ userId: 'u2', user: { id: 'u2', name: 'Bruno Lima' } }), carla);
    expect(screen.queryByRole('button', { name: 'Assumir' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Transferir' })).toBeTruthy();
    const trigger = screen.getByRole('button', { name: 'Mais ações' });
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Liberar', 'Marcar como pendente', 'Resolver']);
    expect(document.activeElement?.textContent).toBe('Liberar');
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Resolver');
    fireEvent.click(document.activeElement as HTMLElement);
    await waitFor(() => expect(facts().getByText('Resolvida')).toBeTruthy());
    expect(calls(fetchMock, 'POST', '/contacts/c1/status')).toEqual([{ status: 'resolved' }]);
    expect(toastTitles()).toContain('Conversa resolvida');
    fireEvent.click(screen.getByRole('button', { name: 'Mais ações' }));
    expect(screen.getByRole('menuitem', { name: 'Reabrir' })).toBeTruthy();
  });

  it('changes the contact’s tags from the header', async () => {
    const fetchMock = mockApi((url, init) => (init?.method === 'PUT' && url.endsWith('/contacts/c1/tags') ? json(contact({ tags: ['t1', 't2'] })) : undefined));
    show(contact(), ana);
    await facts().findByText('VIP');
    fireEvent.click(screen.getByRole('button', { name: 'Etiquetas de Helena Prado' }));
    const dialog = screen.getByRole('dialog', { name: 'Etiquetas de Helena Prado' });
    expect((within(dialog).getByRole('checkbox', { name: 'VIP' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Atacado' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(facts().getByText('Atacado')).toBeTruthy());
    expect(calls(fetchMock, 'PUT', '/contacts/c1/tags')).toEqual([{ tagIds: ['t1', 't2'] }]);
  });
});

describe('the transfer dialog', () => {
  async function openTransfer() {
    fireEvent.click(screen.getByRole('button', { name: 'Transferir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transferir conversa' });
    await within(dialog).findByLabelText('Usuário');
    return dialog;
  }

  it('offers the active users and departments only, and asks for one of them', async () => {
    wideScreen();
    const fetchMock = mockApi(() => undefined);
    show(contact(), ana);
    const dialog = await openTransfer();
    const options = (label: string) => [...(within(dialog).getByLabelText(label) as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options('Usuário')).toEqual(['Ninguém', 'Ana Souza', 'Bruno Lima']);
    expect(options('Departamento')).toEqual(['Manter Vendas', 'Vendas', 'Financeiro']);
    expect(within(dialog).getByLabelText('Nota interna (opcional)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    expect(await within(dialog).findByText('Escolha um usuário ou um departamento')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nota interna (opcional)'), { target: { value: 'x'.repeat(1001) } });
    fireEvent.change(within(dialog).getByLabelText('Usuário'), { target: { value: 'u2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    expect(await within(dialog).findByText('Use no máximo 1000 caracteres')).toBeTruthy();
    expect(calls(fetchMock, 'POST', '/transfer')).toHaveLength(0);
  });

  it('shows the server’s field message (a department archived meanwhile)', async () => {
    wideScreen();
    mockApi((url, init) =>
      init?.method === 'POST' && url.endsWith('/transfer')
        ? json(
            {
              statusCode: 400,
              error: 'Bad Request',
              message: 'Invalid params',
              details: [{ path: 'departmentId', message: 'Departamento não encontrado' }],
            },
            400,
          )
        : undefined,
    );
    show(contact(), ana);
    const dialog = await openTransfer();
    fireEvent.change(within(dialog).getByLabelText('Departamento'), { target: { value: 'd2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    expect(await within(dialog).findByText('Departamento não encontrado')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Transferir conversa' })).toBeTruthy();
  });

  it('sends a member who transferred to a queue they are not in back to the list, with a toast', async () => {
    const transferred = contact({ userId: null, user: null, departmentId: 'd2', department: { id: 'd2', name: 'Financeiro' } });
    const fetchMock = mockApi((url, init) => {
      if (init?.method === 'POST' && url.endsWith('/contacts/c1/transfer')) return json(transferred);
      return undefined; // GET /contacts/c1 now answers 404: not theirs to see any more.
    });
    show(contact({ userId: 'u1', user: { id: 'u1', name: 'Ana Souza' } }), ana, `/inbox/c1${filtered}`);
    // A phone: 'Transferir' is in the menu.
    fireEvent.click(screen.getByRole('button', { name: 'Mais ações' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Transferir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transferir conversa' });
    await within(dialog).findByLabelText('Departamento');
    fireEvent.change(within(dialog).getByLabelText('Departamento'), { target: { value: 'd2' } });
    fireEvent.change(within(dialog).getByLabelText('Nota interna (opcional)'), { target: { value: '  Cliente pediu o boleto  ' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    });
    expect(await screen.findByText('A lista de conversas')).toBeTruthy();
    expect(screen.getByTestId('list-address').textContent).toBe(`${filtered} (lista escolhida)`);
    expect(calls(fetchMock, 'POST', '/contacts/c1/transfer')).toEqual([{ userId: null, departmentId: 'd2', note: 'Cliente pediu o boleto' }]);
    expect(toastTitles()).toContain('Conversa transferida para Financeiro.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps a member on a conversation they still see after releasing it', async () => {
    const released = contact({ userId: null, user: null, updatedAt: '2026-11-25T12:02:00.000Z' });
    mockApi((url, init) => {
      if (init?.method === 'POST' && url.endsWith('/contacts/c1/release')) return json(released);
      if (url.endsWith('/contacts/c1')) return json(released);
      return undefined;
    });
    show(contact({ userId: 'u1', user: { id: 'u1', name: 'Ana Souza' } }), ana);
    fireEvent.click(screen.getByRole('button', { name: 'Mais ações' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Liberar' }));
    await waitFor(() => expect(toastTitles()).toContain('Conversa liberada.'));
    expect(screen.getByTestId('conversation-assignee').textContent).toBe('Não atribuída');
    expect(screen.getByRole('button', { name: 'Assumir' })).toBeTruthy();
    expect(screen.queryByText('A lista de conversas')).toBeNull();
  });
});
