/**
 * A template campaign on a WhatsApp (API oficial) connection (ADR-0227, "Templates"),
 * through a runtime of the file's own with the Graph API double standing in for Meta and the
 * campaigns' poller running every second: the plan answers the templates' cost by country, and
 * the campaign reaches a customer whose 24-hour window closed (free text would be skipped) as the
 * approved template with the customer's first name in its body, exactly once, beside a customer of
 * another country whose window is open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_WINDOW_MS } from '../support/fake-graph-api.ts';
import { strongPassword, uniqueEmail } from './api.ts';
import { cloudGraphWorld } from './cloud-graph-world.ts';
import { eventually } from './worker.ts';

const APP_SECRET = '7a6b5c4d3e2f10ffeeddccbbaa998877';
const JOANA = { waId: '5511944443333', name: 'Joana Souza' };
const JOHN = { waId: '16502530000', name: 'John Miller' };

// Before the runtime starts (its poller reads it once): a run every second.
beforeAll(() => {
  process.env.CAMPAIGN_POLL_MS = '1000';
});
afterAll(() => {
  delete process.env.CAMPAIGN_POLL_MS;
});
const world = cloudGraphWorld('conversa-campaigns-cloud-', { appSecret: APP_SECRET, start: Date.now() });
const { own, serverClockAt } = world;
const call = own.call;

/** Both clocks at `at` while the customer writes, then back to now. */
async function customerWrote(number: { phoneNumberId: string }, url: string, customer: { waId: string; name: string }, at: number) {
  serverClockAt(at);
  world.fake().setNow(at);
  const { payload } = world.fake().inbound(number.phoneNumberId, customer, { type: 'text', body: 'Oi, vocês têm promoção?' });
  const [delivered] = await world.fake().deliver(payload, { url });
  expect(delivered!.status).toBe(204);
  serverClockAt(Date.now());
  world.fake().setNow(Date.now());
}

describe('a template campaign on the API oficial', () => {
  it('costs per country at plan, and reaches a customer whose window closed with the template, once', { timeout: 40_000 }, async () => {
    const person = await call('POST', '/auth/register', { body: { name: 'Dona da Loja', email: uniqueEmail('campcloud'), password: strongPassword } });
    const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Loja da Esquina' } });
    const token = account.body.accessToken as string;
    const accessToken = `EAAGcampaigns${Date.now()}`;
    world.fake().addToken(accessToken);
    const number = world.fake().addNumber({ displayPhoneNumber: '+55 11 3555-4000', verifiedName: 'Loja da Esquina' });
    const service = await call('POST', '/services', {
      token,
      body: { name: 'Oficial', type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
    });
    expect(service.status).toBe(201);
    const serviceId = service.body.id as string;
    expect((await call('POST', `/services/${serviceId}/start`, { token })).status).toBe(200);
    const url = `${own.runtime().url}${service.body.webhook.path}`;

    // A marketing template, approved by Meta's webhook.
    const created = await call('POST', `/services/${serviceId}/templates`, {
      token,
      body: { name: 'ofertas_semana', category: 'MARKETING', body: 'Olá {{1}}, chegaram ofertas novas na loja!', examples: ['Joana'] },
    });
    expect(created.status).toBe(201);
    await world.fake().deliver(world.fake().approveTemplate(created.body.id), { url });
    await eventually(async () => (await call('GET', `/services/${serviceId}/templates`, { token })).body.data[0]?.status === 'APPROVED');

    // Joana wrote 25 hours ago (her window is closed); John, a US number, just now.
    await customerWrote(number, url, JOANA, Date.now() - SERVICE_WINDOW_MS - 60 * 60 * 1000);
    await customerWrote(number, url, JOHN, Date.now());
    const contacts = (await call('GET', '/contacts', { token })).body.data as { id: string; name: string; lastInboundAt: string }[];
    expect(contacts).toHaveLength(2);
    // Free text to Joana would be skipped ('windowClosed'): her last message is older than the window.
    const joana = contacts.find((c) => c.name === JOANA.name)!;
    expect(Date.now() - Date.parse(joana.lastInboundAt)).toBeGreaterThan(SERVICE_WINDOW_MS);

    const campaign = {
      name: 'Ofertas da semana',
      audience: { kind: 'contacts', contactIds: contacts.map((c) => c.id) },
      serviceIds: [serviceId],
      message: { template: { name: 'ofertas_semana', language: 'pt_BR', parameters: ['{{primeiro_nome}}'] } },
      window: { kind: 'hours', start: '00:00', end: '24:00', weekdays: [0, 1, 2, 3, 4, 5, 6] },
      pace: { minGapSeconds: 1, maxGapSeconds: 1, dailyLimit: 100, dailyNewChats: 0 },
    };
    const plan = await call('POST', '/campaigns/plan', { token, body: campaign });
    expect(plan.status).toBe(200);
    // The runtime's default table: Brazil's and the United States' marketing rates.
    expect(plan.body).toMatchObject({
      recipients: 2,
      cost: {
        currency: 'USD',
        category: 'MARKETING',
        total: 0.0875,
        byCountry: [
          { country: 'BR', recipients: 1, unitPrice: 0.0625 },
          { country: 'US', recipients: 1, unitPrice: 0.025 },
        ],
      },
    });

    const started = await call('POST', '/campaigns', { token, body: campaign });
    expect(started.status).toBe(201);
    const done = await eventually(async () => {
      const c = (await call('GET', `/campaigns/${started.body.id}`, { token })).body;
      return c.status === 'finished' ? c : null;
    }, 25_000);
    expect(done.counts).toMatchObject({ recipients: 2, sent: 2, skipped: 0, queued: 0 });

    const templatesTo = (waId: string) =>
      world.fake().accepted.filter((s) => s.phoneNumberId === number.phoneNumberId && s.body.type === 'template' && s.body.to === waId);
    // Both went out as the template before the campaign finished (one in the queue at a time), and nothing else did.
    expect(templatesTo(JOANA.waId)).toHaveLength(1);
    expect(templatesTo(JOANA.waId)[0]!.body).toMatchObject({
      template: { name: 'ofertas_semana', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Joana' }] }] },
    });
    expect(templatesTo(JOHN.waId)).toHaveLength(1);
    expect(templatesTo(JOHN.waId)[0]!.body.template.components[0].parameters).toEqual([{ type: 'text', text: 'John' }]);
    expect(world.fake().accepted.filter((s) => s.phoneNumberId === number.phoneNumberId && s.body.type !== 'template')).toEqual([]);
  });
});
