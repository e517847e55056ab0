import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contracts/entities.ts';
import { clearSession, setSession } from '#web/lib/auth.ts';
import { toastStore } from '#web/lib/notify.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { UserFormModal, UserViewModal } from './user-modals.tsx';
import { UsersTable } from './users-table.tsx';

/** A loaded machine runs several suites at once: waits get more than the default second. */
const slow = { timeout: 5000 };
const at = '2026-01-01T00:00:00.000Z';
const user = (fields: Partial<User>): User => ({
  id: 'u2',
  name: 'Marina Costa',
  email: 'marina@antigo.com',
  accountId: 'a1',
  account: { id: 'a1', name: 'Doceria' },
  avatar: null,
  isAdmin: false,
  isOwner: false,
  emailVerified: true,
  pendingEmail: null,
  archivedAt: null,
  archivedReason: null,
  skipSignature: false,
  createdAt: at,
  updatedAt: at,
  ...fields,
});
const owner = user({ id: 'u1', name: 'Carla Souza', email: 'carla@doceria.com', isAdmin: true, isOwner: true });

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** GET /users/{id} answers `stored`; PUT answers `saved`; GET /users the list of `stored`. */
function mockApi(stored: User, saved?: User) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname === `/api/users/${stored.id}` && init?.method === 'PUT') return json(saved);
    if (url.pathname === `/api/users/${stored.id}`) return json(stored);
    if (url.pathname === '/api/users') return json({ data: [owner, stored], totalCount: 2 });
    return json({ error: 'Not found' }, 404);
  });
}

beforeEach(() => setSession({ accessToken: 't', user: owner }));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  clearSession();
  toastStore.set([]);
});

describe('a user’s e-mail change waiting for its code', () => {
  it('the save’s toast says the code went to the new address and the e-mail changes only once confirmed', async () => {
    const fetchMock = mockApi(user({}), user({ pendingEmail: 'marina@novo.com' }));
    const onSaved = vi.fn();
    renderWithProviders(<UserFormModal id="u2" onClose={() => {}} onSaved={onSaved} />);
    const email = (await screen.findByLabelText(/^Email/, undefined, slow)) as HTMLInputElement;
    expect(email.value).toBe('marina@antigo.com');
    // No change waiting: no hint.
    expect(email.getAttribute('aria-describedby')).toBeNull();
    fireEvent.change(email, { target: { value: 'marina@novo.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), slow);
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).toMatchObject({ email: 'marina@novo.com' });
    expect(toastStore.get()).toEqual([
      expect.objectContaining({
        tone: 'success',
        title: 'Usuário atualizado',
        message: 'Enviamos um código de confirmação para marina@novo.com. O e-mail só muda depois da confirmação.',
      }),
    ]);
  });

  it('a save with no change waiting keeps the plain toast', async () => {
    mockApi(user({}), user({ name: 'Marina C.' }));
    const onSaved = vi.fn();
    renderWithProviders(<UserFormModal id="u2" onClose={() => {}} onSaved={onSaved} />);
    fireEvent.change(await screen.findByLabelText(/^Nome/, undefined, slow), { target: { value: 'Marina C.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), slow);
    expect(toastStore.get()).toEqual([expect.objectContaining({ title: 'Usuário atualizado', message: undefined })]);
  });

  it('editing a user with a pending address shows it under the Email field, tied to the input', async () => {
    mockApi(user({ pendingEmail: 'marina@novo.com' }));
    renderWithProviders(<UserFormModal id="u2" onClose={() => {}} onSaved={() => {}} />);
    const email = (await screen.findByLabelText(/^Email/, undefined, slow)) as HTMLInputElement;
    const hint = screen.getByText('Aguardando confirmação de marina@novo.com. Até lá, o e-mail continua sendo marina@antigo.com.').closest('p')!;
    expect(hint.id).toBeTruthy();
    expect(email.getAttribute('aria-describedby')).toBe(hint.id);
    // The field holds the address asked for, so that a save leaves the change waiting.
    expect(email.value).toBe('marina@novo.com');
  });

  it('a save that does not touch the e-mail keeps the change waiting, and says no new code was sent', async () => {
    const pending = user({ pendingEmail: 'marina@novo.com' });
    const fetchMock = mockApi(pending, { ...pending, name: 'Marina C.' });
    const onSaved = vi.fn();
    renderWithProviders(<UserFormModal id="u2" onClose={() => {}} onSaved={onSaved} />);
    fireEvent.change(await screen.findByLabelText(/^Nome/, undefined, slow), { target: { value: 'Marina C.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), slow);
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    // The pending address sent again changes nothing on the server; the current one would cancel it.
    expect(JSON.parse(String(put[1]!.body))).toMatchObject({ name: 'Marina C.', email: 'marina@novo.com' });
    expect(toastStore.get()).toEqual([expect.objectContaining({ title: 'Usuário atualizado', message: undefined })]);
  });

  it('the current address typed back cancels the waiting change, and the toast says so', async () => {
    const fetchMock = mockApi(user({ pendingEmail: 'marina@novo.com' }), user({}));
    const onSaved = vi.fn();
    renderWithProviders(<UserFormModal id="u2" onClose={() => {}} onSaved={onSaved} />);
    fireEvent.change(await screen.findByLabelText(/^Email/, undefined, slow), { target: { value: 'marina@antigo.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), slow);
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).toMatchObject({ email: 'marina@antigo.com' });
    expect(toastStore.get()).toEqual([
      expect.objectContaining({ title: 'Usuário atualizado', message: 'A troca de e-mail para marina@novo.com foi cancelada.' }),
    ]);
  });

  it('the view dialog has an ‘E-mail pendente’ row only when a change is waiting', async () => {
    mockApi(user({ pendingEmail: 'marina@novo.com' }));
    renderWithProviders(<UserViewModal id="u2" onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Visualização de usuário' }, slow);
    const pending = await within(dialog).findByText('E-mail pendente', undefined, slow);
    expect(pending.nextElementSibling?.textContent).toBe('marina@novo.com');
    expect(within(dialog).getByText('marina@antigo.com')).toBeTruthy();
    cleanup();

    mockApi(user({}));
    renderWithProviders(<UserViewModal id="u2" onClose={() => {}} />);
    const plain = await screen.findByRole('dialog', { name: 'Visualização de usuário' }, slow);
    await within(plain).findByText('marina@antigo.com', undefined, slow);
    expect(within(plain).queryByText('E-mail pendente')).toBeNull();
  });

  it('the users table marks the row with an ‘E-mail pendente’ badge beside the address in force', async () => {
    mockApi(user({ pendingEmail: 'marina@novo.com' }));
    renderWithProviders(<UsersTable />, { route: '/users' });
    const rows = await screen.findAllByTestId('user-row', undefined, slow);
    const marina = rows.find((r) => r.textContent?.includes('Marina Costa'))!;
    expect(within(marina).getByText('marina@antigo.com')).toBeTruthy();
    expect(within(marina).getByText('E-mail pendente')).toBeTruthy();
    expect(within(rows.find((r) => r.textContent?.includes('Carla Souza'))!).queryByText('E-mail pendente')).toBeNull();
  });
});
