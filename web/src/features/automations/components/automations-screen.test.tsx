import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultAutomationSettings } from '#contracts/automations.ts';
import type { User } from '#contracts/entities.ts';
import { clearSession, setSession } from '#web/lib/auth.ts';
import { toastStore } from '#web/lib/notify.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { AutomationsScreen } from './automations-screen.tsx';

/** A loaded machine runs several suites at once: waits get more than the default second. */
const slow = { timeout: 5000 };
const at = '2026-01-01T00:00:00.000Z';
const person = (isAdmin: boolean): User => ({
  id: 'u1',
  name: 'Carla Souza',
  email: 'carla@doceria.com',
  accountId: 'a1',
  account: { id: 'a1', name: 'Doceria' },
  avatar: null,
  isAdmin,
  isOwner: isAdmin,
  emailVerified: true,
  pendingEmail: null,
  archivedAt: null,
  archivedReason: null,
  skipSignature: false,
  createdAt: at,
  updatedAt: at,
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** GET /automations answers the defaults (never saved); PUT answers what it got, saved. */
function mockApi() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname === '/api/automations' && init?.method === 'PUT') return json({ ...JSON.parse(String(init.body)), saved: true, updatedAt: at });
    if (url.pathname === '/api/automations') return json({ ...defaultAutomationSettings, saved: false, updatedAt: null });
    if (url.pathname === '/api/departments') return json({ data: [], totalCount: 0 });
    return json({ error: 'Not found' }, 404);
  });
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  clearSession();
  toastStore.set([]);
});

describe("'Assinar mensagens com o nome do atendente'", () => {
  it('starts off; an admin switches it on and the save sends signMessages: true', async () => {
    setSession({ accessToken: 't', user: person(true) });
    const fetchMock = mockApi();
    renderWithProviders(<AutomationsScreen />);
    const toggle = await screen.findByRole('switch', { name: 'Assinar mensagens com o nome do atendente: Ativada' }, slow);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automações' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true), slow);
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).toMatchObject({ signMessages: true, reopenToLastAgent: true });
    await waitFor(() => expect(toastStore.get()).toEqual([expect.objectContaining({ tone: 'success', title: 'Automações salvas' })]), slow);
  });

  it('a member sees it read only', async () => {
    setSession({ accessToken: 't', user: person(false) });
    mockApi();
    renderWithProviders(<AutomationsScreen />);
    const toggle = await screen.findByRole('switch', { name: 'Assinar mensagens com o nome do atendente: Ativada' }, slow);
    expect((toggle as HTMLButtonElement).disabled).toBe(true);
  });
});
