/**
 * A send WhatsApp took and then refused (ack error 463, Baileys #2683): the error status that
 * Baileys reports, as the socket double emits it, goes through the adapter's ack mapping into the
 * real inbound sink; the message is failed with the pt-BR reason, in the API and in the realtime
 * event the bubble redraws from, and it is not sent again until someone asks.
 */
import { describe, expect, it } from 'vitest';
import type { WAMessageUpdate } from 'baileys';
import { listQueryString } from '#contracts/list-query.ts';
import { getMessageItem } from '#db/messages.ts';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import { acksOfUpdates, refusedReason } from '#connectors/whatsapp/acks.ts';
import { SocketDouble } from '../support/whatsapp-double.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { listen } from './realtime-client.ts';
import { eventually, fakeChannel, workerPorts } from './worker.ts';

describe('a send WhatsApp refused with 463', () => {
  it('is failed with the reason on the message (API and message.UPDATED), and is not sent again by itself', async () => {
    const { owner, contact, service } = await inboxTeam();
    const ports = workerPorts();
    const sink = inboundSink(ports, { accountId: owner.accountId, serviceId: service.id });
    const log = await listen(owner.token);
    try {
      const sent = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: service.id, text: 'Olá, tudo bem?' } });
      const stored = await eventually(async () => {
        const item = await getMessageItem(ports.table, owner.accountId, contact.id, sent.body.id);
        return item?.ack === 1 && item;
      });
      // WhatsApp's ack with error 463, as Baileys reports it.
      const socket = new SocketDouble();
      const updates: WAMessageUpdate[] = [];
      socket.ev.on('messages.update', (u) => updates.push(...u));
      socket.badAck({ remoteJid: contact.idFromService, fromMe: true, id: stored.channelMessageId! }, '463');
      for (const ack of acksOfUpdates(updates)) await sink.ack(ack);

      const page = await call('GET', `/messages${listQueryString({ where: { contactId: contact.id } })}`, { token: owner.token });
      expect(page.body.data[0]).toMatchObject({ id: sent.body.id, ack: -2, error: refusedReason('463') });
      const updated = await log.waitFor((e) => e.event === 'message.UPDATED' && e.data.id === sent.body.id && e.data.ack === -2);
      expect(updated.data.error).toBe(refusedReason('463'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await fakeChannel.sent()).filter((s) => s.message.messageId === sent.body.id)).toHaveLength(1);
    } finally {
      log.close();
    }
  });
});
