import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contracts/entities.ts';
import { AppRoutes } from '#web/app/router.tsx';
import { GuestOnly } from '#web/app/guards.tsx';
import { clearSession, sessionStore, setSession } from '#web/lib/auth.ts';
import { toastStore } from '#web/lib/notify.ts';
import VerifyEmailPage from './verify-email.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
  clearSession();
  toastStore.set([]);
});

const at = '2026-01-01T00:00:00.000Z';
const rita: User = {
  id: 'u1',
  name: 'Rita',
  email: 'rita@antigo.com',
  accountId: 'a1',
  account: { id: 'a1', name: 'Doceria' },
  avatar: null,
  isAdmin: false,
  isOwner: false,
  emailVerified: true,
  pendingEmail: 'rita@novo.com',
  archivedAt: null,
  archivedReason: null,
  skipSignature: false,
  createdAt: at,
  updatedAt: at,
};
const confirmed: User = { ...rita, email: 'rita@novo.com', pendingEmail: null, updatedAt: '2026-01-02T00:00:00.000Z' };

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** POST /auth/verify-email answers 204; GET /auth/me the user as the server now has it. */
function mockApi() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.endsWith('/auth/verify-email') && init?.method === 'POST') return new Response(null, { status: 204 });
    if (url.endsWith('/auth/me')) return json({ user: confirmed });
    return json({ error: 'Not found' }, 404);
  });
}

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

/** The page with the guards around it as in app/router.tsx: / is guest-only, /inbox stands for the app. */
function renderPage(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route element={<GuestOnly />}>
            <Route index element={<p>Página inicial</p>} />
          </Route>
          <Route path="verify-email" element={<VerifyEmailPage />} />
          <Route path="inbox" element={<p>Caixa de entrada</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function confirm(code: string) {
  fireEvent.change(screen.getByLabelText('Código de verificação'), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Confirmar e-mail' }));
  await waitFor(() => expect(toastStore.get().map((t) => t.title)).toEqual(['Email confirmado com sucesso']));
}

describe('/verify-email', () => {
  it('is not bounced to /inbox for a signed-in user (the link of an e-mail change)', async () => {
    setSession({ accessToken: 't', user: rita });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json({ error: 'Not found' }, 404));
    render(
      <MemoryRouter initialEntries={['/verify-email?userId=u1']}>
        <AppRoutes />
        <Where />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Verificar e-mail' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/verify-email');
    expect(screen.getByText(/para o novo endereço de e-mail/)).toBeTruthy();
  });

  it('signed in: confirms, reads the user again so the new address is the session’s, and goes on to /inbox after 1 s', async () => {
    setSession({ accessToken: 't', user: rita });
    const fetchMock = mockApi();
    renderPage('/verify-email?userId=u1');
    await confirm('123456');
    const verify = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/verify-email'))!;
    expect(JSON.parse(String(verify[1]!.body))).toEqual({ userId: 'u1', verifyCode: '123456' });
    await waitFor(() => expect(sessionStore.get().user).toEqual(confirmed));
    expect(sessionStore.get().accessToken).toBe('t');
    expect(JSON.parse(localStorage.getItem('conversa-auth')!).user.email).toBe('rita@novo.com');
    // Still on the page for a moment, then / (guest-only) sends the signed-in user to /inbox.
    expect(screen.getByTestId('where').textContent).toBe('/verify-email');
    await screen.findByText('Caixa de entrada', undefined, { timeout: 2000 });
    expect(screen.getByTestId('where').textContent).toBe('/inbox');
  });

  it('signed out: confirms without asking for /auth/me, and goes to / after 1 s as before', async () => {
    const fetchMock = mockApi();
    renderPage('/verify-email?userId=u9&verifyCode=654321');
    expect(screen.getByText(/para ativar sua conta/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar e-mail' }));
    await waitFor(() => expect(toastStore.get().map((t) => t.title)).toEqual(['Email confirmado com sucesso']));
    await screen.findByText('Página inicial', undefined, { timeout: 2000 });
    expect(fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x').pathname)).toEqual(['/api/auth/verify-email']);
    expect(sessionStore.get().user).toBeNull();
  });

  it('signed in, without a userId: offers the way back to the inbox instead of the sign-in', () => {
    setSession({ accessToken: 't', user: rita });
    renderPage('/verify-email');
    expect(screen.getByText('Link de verificação incompleto')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'volte para a caixa de entrada' }).getAttribute('href')).toBe('/inbox');
  });
});
