import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { QuickReplyForm } from './quick-reply-modal.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the quick reply form', () => {
  it('asks for both fields and refuses a shortcut with spaces, sending nothing', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<QuickReplyForm onClose={() => {}} onSaved={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findAllByText('Campo obrigatório')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText(/^Atalho/), { target: { value: 'meu boleto' } });
    expect(await screen.findByText('Use só letras minúsculas, números, - e _ (sem espaços)')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the five variables, inserts one into the text, and sends the shortcut without its slash', async () => {
    const onSaved = vi.fn();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify({ id: 'q1' }), { status: 201 }));
    renderWithProviders(<QuickReplyForm onClose={() => {}} onSaved={onSaved} />);
    for (const name of ['nome', 'primeiro_nome', 'telefone', 'email', 'atendente']) expect(screen.getByText(`{{${name}}}`)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Atalho/), { target: { value: '/Boleto' } });
    fireEvent.change(screen.getByLabelText(/^Texto/), { target: { value: 'Olá,' } });
    fireEvent.click(screen.getByRole('button', { name: /Inserir \{\{primeiro_nome\}\}/ }));
    expect((screen.getByLabelText(/^Texto/) as HTMLTextAreaElement).value).toBe('Olá, {{primeiro_nome}}');
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({ shortcut: 'boleto', text: 'Olá, {{primeiro_nome}}' });
  });
});
