/**
 * 'Rejeitar ligações do WhatsApp' on the 'Automações' screen (ADR-0220): an
 * account that never switched it on reads it off with the suggested text; an admin switches it on, a blank text is refused on its field with nothing sent, and the save sends
 * the switch and the text.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AutomationSettings, defaultAutomationSettings } from '#contracts/automations.ts';
import { clearSession, setSession } from '#web/lib/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { adminFixture } from '#web/testing/user-fixture.ts';
import { AutomationsScreen } from './automations-screen.tsx';

const at = '2026-01-01T00:00:00.000Z';
const admin = adminFixture({}, at);

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

beforeEach(() => setSession({ accessToken: 't', user: admin }));
afterEach(() => {
  cleanup();
  clearSession();
  vi.restoreAllMocks();
});

/** GET /automations answers `saved` (read by the server, which fills rules a document lacks with their defaults); a PUT echoes what it got. */
function mockApi(saved: AutomationSettings) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.includes('/departments')) return json({ data: [], totalCount: 0 });
    if (url.includes('/automations') && init?.method === 'PUT') return json({ ...JSON.parse(String(init.body)), saved: true, updatedAt: at });
    if (url.includes('/automations')) return json({ ...saved, saved: true, updatedAt: at });
    return json({ error: 'Not found' }, 404);
  });
}

const puts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).includes('/automations') && init?.method === 'PUT');

describe('Rejeitar ligações do WhatsApp', () => {
  it('starts off with the suggested text; switched on, a blank text is refused, then the switch and text are saved', async () => {
    const fetchMock = mockApi(defaultAutomationSettings);
    renderWithProviders(<AutomationsScreen />);
    const toggle = await screen.findByRole('switch', { name: 'Rejeitar ligações do WhatsApp: Ativada' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    const field = screen.getByLabelText('Mensagem para quem ligou') as HTMLTextAreaElement;
    expect(field.value).toBe(defaultAutomationSettings.rejectCalls.text);

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automações' }));
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(puts(fetchMock)).toHaveLength(0);

    fireEvent.change(field, { target: { value: 'Só atendemos por mensagem, {{primeiro_nome}}.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automações' }));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(1));
    const body = JSON.parse(String(puts(fetchMock)[0]![1]?.body)) as AutomationSettings;
    expect(body.rejectCalls).toEqual({ enabled: true, text: 'Só atendemos por mensagem, {{primeiro_nome}}.' });
    expect(body.greeting).toEqual(defaultAutomationSettings.greeting);
  });
});
