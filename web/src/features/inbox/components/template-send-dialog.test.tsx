/**
 * 'Enviar modelo de mensagem' from a conversation whose WhatsApp (API oficial) window closed: only
 * approved templates offered, one field per variable with the contact's fields filled in the
 * preview, the same parameter check as the server's before sending, the server's field message on
 * its field, Meta's billing note for marketing ones, and an empty state that says what to do; a
 * media header's file of its type (uploaded, then named by id), a URL suffix and a coupon code.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import type { Contact } from '#contracts/contacts.ts';
import type { User } from '#contracts/entities.ts';
import type { Service } from '#contracts/services.ts';
import { marketingBillingNote, type MessageTemplate } from '#contracts/templates.ts';
import { sessionStore } from '#web/lib/auth.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { Conversation } from './conversation.tsx';
import { templateSendTexts } from './template-send-dialog.tsx';

const HOUR = 3_600_000;

const template = (over: Partial<MessageTemplate>): MessageTemplate => ({
  id: 'T1',
  serviceId: 's1',
  name: 'retorno_pedido',
  language: 'pt_BR',
  category: 'UTILITY',
  status: 'APPROVED',
  rejectionReason: null,
  headerFormat: null,
  header: null,
  body: 'Olá {{1}}, seu pedido {{2}} está pronto.',
  examples: ['Maria', '4521'],
  footer: 'Loja Serra Azul',
  buttons: [],
  variableCount: 2,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

const service: Service = {
  id: 's1',
  name: 'Oficial',
  type: 'whatsapp_cloud',
  status: 'connected',
  connected: true,
  data: { qrCode: null, pairingCode: null },
  internalData: {},
  statusReason: null,
  defaultDepartmentId: null,
  readReceipts: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const contact: Contact = contactFixture({
  id: 'C1',
  name: 'Rita Moraes',
  service: { id: 's1', name: 'Oficial', type: 'whatsapp_cloud' },
  lastInboundAt: new Date(Date.now() - 30 * HOUR).toISOString(),
});

let templates: MessageTemplate[];
let sent: { url: string; body: Record<string, any> }[];
/** What the server answers the send with (its own field checks). */
let sendAnswer: () => Response;

beforeEach(() => {
  sent = [];
  templates = [
    template({}),
    template({
      id: 'T2',
      name: 'oferta_natal',
      category: 'MARKETING',
      body: 'Oi {{1}}! Natal com 20% de desconto.',
      examples: ['Ana'],
      footer: null,
      buttons: [{ type: 'QUICK_REPLY', text: 'Quero saber mais' }],
      variableCount: 1,
    }),
    template({ id: 'T3', name: 'em_analise', status: 'PENDING' }),
  ];
  sendAnswer = () =>
    new Response(
      JSON.stringify({
        id: 'M9',
        contactId: 'C1',
        serviceId: 's1',
        text: 'Olá Rita, seu pedido 4521 está pronto.\n\nLoja Serra Azul',
        kind: 'message',
        type: 'text',
        isFromMe: true,
        ack: 0,
        timestamp: new Date().toISOString(),
      }),
      { status: 201 },
    );
  sessionStore.set({ accessToken: 'token', user: { id: 'U1', name: 'Ana Souza', isAdmin: false } as User });
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const answer = (path: string) => (path.includes('/templates') ? { data: templates } : { data: [], totalCount: 0, nextCursor: null });
    if (url.endsWith('/batch')) {
      const { requests } = JSON.parse(String(init?.body)) as { requests: { path: string }[] };
      return new Response(JSON.stringify({ responses: requests.map((r) => ({ status: 200, body: answer(r.path) })) }), { status: 200 });
    }
    if (init?.method === 'POST' && url.endsWith('/messages/send')) {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return sendAnswer();
    }
    return new Response(JSON.stringify(answer(url)), { status: 200 });
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  sessionStore.set({ accessToken: null, user: null });
});

async function openDialog() {
  const view = renderWithProviders(<Conversation contact={contact} service={service} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Enviar modelo' }));
  const dialog = await screen.findByRole('dialog', { name: templateSendTexts.title });
  await within(dialog).findByLabelText('Modelo');
  return { dialog, view };
}

describe('sending a template once the window closed', () => {
  it('offers only approved templates, fills the contact fields in the preview and sends the typed parameters', async () => {
    const { dialog } = await openDialog();
    const select = within(dialog).getByLabelText('Modelo') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['retorno_pedido · Utilidade', 'oferta_natal · Marketing']);
    expect(within(dialog).getByTestId('template-preview').textContent).toBe('Olá {{1}}, seu pedido {{2}} está pronto.\n\nLoja Serra Azul');
    expect(within(dialog).queryByText(marketingBillingNote)).toBeNull();

    fireEvent.change(within(dialog).getByLabelText('Variável {{1}}'), { target: { value: '{{primeiro_nome}}' } });
    fireEvent.change(within(dialog).getByLabelText('Variável {{2}}'), { target: { value: '4521' } });
    expect(within(dialog).getByTestId('template-preview').textContent).toBe('Olá Rita, seu pedido 4521 está pronto.\n\nLoja Serra Azul');
    const result = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar modelo' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: templateSendTexts.title })).toBeNull());
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({
      contactId: 'C1',
      serviceId: 's1',
      text: '',
      template: { name: 'retorno_pedido', language: 'pt_BR', parameters: ['{{primeiro_nome}}', '4521'], header: null, buttons: [] },
    });
  });

  it('refuses an empty variable on its field before sending, as the server would', async () => {
    const { dialog } = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Variável {{1}}'), { target: { value: 'Rita' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar modelo' }));
    expect(await within(dialog).findByText('A variável {{2}} ficou vazia para este contato')).toBeTruthy();
    expect(within(dialog).getByLabelText('Variável {{2}}').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toHaveLength(0);
    // A contact field this contact lacks is empty too.
    fireEvent.change(within(dialog).getByLabelText('Variável {{2}}'), { target: { value: '{{email}}' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar modelo' }));
    expect(await within(dialog).findByText('A variável {{2}} ficou vazia para este contato')).toBeTruthy();
    expect(sent).toHaveLength(0);
  });

  it("shows the server's refusal on the template field and keeps the dialog open", async () => {
    sendAnswer = () =>
      new Response(
        JSON.stringify({
          error: 'Bad Request',
          message: 'Invalid params',
          details: [{ path: 'template.name', message: 'Só modelos aprovados pela Meta podem ser enviados; este está pausado' }],
        }),
        { status: 400 },
      );
    const { dialog } = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Modelo'), { target: { value: 'T2' } });
    expect(within(dialog).getByText(marketingBillingNote)).toBeTruthy();
    expect(within(dialog).getByTestId('template-preview').textContent).toBe('Oi {{1}}! Natal com 20% de desconto.\n\n[Quero saber mais]');
    fireEvent.change(within(dialog).getByLabelText('Variável {{1}}'), { target: { value: 'Rita' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar modelo' }));
    expect(await within(dialog).findByText('Só modelos aprovados pela Meta podem ser enviados; este está pausado')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: templateSendTexts.title })).toBeTruthy();
  });

  it('asks for the header file of its type, the URL suffix and the coupon, uploads the file and sends it by id', async () => {
    templates = [
      template({
        id: 'T4',
        name: 'boleto_pronto',
        headerFormat: 'IMAGE',
        body: 'Olá {{1}}, seu boleto está pronto.',
        examples: ['Maria'],
        footer: null,
        buttons: [
          { type: 'URL', text: 'Pagar', url: 'https://loja.example.com/boleto/{{1}}' },
          { type: 'COPY_CODE', text: 'Copiar código' },
        ],
        variableCount: 1,
      }),
    ];
    const puts: { url: string; type: string | null }[] = [];
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        upload = {};
        status = 0;
        onload: (() => void) | null = null;
        private target = '';
        private type: string | null = null;
        open(_method: string, url: string) {
          this.target = url;
        }
        setRequestHeader(name: string, value: string) {
          if (name.toLowerCase() === 'content-type') this.type = value;
        }
        send() {
          puts.push({ url: this.target, type: this.type });
          this.status = 200;
          queueMicrotask(() => this.onload?.());
        }
      },
    );
    const fetchMock = vi.mocked(globalThis.fetch);
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).endsWith('/files/generate-url-to-upload')
        ? new Response(JSON.stringify({ urlToUpload: 'https://bucket.example/put/F1', file: { id: 'F1', type: 'image', mimetype: 'image/png' } }), {
            status: 200,
          })
        : answer(input, init),
    );
    const { dialog } = await openDialog();
    expect(within(dialog).getByTestId('template-preview').textContent).toBe(
      'Olá {{1}}, seu boleto está pronto.\n\n[Pagar] https://loja.example.com/boleto/{{1}}\n[Copiar código] {{código}}',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar modelo' }));
    expect(await within(dialog).findByText('Escolha o arquivo do cabeçalho (JPG ou PNG)')).toBeTruthy();
    expect(within(dialog).getByText('Preencha o final do link do botão “Pagar”')).toBeTruthy();
    expect(within(dialog).getByText('Informe o código do botão “Copiar código”')).toBeTruthy();

    const picker = within(dialog).getByLabelText('Imagem do cabeçalho') as HTMLInputElement;
    expect(picker.accept).toBe('image/jpeg,image/png');
    fireEvent.change(picker, { target: { files: [new File(['%PDF-1.4'], 'boleto.pdf', { type: 'application/pdf' })] } });
    fireEvent.change(within(dialog).getByLabelText('Variável {{1}}'), { target: { value: '{{primeiro_nome}}' } });
    fireEvent.change(within(dialog).getByLabelText('Final do link do botão “Pagar”'), { target: { value: '98765' } });
    fireEvent.change(within(dialog).getByLabelText('Código do botão “Copiar código”'), { target: { value: 'VOLTE10' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar modelo' }));
    expect(await within(dialog).findByText('O cabeçalho deste modelo é uma imagem: escolha um arquivo JPG ou PNG')).toBeTruthy();
    expect(puts).toEqual([]);
    expect(sent).toHaveLength(0);

    fireEvent.change(picker, { target: { files: [new File(['png'], 'banner.png', { type: 'image/png' })] } });
    expect(within(dialog).getByTestId('template-preview').textContent).toBe(
      'Olá Rita, seu boleto está pronto.\n\n[Pagar] https://loja.example.com/boleto/98765\n[Copiar código] VOLTE10',
    );
    const result = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar modelo' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: templateSendTexts.title })).toBeNull());
    expect(puts).toEqual([{ url: 'https://bucket.example/put/F1', type: 'image/png' }]);
    expect(sent[0]!.body).toEqual({
      contactId: 'C1',
      serviceId: 's1',
      text: '',
      fileId: 'F1',
      template: { name: 'boleto_pronto', language: 'pt_BR', parameters: ['{{primeiro_nome}}'], header: null, buttons: ['98765', 'VOLTE10'] },
    });
  });

  it('says a location header cannot be sent from here and keeps the send button off', async () => {
    templates = [template({ headerFormat: 'LOCATION' })];
    const { dialog } = await openDialog();
    expect(within(dialog).getByText('Modelos com localização no cabeçalho ainda não podem ser enviados por aqui')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Enviar modelo' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says a template with a button kind it cannot send (a FLOW) cannot be sent from here, and keeps the send button off', async () => {
    templates = [template({ buttons: [{ type: 'UNSUPPORTED', text: 'Abrir', kind: 'FLOW' }] })];
    const { dialog } = await openDialog();
    expect(within(dialog).getByText('Modelos com botão do tipo FLOW ainda não podem ser enviados por aqui')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Enviar modelo' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says what to do when no template is approved yet (a member asks an admin)', async () => {
    templates = [template({ status: 'PENDING' })];
    renderWithProviders(<Conversation contact={contact} service={service} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Enviar modelo' }));
    const dialog = await screen.findByRole('dialog', { name: templateSendTexts.title });
    expect(await within(dialog).findByText(templateSendTexts.none)).toBeTruthy();
    expect(within(dialog).getByText(templateSendTexts.noneMember)).toBeTruthy();
    expect(within(dialog).queryByRole('link', { name: 'Ver modelos de mensagem' })).toBeNull();
  });
});
