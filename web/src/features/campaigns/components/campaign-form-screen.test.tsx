/**
 * 'Nova campanha': an empty form is refused on its fields with nothing sent; a filled one asks
 * POST /campaigns/plan with the payload and shows its summary; a refusal of the plan shows on the
 * field its `details` name; choosing an official-API connection sets its pace.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultAutomationSettings } from '#contracts/automations.ts';
import type { MessageTemplate } from '#contracts/templates.ts';
import { clearSession, setSession } from '#web/lib/auth.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { adminFixture } from '#web/testing/user-fixture.ts';
import { CampaignFormScreen } from './campaign-form-screen.tsx';

const at = '2026-01-01T00:00:00.000Z';
const admin = adminFixture({}, at);

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const service = (id: string, name: string, type: string) => ({ id, name, type, status: 'connected', statusReason: null, createdAt: at, updatedAt: at });
const finish = new Date(2026, 11, 1, 14, 30).toISOString();

beforeEach(() => setSession({ accessToken: 't', user: admin }));
afterEach(() => {
  cleanup();
  clearSession();
  vi.restoreAllMocks();
});

/** The API the form reads (connections, contacts, segments, the opt-out word) and the plan's answer (or refusal). */
function mockApi(plan: () => Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.includes('/campaigns/plan')) return plan();
    if (url.includes('/services/s2/templates')) return json({ data: templates });
    if (url.includes('/services'))
      return json({ data: [service('s1', 'Bot da Doceria', 'telegram'), service('s2', 'Oficial', 'whatsapp_cloud')], totalCount: 2 });
    if (url.includes('/contacts'))
      return json({ data: [contactFixture({ id: 'c1', name: 'Bruna Lopes' }), contactFixture({ id: 'c2', name: 'Caio Mendes' })] });
    if (url.includes('/segments')) return json({ data: [], totalCount: 0 });
    if (url.includes('/automations'))
      return json({ ...defaultAutomationSettings, optOut: { ...defaultAutomationSettings.optOut, words: ['PARAR'] }, saved: true, updatedAt: at });
    return json({ error: 'Not Found', message: `no ${url} ${init?.method}` }, 404);
  });
}

const templateOf = (over: Partial<MessageTemplate>): MessageTemplate => ({
  id: 'T1',
  serviceId: 's2',
  name: 'promo_natal',
  language: 'pt_BR',
  category: 'MARKETING',
  status: 'APPROVED',
  rejectionReason: null,
  headerFormat: null,
  header: null,
  body: 'Olá {{1}}, o cupom vale até {{2}}.',
  examples: ['Maria', 'domingo'],
  footer: null,
  buttons: [{ type: 'COPY_CODE', text: 'Copiar cupom' }],
  variableCount: 2,
  createdAt: at,
  updatedAt: at,
  ...over,
});
/** The official connection's templates: one approved, one still in review (not listed). */
const templates = [templateOf({}), templateOf({ id: 'T2', name: 'aviso_entrega', status: 'PENDING' })];

const planCalls = (fetchMock: ReturnType<typeof mockApi>) => fetchMock.mock.calls.filter(([url]) => String(url).includes('/campaigns/plan'));

async function fill() {
  fireEvent.change(screen.getByLabelText(/Nome da campanha/), { target: { value: 'Ofertas da semana' } });
  fireEvent.click(await screen.findByLabelText(/Bot da Doceria/));
  fireEvent.click(await screen.findByRole('checkbox', { name: /Bruna Lopes/ }));
  fireEvent.change(screen.getByLabelText('Texto da mensagem'), { target: { value: 'Oi {{primeiro_nome}}!' } });
}

describe('Nova campanha', () => {
  it('refuses an empty form on its fields and asks nothing', async () => {
    const fetchMock = mockApi(() => json({}));
    renderWithProviders(<CampaignFormScreen />);
    await screen.findByLabelText(/Bot da Doceria/);
    fireEvent.click(screen.getByRole('button', { name: 'Revisar campanha' }));
    expect(await screen.findByText('Escolha pelo menos uma conexão')).toBeTruthy();
    expect(screen.getByLabelText(/Nome da campanha/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Escolha pelo menos um contato')).toBeTruthy();
    expect(screen.getByText('Escreva a mensagem ou anexe um arquivo')).toBeTruthy();
    expect(planCalls(fetchMock)).toHaveLength(0);
    // The opt-out hint names the account's own word.
    expect(await screen.findByText('Para não receber mais mensagens como esta, responda PARAR.')).toBeTruthy();
  });

  it('asks the plan with the payload and shows its summary before Iniciar campanha', async () => {
    const fetchMock = mockApi(() => json({ recipients: 1, leftOut: 0, firstMessages: 0, estimatedFinishAt: finish, startAt: at }));
    renderWithProviders(<CampaignFormScreen />);
    await fill();
    expect(screen.queryByRole('button', { name: 'Iniciar campanha' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Revisar campanha' }));
    expect((await screen.findByTestId('campaign-plan')).textContent).toBe(
      '1 destinatário, 0 ficam de fora, 0 primeiras mensagens, término estimado 01/12/2026 14:30',
    );
    expect(screen.getByRole('button', { name: 'Iniciar campanha' })).toBeTruthy();
    const body = JSON.parse(String(planCalls(fetchMock)[0]![1]!.body));
    expect(body).toMatchObject({
      name: 'Ofertas da semana',
      audience: { kind: 'contacts', contactIds: ['c1'] },
      serviceIds: ['s1'],
      message: { text: 'Oi {{primeiro_nome}}!', fileId: null },
      startAt: null,
      window: { kind: 'business-hours' },
      pace: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 },
      optOutHint: true,
    });
    // A change makes the summary stale: it goes, and so does Iniciar.
    fireEvent.change(screen.getByLabelText(/Nome da campanha/), { target: { value: 'Ofertas de dezembro' } });
    await waitFor(() => expect(screen.queryByTestId('campaign-plan')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Iniciar campanha' })).toBeNull();
  });

  it("puts the server's refusal on the field it names", async () => {
    mockApi(() =>
      json({ error: 'Bad Request', message: 'Invalid params', details: [{ path: 'audience', message: 'Nenhum contato das conexões escolhidas' }] }, 400),
    );
    renderWithProviders(<CampaignFormScreen />);
    await fill();
    fireEvent.click(screen.getByRole('button', { name: 'Revisar campanha' }));
    expect(await screen.findByText('Nenhum contato das conexões escolhidas')).toBeTruthy();
    expect(screen.getByLabelText('Buscar contatos').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('campaign-plan')).toBeNull();
  });

  it('sends an approved template with its values from the official connection, and shows the cost the plan answers', async () => {
    const cost = {
      currency: 'USD',
      category: 'MARKETING',
      total: 0.0875,
      byCountry: [
        { country: 'BR', recipients: 1, unitPrice: 0.0625, total: 0.0625, defaultRate: false },
        { country: 'US', recipients: 1, unitPrice: 0.025, total: 0.025, defaultRate: false },
      ],
    };
    const fetchMock = mockApi(() => json({ recipients: 2, leftOut: 0, firstMessages: 0, estimatedFinishAt: finish, startAt: at, cost }));
    renderWithProviders(<CampaignFormScreen />);
    fireEvent.change(screen.getByLabelText(/Nome da campanha/), { target: { value: 'Natal' } });
    fireEvent.click(await screen.findByLabelText(/Oficial/));
    fireEvent.click(await screen.findByRole('checkbox', { name: /Bruna Lopes/ }));
    // Off by default, with why a template: the 24-hour window.
    const toggle = screen.getByRole('switch', { name: 'Modelo da API oficial: Usar um modelo aprovado' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText(/Fora da janela de 24 horas do cliente/)).toBeTruthy();
    fireEvent.click(toggle);
    const select = (await screen.findByLabelText('Modelo aprovado')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Escolha um modelo', 'promo_natal · Marketing']);
    // Only the official connection is chosen: no text field, and the template is what is missing.
    expect(screen.queryByLabelText('Texto da mensagem')).toBeNull();
    // Nor a file (the template has no media header) or an opt-out hint: Meta sends the approved text only.
    expect(screen.queryByText('Arquivo (opcional)')).toBeNull();
    expect(screen.queryByRole('switch', { name: /Instrução de descadastro/ })).toBeNull();
    expect(screen.getByText('O modelo vai exatamente como a Meta aprovou, sem a instrução de como parar de receber.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Revisar campanha' }));
    expect(await screen.findByText('Escolha um dos modelos aprovados')).toBeTruthy();
    fireEvent.change(select, { target: { value: 'T1' } });
    fireEvent.change(screen.getByLabelText('Variável {{1}}'), { target: { value: '{{primeiro_nome}}' } });
    fireEvent.change(screen.getByLabelText('Variável {{2}}'), { target: { value: 'domingo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Revisar campanha' }));
    // The coupon is asked before the plan is.
    expect(await screen.findByText('Informe o código do botão “Copiar cupom”')).toBeTruthy();
    expect(planCalls(fetchMock)).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Código do botão “Copiar cupom”'), { target: { value: 'NATAL10' } });
    expect(screen.getByTestId('campaign-template-preview').textContent).toBe('Olá {{primeiro_nome}}, o cupom vale até domingo.\n\n[Copiar cupom] NATAL10');
    fireEvent.click(screen.getByRole('button', { name: 'Revisar campanha' }));
    expect((await screen.findByTestId('campaign-cost')).textContent).toContain('Custo estimado na Meta: US$ 0,0875 (categoria: Marketing)');
    expect(screen.getByText(/É uma estimativa pela tabela de preços configurada/)).toBeTruthy();
    expect(screen.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'PaísDestinatáriosPor mensagemTotal',
      'Brasil1US$ 0,0625US$ 0,0625',
      'Estados Unidos1US$ 0,025US$ 0,025',
    ]);
    const body = JSON.parse(String(planCalls(fetchMock)[0]![1]!.body));
    expect(body.serviceIds).toEqual(['s2']);
    expect(body.message).toEqual({
      text: '',
      fileId: null,
      template: { name: 'promo_natal', language: 'pt_BR', parameters: ['{{primeiro_nome}}', 'domingo'], header: null, buttons: ['NATAL10'] },
    });
  });

  it("sets the official API's pace when its connection is chosen", async () => {
    mockApi(() => json({}));
    renderWithProviders(<CampaignFormScreen />);
    fireEvent.click(await screen.findByLabelText(/Oficial/));
    expect((screen.getByLabelText(/Intervalo mínimo/) as HTMLInputElement).value).toBe('1');
    expect((screen.getByLabelText(/Intervalo máximo/) as HTMLInputElement).value).toBe('3');
    expect((screen.getByLabelText(/Mensagens por dia/) as HTMLInputElement).value).toBe('1000');
  });
});
