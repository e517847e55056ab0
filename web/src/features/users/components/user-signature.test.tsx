import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contracts/entities.ts';
import { clearSession, setSession } from '#web/lib/auth.ts';
import { toastStore } from '#web/lib/notify.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { UserFormModal } from './user-modals.tsx';

/** A loaded machine runs several suites at once: waits get more than the default second. */
const slow = { timeout: 5000 };
const at = '2026-01-01T00:00:00.000Z';
const user = (fields: Partial<User>): User => ({
  id: 'u2',
  name: 'Marina Costa',
  email: 'marina@doceria.com',
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

function mockApi(stored: User) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname === `/api/users/${stored.id}` && init?.method === 'PUT') return json({ ...stored, ...JSON.parse(String(init.body)) });
    if (url.pathname === `/api/users/${stored.id}`) return json(stored);
    return json({ error: 'Not found' }, 404);
  });
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  clearSession();
  toastStore.set([]);
});

const optOut = /Não assinar minhas mensagens/;

describe("'Não assinar minhas mensagens'", () => {
  it('a person editing themselves opts out and the save sends skipSignature: true', async () => {
    const me = user({});
    setSession({ accessToken: 't', user: me });
    const fetchMock = mockApi(me);
    const onSaved = vi.fn();
    renderWithProviders(<UserFormModal id="u2" onClose={() => {}} onSaved={onSaved} />);
    const box = (await screen.findByLabelText(optOut, undefined, slow)) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), slow);
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).toMatchObject({ skipSignature: true });
  });

  it('an admin editing someone else sees no such box and sends no such field', async () => {
    setSession({ accessToken: 't', user: owner });
    const fetchMock = mockApi(user({}));
    const onSaved = vi.fn();
    renderWithProviders(<UserFormModal id="u2" onClose={() => {}} onSaved={onSaved} />);
    await screen.findByLabelText(/^Email/, undefined, slow);
    expect(screen.queryByLabelText(optOut)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), slow);
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).not.toHaveProperty('skipSignature');
  });
});
