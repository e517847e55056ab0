import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account, Subscription } from '#contracts/entities.ts';
import { freePlan, proPlanDefaults } from '#contracts/plans.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { ActivePlan, CheckoutPending, daysUntil, liveSubscription, UpgradePlan } from './subscription.tsx';

/** The fixed clock of these tests: 10 November 2026, 12:00 local time. */
const now = new Date(2026, 10, 10, 12, 0, 0);
const at = (day: number, month = 10) => Math.floor(new Date(2026, month, day, 12, 0, 0).getTime() / 1000);

const subscription = (fields: Partial<Subscription> = {}): Subscription => ({
  status: 'active',
  current_period_start: at(1),
  current_period_end: at(1, 11),
  cancel_at_period_end: false,
  plan: { amount: 9990, interval: 'month' },
  ...fields,
});
const account = (fields: Partial<Account> = {}): Account => ({
  id: 'acc1',
  name: 'Loja da Ana',
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  plan: proPlanDefaults,
  subscription: subscription(),
  ...fields,
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.endsWith('/accounts/acc1/usage')) return json({ users: 4, connections: 7, contacts: 1200 });
    if (url.endsWith('/payments/products')) return json([{ id: 'prod', name: 'Pro', prices: [{ id: 'price_1', unit_amount: 12990 }] }]);
    return json({ statusCode: 404, error: 'Not Found', message: 'Not found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function panel(sub: Subscription, acc = account({ subscription: sub })) {
  renderWithProviders(<ActivePlan account={acc} subscription={sub} now={now} />);
}

describe('the subscription panel', () => {
  it('active: green "Ativa", the monthly price in BRL, days to the next charge with its date, the period and usage bars', async () => {
    panel(subscription());
    expect(screen.getByRole('heading', { name: 'Plano Pro Ativo' })).toBeTruthy();
    const badge = screen.getByText('Ativa');
    expect(badge.className).toContain('text-success');
    expect(screen.getByText('Status da Assinatura', { exact: false })).toBeTruthy();
    expect(screen.getByText('R$ 99,90 / mês')).toBeTruthy();
    expect(screen.getByText('21 dias')).toBeTruthy();
    expect(screen.getAllByText('01/12/2026').length).toBeGreaterThan(0);
    expect(screen.getByText('01/11/2026 a 01/12/2026')).toBeTruthy();
    expect(screen.queryByText('Renovação em breve')).toBeNull();
    expect(screen.queryByText('Cancelamento programado')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Uso Atual dos Recursos' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('1.200 / 25.000')).toBeTruthy());
  });

  it('caps the usage bars at 100% when an account holds more than its limit', async () => {
    panel(subscription());
    await waitFor(() => expect(screen.getByText('7 / 5')).toBeTruthy());
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-valuenow')])).toEqual([
      ['Usuários', '40'],
      ['Conexões', '100'],
      ['Contatos', '5'],
    ]);
    expect((bars[1]!.firstElementChild as HTMLElement).style.width).toBe('100%');
  });

  it('a yearly price reads "/ ano"', () => {
    panel(subscription({ plan: { amount: 99900, interval: 'year' } }));
    expect(screen.getByText('R$ 999,00 / ano')).toBeTruthy();
  });

  it('warns "Renovação em breve" with the days and the amount at 7 days or fewer, not at 8, not on the day', () => {
    panel(subscription({ current_period_end: at(17) }));
    const warning = screen.getByText('Renovação em breve').parentElement!;
    expect(warning.textContent).toMatch(/Faltam 7 dias para a cobrança de R\$\s99,90\./);
    cleanup();
    panel(subscription({ current_period_end: at(11) }));
    expect(screen.getByText('Renovação em breve').parentElement!.textContent).toContain('Faltam 1 dia');
    cleanup();
    panel(subscription({ current_period_end: at(18) }));
    expect(screen.queryByText('Renovação em breve')).toBeNull();
    cleanup();
    panel(subscription({ current_period_end: Math.floor(now.getTime() / 1000) }));
    expect(screen.queryByText('Renovação em breve')).toBeNull();
    expect(screen.getByText('Hoje')).toBeTruthy();
  });

  it('says "Hoje" when no day is left before the charge', () => {
    panel(subscription({ current_period_end: at(9) }));
    expect(screen.getByText('Hoje')).toBeTruthy();
    expect(daysUntil(at(9), now)).toBe(0);
  });

  it('scheduled cancellation: "Cancelamento programado" with the period end date, and the end instead of a charge', () => {
    panel(subscription({ cancel_at_period_end: true, current_period_end: at(14) }));
    const notice = screen.getByText('Cancelamento programado').parentElement!;
    expect(notice.textContent).toContain('A assinatura termina em 14/11/2026');
    expect(screen.getByText('Termina em')).toBeTruthy();
    expect(screen.queryByText('Renovação em breve')).toBeNull();
  });

  it('trialing: "Período de teste"; past due: a yellow "Pagamento em atraso" and what to do', () => {
    panel(subscription({ status: 'trialing' }));
    expect(screen.getByText('Período de teste')).toBeTruthy();
    cleanup();
    panel(subscription({ status: 'past_due' }));
    const badge = screen.getAllByText('Pagamento em atraso').find((e) => e.tagName === 'SPAN')!;
    expect(badge.className).toContain('text-warning');
    expect(screen.getByText(/Atualize a forma de pagamento em 'Gerenciar assinatura'/)).toBeTruthy();
  });

  it('is shown only while the subscription gives the plan', () => {
    expect(liveSubscription(account())).not.toBeNull();
    expect(liveSubscription(account({ subscription: subscription({ status: 'past_due' }) }))).not.toBeNull();
    expect(liveSubscription(account({ plan: freePlan, subscription: subscription({ status: 'canceled' }) }))).toBeNull();
    expect(liveSubscription(account({ plan: freePlan, subscription: null }))).toBeNull();
  });
});

describe('the upgrade page', () => {
  const free = account({ plan: freePlan, subscription: null });

  it('compares Free with Pro ("Recomendado"), with the provider’s price, "Fazer Upgrade Agora" and "Por que escolher o Plano Pro?"', async () => {
    renderWithProviders(<UpgradePlan account={free} canUpgrade />);
    expect(screen.getByText('Gratuito')).toBeTruthy();
    expect(screen.getByText('Recomendado')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Por que escolher o Plano Pro?' })).toBeTruthy();
    expect(screen.getByText('Mais colaboradores')).toBeTruthy();
    expect(screen.getByText('Múltiplas conexões')).toBeTruthy();
    expect(screen.getByText('Base ampliada')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('R$ 129,90')).toBeTruthy());
    expect((screen.getByRole('button', { name: 'Fazer Upgrade Agora' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows R$ 99,90 while the price has not loaded, or when it cannot', async () => {
    fetchMock.mockImplementation(async () =>
      json({ statusCode: 503, error: 'Service Unavailable', message: 'The payment provider could not be reached' }, 503),
    );
    renderWithProviders(<UpgradePlan account={free} canUpgrade />);
    expect(screen.getByText('R$ 99,90')).toBeTruthy();
    expect(await screen.findByText('Preço de referência; o valor final aparece no pagamento.')).toBeTruthy();
    expect(screen.getByText('R$ 99,90')).toBeTruthy();
  });

  it('without payments configured says so and offers no checkout', async () => {
    fetchMock.mockImplementation(async () => json({ statusCode: 503, error: 'Service Unavailable', message: 'Payments are not configured' }, 503));
    renderWithProviders(<UpgradePlan account={free} canUpgrade />);
    const alert = (await screen.findByText('Pagamentos não configurados')).parentElement!;
    expect(alert.textContent).toContain('Pagamentos não configurados neste servidor. Fale com o administrador do sistema.');
    expect((screen.getByRole('button', { name: 'Fazer Upgrade Agora' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('after a cancellation shows the red "Cancelada" status on the current plan', () => {
    renderWithProviders(<UpgradePlan account={account({ plan: freePlan, subscription: subscription({ status: 'canceled' }) })} canUpgrade />);
    const badge = screen.getByText('Cancelada');
    expect(badge.className).toContain('text-danger');
  });

  it('is for admins to act on: members see why the button is off', () => {
    renderWithProviders(<UpgradePlan account={free} canUpgrade={false} />);
    expect((screen.getByRole('button', { name: 'Fazer Upgrade Agora' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Peça a um administrador da conta para fazer o upgrade.')).toBeTruthy();
  });

  it('"Fazer Upgrade Agora" asks for a checkout of the shown price', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fetchMock.mockImplementation(async (input: unknown) =>
      String(input).endsWith('/payments/products')
        ? json([{ id: 'prod', name: 'Pro', prices: [{ id: 'price_1', unit_amount: 12990 }] }])
        : json({ url: 'https://checkout.example/pay' }),
    );
    renderWithProviders(<UpgradePlan account={free} canUpgrade />);
    await screen.findByText('R$ 129,90');
    fireEvent.click(screen.getByRole('button', { name: 'Fazer Upgrade Agora' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(String(url)).toMatch(/\/payments\/create-checkout-session$/);
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ priceId: 'price_1' });
    vi.unstubAllGlobals();
  });
});

describe('back from Checkout', () => {
  it('waits clearly for the confirmation, and says so when it takes long', () => {
    renderWithProviders(<CheckoutPending startedAt={now.getTime()} now={now} />);
    const status = screen.getByRole('status');
    expect(within(status).getByRole('heading', { name: 'Confirmando o seu pagamento...' })).toBeTruthy();
    expect(status.textContent).not.toContain('demorando');
    cleanup();
    renderWithProviders(<CheckoutPending startedAt={now.getTime() - 61_000} now={now} />);
    expect(screen.getByRole('status').textContent).toContain('Está demorando mais que o normal');
  });
});
