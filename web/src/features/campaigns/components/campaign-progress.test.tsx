/**
 * A campaign's progress: a running campaign whose connection is down says which connection waits
 * and why (the lane's reason, by the connection's name), and says nothing of it once it sends again.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Campaign, CampaignRecipient } from '#contracts/campaigns.ts';
import { clearSession, setSession } from '#web/lib/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { adminFixture } from '#web/testing/user-fixture.ts';
import { CampaignLeftOut } from './campaign-left-out.tsx';
import { CampaignProgress } from './campaign-progress.tsx';

const at = '2026-01-01T00:00:00.000Z';
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

const campaign = (over: Partial<Campaign>): Campaign => ({
  id: 'K1',
  name: 'Ofertas da semana',
  status: 'running',
  audience: { kind: 'contacts', contactIds: ['c1', 'c2'] },
  serviceIds: ['s1', 's2'],
  message: { text: 'Oi!', fileId: null },
  startAt: at,
  window: { kind: 'business-hours' },
  pace: { minGapSeconds: 30, maxGapSeconds: 90, dailyLimit: 200, dailyNewChats: 20 },
  optOutHint: true,
  counts: { recipients: 2, queued: 1, sent: 1, skipped: 0, delivered: 1, read: 0, failed: 0, replied: 0, optedOut: 0 },
  estimatedFinishAt: null,
  waiting: [],
  createdBy: { id: 'u1', name: 'Ana' },
  createdAt: at,
  updatedAt: at,
  ...over,
});

const leftOut = (over: Partial<CampaignRecipient>): CampaignRecipient => ({
  contactId: 'c1',
  name: 'Maria Souza',
  phoneNumber: '5511999990001',
  serviceId: 's2',
  outcome: 'skipped',
  reason: 'O contato pediu para não receber campanhas',
  at,
  ...over,
});

/** GET /campaigns/K1/recipients by outcome and cursor. */
const recipientPages: Record<string, { data: CampaignRecipient[]; nextCursor: string | null }> = {
  'skipped:': { data: [leftOut({}), leftOut({ contactId: 'c2', name: null, reason: 'O contato foi excluído' })], nextCursor: 'UiMy' },
  'skipped:UiMy': { data: [leftOut({ contactId: 'c3', name: 'João Lima', reason: 'O contato está arquivado' })], nextCursor: null },
  'failed:': { data: [leftOut({ contactId: 'c4', name: 'Ana Reis', outcome: 'failed', reason: 'O contato bloqueou o bot' })], nextCursor: null },
};

function mockApi(answer: Campaign) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    const recipients = /\/campaigns\/K1\/recipients\?outcome=(\w+)(?:&after=(\w+))?/.exec(url);
    if (recipients) return json(recipientPages[`${recipients[1]}:${recipients[2] ?? ''}`]);
    if (url.includes('/campaigns/K1')) return json(answer);
    if (url.includes('/services'))
      return json({
        data: [
          { id: 's1', name: 'Bot da Doceria', type: 'telegram', status: 'disconnected', statusReason: null, createdAt: at, updatedAt: at },
          { id: 's2', name: 'WhatsApp Loja', type: 'whatsapp', status: 'connected', statusReason: null, createdAt: at, updatedAt: at },
        ],
        totalCount: 2,
      });
    return new Response('{}', { status: 404 });
  });
}

beforeEach(() => setSession({ accessToken: 't', user: adminFixture({}, at) }));
afterEach(() => {
  cleanup();
  clearSession();
  vi.restoreAllMocks();
});

describe('the progress of a running campaign', () => {
  it('names the connection that waits and why', async () => {
    mockApi(campaign({ waiting: [{ serviceId: 's1', reason: 'A conexão está desconectada' }] }));
    renderWithProviders(<CampaignProgress id="K1" />);
    const list = await screen.findByTestId('campaign-waiting');
    expect(screen.getByText('Envio parado em parte das conexões')).toBeTruthy();
    expect(await within(list).findByText('Bot da Doceria')).toBeTruthy();
    expect(list.textContent).toBe('Bot da Doceria: A conexão está desconectada');
  });

  it('says nothing of waiting when every connection sends at its pace', async () => {
    mockApi(campaign({}));
    renderWithProviders(<CampaignProgress id="K1" />);
    expect(await screen.findByText('Ofertas da semana')).toBeTruthy();
    expect(screen.queryByTestId('campaign-waiting')).toBeNull();
  });
});

/** The card as the progress screen renders it, its campaign's skipped count moved by `setSkipped` (the poll's answer). */
let setSkipped: (n: number) => void = () => {};
function Live({ counts }: { counts: Campaign['counts'] }) {
  const [skipped, set] = useState(counts.skipped);
  setSkipped = set;
  return <CampaignLeftOut campaign={campaign({ counts: { ...counts, skipped } })} />;
}

describe('who did not get it', () => {
  it('lists the skipped with why, a page at a time, each name opening the conversation, and the failed on their own', async () => {
    mockApi(campaign({ counts: { recipients: 9, queued: 0, sent: 6, skipped: 3, delivered: 5, read: 0, failed: 1, replied: 0, optedOut: 0 } }));
    renderWithProviders(<CampaignProgress id="K1" />);
    const list = await screen.findByTestId('left-out-list');
    expect(screen.getByTestId('left-out-skipped').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('left-out-skipped').textContent).toBe('Ignoradas (3)');
    expect(within(list).getByRole('link', { name: 'Maria Souza' }).getAttribute('href')).toBe('/inbox/c1');
    expect(within(list).getByText('O contato pediu para não receber campanhas')).toBeTruthy();
    // A contact deleted since: named as such, with no link.
    expect(within(list).getByText('Contato excluído')).toBeTruthy();
    expect(within(list).getAllByRole('link')).toHaveLength(1);
    expect(await within(list).findAllByText('WhatsApp Loja')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Carregar mais' }));
    expect(await within(list).findByRole('link', { name: 'João Lima' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).toBeNull();

    fireEvent.click(screen.getByTestId('left-out-failed'));
    const failed = await screen.findByText('O contato bloqueou o bot');
    expect(screen.getByTestId('left-out-failed').getAttribute('aria-pressed')).toBe('true');
    expect(within(screen.getByTestId('left-out-list')).getAllByRole('listitem')).toHaveLength(1);
    expect(failed).toBeTruthy();
  });

  it('says everyone reached so far got it when nobody was skipped and nothing failed', async () => {
    mockApi(campaign({}));
    renderWithProviders(<CampaignProgress id="K1" />);
    expect(await screen.findByText('Todos os destinatários atendidos até agora receberam a mensagem.')).toBeTruthy();
    expect(screen.queryByTestId('left-out-skipped')).toBeNull();
  });

  it('asks again, keeping the pages loaded, when the campaign skips one more while it runs', async () => {
    const counts = { recipients: 9, queued: 3, sent: 3, skipped: 3, delivered: 3, read: 0, failed: 0, replied: 0, optedOut: 0 };
    mockApi(campaign({ counts }));
    renderWithProviders(<Live counts={counts} />);
    const list = await screen.findByTestId('left-out-list');
    fireEvent.click(await screen.findByRole('button', { name: 'Carregar mais' }));
    await within(list).findByRole('link', { name: 'João Lima' });
    // The poll brings one more skipped: it is on the last page now.
    const lastPage = recipientPages['skipped:UiMy']!;
    recipientPages['skipped:UiMy'] = { data: [...lastPage.data, leftOut({ contactId: 'c5', name: 'Paulo Dias' })], nextCursor: null };
    act(() => setSkipped(4));
    expect(await within(list).findByRole('link', { name: 'Paulo Dias' })).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Maria Souza' })).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByTestId('left-out-skipped').textContent).toBe('Ignoradas (4)');
    recipientPages['skipped:UiMy'] = lastPage;
  });
});
