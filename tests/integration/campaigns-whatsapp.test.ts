/**
 * A campaign from a QR WhatsApp number (ADR-0227) on a local runtime of this file's own whose worker
 * sends through Baileys socket doubles, the campaigns' poller running every second: each contact is
 * reached once at the campaign's pace; a socket that closes during a send gets the message sent on
 * the retry, not twice; and a campaign message over the number's daily cap (ADR-0179) waits in the
 * worker with the cap's reason on the campaign's lane, then goes the next day, nobody reached twice.
 */
import { DisconnectReason } from 'baileys';
import { describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { sendWaitTexts } from '#contracts/messages.ts';
import { closeError, type SocketDouble } from '../support/whatsapp-double.ts';
import { sendCapsWorld } from './send-caps-world.ts';
import { eventually } from './worker.ts';

const { own, clock, team, contact } = sendCapsWorld('campaign', { dailySends: 2, dailyNewChats: 100 });
// Read when the runtime starts (before the file's tests).
process.env.CAMPAIGN_POLL_MS = '1000';
const call = own.call;

const campaignSends = (socket: SocketDouble) => socket.sent.filter((s) => 'text' in s.content && s.content.text.includes('temos novidades')).map((s) => s.jid);

type Message = { id: string; ack: number; error: string | null; waiting: string | null; timestamp: string; text: string };
async function messagesOf(token: string, contactId: string): Promise<Message[]> {
  return (await call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token })).body.data as Message[];
}

describe('a campaign from a QR WhatsApp number', () => {
  it('reaches each contact once at its pace, through a send cut by a closed socket and a send held by the daily cap', { timeout: 30_000 }, async () => {
    const t = await team();
    const contactIds = [await contact(t, 'Ana Lima'), await contact(t, 'Bruno Reis'), await contact(t, 'Carla Dias')];
    // The socket closes during the first send (Baileys' 'Connection Closed', 428): the worker retries it.
    t.socket.failNextSend = closeError(DisconnectReason.connectionClosed, 'Connection Closed');
    const created = await call('POST', '/campaigns', {
      token: t.token,
      body: {
        name: 'Ofertas',
        audience: { kind: 'contacts', contactIds },
        serviceIds: [t.serviceId],
        message: { text: 'Oi {{primeiro_nome}}, temos novidades!' },
        window: { kind: 'hours', start: '00:00', end: '24:00', weekdays: [0, 1, 2, 3, 4, 5, 6] },
        pace: { minGapSeconds: 1, maxGapSeconds: 1, dailyLimit: 1000, dailyNewChats: 1000 },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const campaign = async () => (await call('GET', `/campaigns/${id}`, { token: t.token })).body;

    // The failed attempt sent nothing; the retry sent it once.
    await eventually(async () => t.socket.failNextSend === null && campaignSends(t.socket).length === 1, 15_000);
    await eventually(async () => (await messagesOf(t.token, contactIds[0]!))[0]?.ack === 1);
    expect(await messagesOf(t.token, contactIds[0]!)).toHaveLength(1);
    // The lane looks again at a message still in the queue every 10 s; resuming makes it look now.
    expect((await call('POST', `/campaigns/${id}/status`, { token: t.token, body: { action: 'pause' } })).status).toBe(200);
    expect((await call('POST', `/campaigns/${id}/status`, { token: t.token, body: { action: 'resume' } })).status).toBe(200);

    // The third is over the number's daily cap of 2: written once, held in the worker, the lane waiting with the cap's reason.
    const waiting = await eventually(async () => {
      const c = await campaign();
      return c.waiting.length ? c : null;
    }, 15_000);
    expect(waiting).toMatchObject({ status: 'running', counts: { recipients: 3, sent: 3, queued: 0 } });
    expect(waiting.waiting).toEqual([{ serviceId: t.serviceId, reason: sendWaitTexts.dailySends }]);
    expect(campaignSends(t.socket)).toHaveLength(2);
    expect(await messagesOf(t.token, contactIds[2]!)).toMatchObject([{ ack: 0, error: null, waiting: sendWaitTexts.dailySends }]);

    // The next day the worker sends it; the lane, woken, finds nobody left.
    clock.now += 24 * 3600 * 1000;
    await eventually(async () => (await messagesOf(t.token, contactIds[2]!))[0]?.ack === 1, 10_000);
    expect((await call('POST', `/campaigns/${id}/status`, { token: t.token, body: { action: 'pause' } })).status).toBe(200);
    expect((await call('POST', `/campaigns/${id}/status`, { token: t.token, body: { action: 'resume' } })).status).toBe(200);
    const done = await eventually(async () => {
      const c = await campaign();
      return c.status === 'finished' ? c : null;
    });
    expect(done).toMatchObject({ waiting: [], counts: { recipients: 3, sent: 3, skipped: 0, queued: 0 } });

    // Each contact reached exactly once, by one message each, sent in the contacts' order at least a gap apart.
    const sends = campaignSends(t.socket);
    expect(sends).toHaveLength(3);
    expect(new Set(sends).size).toBe(3);
    const messages = await Promise.all(contactIds.map(async (c) => messagesOf(t.token, c)));
    for (const [i, list] of messages.entries()) {
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ ack: 1, error: null, waiting: null });
      expect(list[0]!.text).toContain(`Oi ${['Ana', 'Bruno', 'Carla'][i]}, temos novidades!`);
    }
    const times = messages.map((list) => Date.parse(list[0]!.timestamp));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1000);
  });
});
