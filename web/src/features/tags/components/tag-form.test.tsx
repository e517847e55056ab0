import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { textOn } from '#web/components/ui/tag-chip.tsx';
import { renderWithProviders } from '#web/testing/render.tsx';
import { TagForm } from './tag-modal.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

describe('the tag form', () => {
  it('asks for the name and a #RRGGBB colour, and sends nothing until both are right', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<TagForm onClose={() => {}} onSaved={() => {}} />);
    fireEvent.change(screen.getByLabelText(/^Cor/, { selector: 'input[type=text], input:not([type])' }), { target: { value: 'verde' } });
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    expect(screen.getByText('Escolha uma cor no formato #RRGGBB')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes a suggested colour and sends the name and the colour in lower case', async () => {
    const onSaved = vi.fn();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ id: 't1', name: 'VIP', color: '#db2777' }, 201));
    renderWithProviders(<TagForm onClose={() => {}} onSaved={onSaved} />);
    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: 'VIP' } });
    fireEvent.click(screen.getByRole('button', { name: 'Usar a cor #db2777' }));
    expect(screen.getByRole('button', { name: 'Usar a cor #db2777' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({ name: 'VIP', color: '#db2777' });
  });

  it('edits with a typed colour, and shows the server refusing a repeated name', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(json({ error: 'Invalid params', details: [{ path: 'name', message: 'Já existe uma etiqueta com este nome' }] }, 400));
    const tag = { id: 't1', name: 'Atacado', color: '#2563eb', createdAt: '', updatedAt: '' };
    renderWithProviders(<TagForm tag={tag} onClose={() => {}} onSaved={() => {}} />);
    fireEvent.change(screen.getByLabelText(/^Cor/, { selector: 'input[type=text], input:not([type])' }), { target: { value: '#ABCDEF' } });
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Já existe uma etiqueta com este nome')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/\/tags\/t1$/);
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Atacado', color: '#abcdef' });
  });
});

describe('the chip text on a tag colour', () => {
  it('is black on light colours and white on dark ones', () => {
    expect(textOn('#fde047')).toBe('#000000');
    expect(textOn('#ffffff')).toBe('#000000');
    expect(textOn('#1e3a8a')).toBe('#ffffff');
    expect(textOn('#047857')).toBe('#ffffff');
  });
});
