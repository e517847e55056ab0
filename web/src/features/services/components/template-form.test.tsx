import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { marketingBillingNote, templateTexts } from '#contracts/templates.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { TemplateForm } from './template-form.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the message template form', () => {
  it('asks for name, category and body, refuses a name Meta refuses, and sends nothing', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<TemplateForm serviceId="s1" onClose={() => {}} onSaved={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findAllByText('Campo obrigatório')).toHaveLength(3);
    type(/^Nome/, 'Pedido Enviado');
    expect(await screen.findByText(templateTexts.name)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for an example of each variable of the body, and refuses one at its start', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<TemplateForm serviceId="s1" onClose={() => {}} onSaved={() => {}} />);
    type(/^Nome/, 'pedido_enviado');
    fireEvent.change(screen.getByLabelText(/^Categoria/), { target: { value: 'UTILITY' } });
    type(/^Corpo/, 'Olá {{1}}, seu pedido {{2}} saiu.');
    expect(screen.getByLabelText(/^Exemplo de \{\{1\}\}/)).toBeTruthy();
    expect(screen.getByLabelText(/^Exemplo de \{\{2\}\}/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findAllByText(templateTexts.exampleMissing)).toHaveLength(2);
    type(/^Corpo/, '{{1}} chegou');
    expect(await screen.findByText(templateTexts.variableAtEdge)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the billing note for marketing, checks a link button, and sends the template as the API takes it', async () => {
    const onSaved = vi.fn();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify({ id: 't1', status: 'PENDING' }), { status: 201 }));
    renderWithProviders(<TemplateForm serviceId="s1" onClose={() => {}} onSaved={onSaved} />);
    type(/^Nome/, 'oferta_natal');
    fireEvent.change(screen.getByLabelText(/^Categoria/), { target: { value: 'MARKETING' } });
    // The warning beside the category, besides the note at the form's end.
    expect(screen.getByText(marketingBillingNote)).toBeTruthy();
    type(/^Corpo/, 'Oi');
    fireEvent.click(screen.getByRole('button', { name: /Inserir variável/ }));
    expect((screen.getByLabelText(/^Corpo/) as HTMLTextAreaElement).value).toBe('Oi {{1}}');
    type(/^Corpo/, 'Oi {{1}}, aproveite!');
    type(/^Exemplo de \{\{1\}\}/, 'Joana');
    fireEvent.click(screen.getByRole('button', { name: /Adicionar botão/ }));
    fireEvent.change(screen.getByLabelText(/^Tipo do botão 1/), { target: { value: 'URL' } });
    type(/^Texto do botão 1/, 'Ver ofertas');
    type(/^Endereço/, 'http://loja.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findByText(templateTexts.url)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    type(/^Endereço/, 'https://loja.example.com/natal');
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toContain('/services/s1/templates');
    expect(JSON.parse(String(init!.body))).toEqual({
      name: 'oferta_natal',
      category: 'MARKETING',
      language: 'pt_BR',
      header: null,
      body: 'Oi {{1}}, aproveite!',
      examples: ['Joana'],
      footer: null,
      buttons: [{ type: 'URL', text: 'Ver ofertas', url: 'https://loja.example.com/natal' }],
    });
  });
});
