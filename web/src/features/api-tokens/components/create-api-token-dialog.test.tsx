import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { CreateApiTokenDialog } from './create-api-token-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const secret = `cvk_${'x'.repeat(39)}AbCd`;
const created = {
  token: {
    id: 't1',
    name: 'n8n',
    scopes: ['contacts:read', 'messages:send'],
    hint: 'cvk_…AbCd',
    createdBy: { id: 'u1', name: 'Ana' },
    createdAt: '2026-11-28T12:00:00.000Z',
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
  },
  secret,
};

describe("'Novo token de API'", () => {
  it('asks for a name and at least one permission, and sends nothing until both are there', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<CreateApiTokenDialog onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Criar token' }));
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    expect(screen.getByText('Escolha pelo menos uma permissão')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the name, the permissions in their order and the validity, then shows the secret once with its warning', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(created, 201));
    renderWithProviders(<CreateApiTokenDialog onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: ' n8n ' } });
    fireEvent.click(screen.getByLabelText(/Enviar mensagens/));
    fireEvent.click(screen.getByLabelText(/Ler contatos/));
    fireEvent.change(screen.getByLabelText('Validade'), { target: { value: '90' } });
    fireEvent.click(screen.getByRole('button', { name: 'Criar token' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/\/api-tokens$/);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'n8n', scopes: ['contacts:read', 'messages:send'], expiresInDays: 90 });
    expect(await screen.findByText('Copie o token agora')).toBeTruthy();
    expect((screen.getByLabelText('Token n8n') as HTMLInputElement).value).toBe(secret);
    expect(screen.getByRole('button', { name: 'Copiar token' })).toBeTruthy();
  });
});
