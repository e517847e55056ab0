/**
 * A campaign's progress: a running campaign whose connection is down says which connection waits
 * and why (the lane's reason, by the connection's name), and says nothing of it once it sends again.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '#contracts/campaigns.ts';
import { clearSession, setSession } from '#web/lib/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { adminFixture } from '#web/testing/user-fixture.ts';
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

function mockApi(answer: Campaign) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
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
