/**
 * 'Descadastro de campanhas' on the 'Automações' screen (ADR-0225): the words come as
 * typed (comma-separated, a trailing comma kept while typing), a word in both lists is refused on its
 * field with nothing sent, and the save sends the lists and the confirmation switch.
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

describe('Descadastro de campanhas', () => {
  it('edits the words to leave and come back and the confirmation, refusing a word in both lists', async () => {
    const fetchMock = mockApi(defaultAutomationSettings);
    renderWithProviders(<AutomationsScreen />);
    const leave = (await screen.findByLabelText('Palavras para sair')) as HTMLInputElement;
    const back = screen.getByLabelText('Palavras para voltar') as HTMLInputElement;
    expect(leave.value).toBe('SAIR, PARAR');
    expect(back.value).toBe('VOLTAR');

    fireEvent.change(leave, { target: { value: 'SAIR, PARAR, ' } });
    expect(leave.value).toBe('SAIR, PARAR, ');
    fireEvent.change(leave, { target: { value: 'SAIR, PARAR, Voltar' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automações' }));
    expect(await screen.findByText('Uma palavra não pode servir para sair e para voltar')).toBeTruthy();
    expect(puts(fetchMock)).toHaveLength(0);

    fireEvent.change(leave, { target: { value: 'SAIR, PARAR, CANCELAR' } });
    expect(screen.queryByText('Uma palavra não pode servir para sair e para voltar')).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Enviar confirmação de descadastro: Enviar confirmação' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automações' }));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(1));
    const body = JSON.parse(String(puts(fetchMock)[0]![1]?.body)) as AutomationSettings;
    expect(body.optOut).toEqual({
      words: ['SAIR', 'PARAR', 'CANCELAR'],
      optInWords: ['VOLTAR'],
      confirmation: { ...defaultAutomationSettings.optOut.confirmation, enabled: true },
    });
  });
});
