/**
 * WhatsApp peers end to end below the socket: real Baileys messages (built with its `proto`) go
 * through the adapter's mapping into the real inbound sink over the runtime's table. One person
 * is one contact whatever order their `@lid` id and phone number arrive in; a link learnt later
 * merges two conversations into one; reactions show on the message they react to; a send WhatsApp
 * failed (-2) can be tried again.
 */
import { describe, expect, it } from 'vitest';
import { proto, type WAMessage } from 'baileys';
import { listQueryString } from '#contracts/list-query.ts';
import { realtimeEvent } from '#contracts/realtime.ts';
import { getMessageItem } from '#db/messages.ts';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import { acksOfUpdates } from '#connectors/whatsapp/acks.ts';
import { handleMessage, type InboundContext } from '#connectors/whatsapp/inbound.ts';
import { aliasOfMapping } from '#connectors/whatsapp/jids.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { listen } from './realtime-client.ts';
import { eventually, fakeChannel, workerPorts } from './worker.ts';

/** Each message a second after the one before, so conversations have one order. */
let clock = Math.floor(Date.now() / 1000) - 3600;
let sequence = 0;

/** A person: a phone number and a private @lid id of their own. */
function person() {
  const n = `${Date.now() % 1_000_000}${++sequence}`.padStart(8, '0').slice(-8);
  return { phone: `55219${n}`, pn: `55219${n}@s.whatsapp.net`, lid: `1${n}${n}@lid` };
}

/** The adapter's mapping over the real sink of a connection; `known` is Baileys' LID store. */
function adapter(accountId: string, serviceId: string, known: Record<string, string> = {}) {
  const sink = inboundSink(workerPorts(), { accountId, serviceId });
  const context: InboundContext = {
    sink,
    media: { ports: workerPorts(), accountId },
    me: () => '5511900000000@s.whatsapp.net',
    groupName: async () => '',
    pnForLid: async (lid) => known[lid] ?? null,
  };
  const receive = (key: Record<string, unknown>, message: Record<string, unknown>, pushName = 'Cliente') => {
    const wa = proto.WebMessageInfo.fromObject({ key: { fromMe: false, ...key }, messageTimestamp: ++clock, pushName, message }) as WAMessage;
    // Baileys' alternate JIDs are fields of its own key type, not of the protobuf.
    Object.assign(wa.key, { remoteJidAlt: key.remoteJidAlt, participantAlt: key.participantAlt });
    return handleMessage(context, wa);
  };
  return { sink, receive };
}

async function contactsOf(token: string, serviceId: string) {
  return (await call('GET', `/contacts${listQueryString({ where: { serviceId }, perPage: 50 })}`, { token })).body.data as {
    id: string;
    idFromService: string;
    name: string;
    unread: number;
    data: { phoneNumber: string | null };
    lastMessage: { text: string } | null;
  }[];
}

async function textsOf(token: string, contactId: string): Promise<string[]> {
  const page = await call('GET', `/messages${listQueryString({ where: { contactId }, perPage: 50 })}`, { token });
  return (page.body.data as { text: string }[]).map((m) => m.text).reverse();
}

const uid = (tag: string) => `${tag}-${Date.now()}-${++sequence}`;

describe('one person, one contact', () => {
  it('a contact made by phone number receives the messages that come by @lid, with or without the number beside them', async () => {
    const { owner, contact, service } = await inboxTeam();
    const lid = `1${contact.data.phoneNumber.slice(-8)}99@lid`;
    const wa = adapter(owner.accountId, service.id);
    await wa.receive({ remoteJid: lid, remoteJidAlt: contact.idFromService, id: uid('A') }, { conversation: 'Oi, pelo lid com número' });
    // Baileys' store does not know this id: the alias the contact took finds it.
    await wa.receive({ remoteJid: lid, id: uid('B') }, { conversation: 'Oi, só pelo lid' });
    const contacts = await contactsOf(owner.token, service.id);
    expect(contacts.map((c) => c.id)).toEqual([contact.id]);
    expect(await textsOf(owner.token, contact.id)).toEqual(['Oi, pelo lid com número', 'Oi, só pelo lid']);
  });

  it('a contact first seen by @lid alone takes the phone number when it arrives, keeps its conversation, and sends go to the number', async () => {
    const { owner, service } = await inboxTeam();
    const p = person();
    const wa = adapter(owner.accountId, service.id);
    await wa.receive({ remoteJid: p.lid, id: uid('L') }, { conversation: 'Primeira, só lid' }, 'Joana');
    const [first] = await contactsOf(owner.token, service.id).then((cs) => cs.filter((c) => c.name === 'Joana'));
    expect(first).toMatchObject({ idFromService: p.lid, data: { phoneNumber: null } });

    await wa.receive({ remoteJid: p.pn, remoteJidAlt: p.lid, id: uid('P') }, { conversation: 'Segunda, pelo número' }, 'Joana');
    const after = (await contactsOf(owner.token, service.id)).filter((c) => c.name === 'Joana');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first!.id, idFromService: p.pn, data: { phoneNumber: p.phone }, unread: 2 });
    expect(await textsOf(owner.token, first!.id)).toEqual(['Primeira, só lid', 'Segunda, pelo número']);

    const sent = await call('POST', '/messages/send', { token: owner.token, body: { contactId: first!.id, serviceId: service.id, text: 'Olá, Joana' } });
    expect(sent.status).toBe(201);
    const delivered = await eventually(async () => (await fakeChannel.sent()).find((s) => s.message.text === 'Olá, Joana' && s.message.to === p.pn));
    expect(delivered.message.to).toBe(p.pn);
  });

  it('a link learnt later merges the @lid conversation into the phone-number contact, in time order, and later @lid messages land there', async () => {
    const { owner, contact, service } = await inboxTeam();
    const lid = `2${contact.data.phoneNumber.slice(-8)}77@lid`;
    const wa = adapter(owner.accountId, service.id);
    const ids = { first: uid('M1'), second: uid('M2'), third: uid('M3') };
    // The hand-made contact gets a message by number; meanwhile the same person writes by @lid alone: two contacts.
    await wa.receive({ remoteJid: contact.idFromService, id: ids.first }, { conversation: '1 pelo número' });
    await wa.receive({ remoteJid: lid, id: ids.second }, { conversation: '2 pelo lid' }, 'Maria');
    await wa.receive({ remoteJid: lid, id: ids.third }, { extendedTextMessage: { text: '3 respondendo a 2', contextInfo: { stanzaId: ids.second } } }, 'Maria');
    await wa.receive({ remoteJid: lid, id: uid('R') }, { reactionMessage: { key: { id: ids.first }, text: '👍', senderTimestampMs: Date.now() } });
    const before = await contactsOf(owner.token, service.id);
    expect(before).toHaveLength(2);
    const lidContact = before.find((c) => c.idFromService === lid)!;

    // Baileys learns the link (lid-mapping.update) and the session hands it over.
    await wa.sink.alias(aliasOfMapping({ lid, pn: contact.idFromService })!);

    const after = await contactsOf(owner.token, service.id);
    expect(after.map((c) => c.id)).toEqual([contact.id]);
    expect(after[0]).toMatchObject({ unread: 3, lastMessage: { text: '3 respondendo a 2' } });
    expect(await textsOf(owner.token, contact.id)).toEqual(['1 pelo número', '2 pelo lid', '3 respondendo a 2']);
    expect((await call('GET', `/contacts/${lidContact.id}`, { token: owner.token })).status).toBe(404);
    const page = await call('GET', `/messages${listQueryString({ where: { contactId: contact.id } })}`, { token: owner.token });
    const reply = page.body.data.find((m: { text: string }) => m.text === '3 respondendo a 2');
    expect(reply.quotedMessage).toMatchObject({ text: '2 pelo lid' });

    // Acks, replies and reactions still find the moved messages by their WhatsApp ids.
    await wa.receive({ remoteJid: lid, id: uid('R2') }, { reactionMessage: { key: { id: ids.second }, text: '❤️', senderTimestampMs: Date.now() } });
    await wa.receive({ remoteJid: lid, id: uid('M4') }, { conversation: '4 depois do vínculo' });
    expect(await textsOf(owner.token, contact.id)).toEqual(['1 pelo número', '2 pelo lid', '3 respondendo a 2', '4 depois do vínculo']);
    const again = await call('GET', `/messages${listQueryString({ where: { contactId: contact.id } })}`, { token: owner.token });
    expect(again.body.data.find((m: { text: string }) => m.text === '2 pelo lid').reactions).toEqual([{ emoji: '❤️', count: 1, fromMe: false }]);
    // Linking again changes nothing.
    await wa.sink.alias(aliasOfMapping({ lid, pn: contact.idFromService })!);
    expect((await contactsOf(owner.token, service.id)).map((c) => c.id)).toEqual([contact.id]);
  });

  it('a person first seen by @lid whose number Baileys already knows is made once, under the number, with the @lid id as an alias', async () => {
    const { owner, service } = await inboxTeam();
    const p = person();
    const wa = adapter(owner.accountId, service.id, { [p.lid]: `${p.phone}:0@s.whatsapp.net` });
    await wa.receive({ remoteJid: p.lid, id: uid('K1') }, { conversation: 'Oi' }, 'Pedro');
    await wa.receive({ remoteJid: p.pn, id: uid('K2') }, { conversation: 'Oi de novo' }, 'Pedro');
    const contacts = (await contactsOf(owner.token, service.id)).filter((c) => c.name === 'Pedro');
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ idFromService: p.pn, data: { phoneNumber: p.phone } });
  });
});

describe('reactions', () => {
  it('a reaction through the sink shows on the message it reacts to, in the API and as message.UPDATED, never as a message of its own', async () => {
    const { owner, contact, service } = await inboxTeam();
    const wa = adapter(owner.accountId, service.id);
    const log = await listen(owner.token);
    try {
      const target = uid('T');
      await wa.receive({ remoteJid: contact.idFromService, id: target }, { conversation: 'O pedido chegou?' });
      await wa.receive(
        { remoteJid: contact.idFromService, id: uid('RX') },
        { reactionMessage: { key: { id: target }, text: '👍', senderTimestampMs: Date.now() } },
      );
      // One made on our own phone too.
      await wa.receive(
        { remoteJid: contact.idFromService, fromMe: true, id: uid('RY') },
        { reactionMessage: { key: { id: target }, text: '👍', senderTimestampMs: Date.now() + 1 } },
      );
      const page = await call('GET', `/messages${listQueryString({ where: { contactId: contact.id } })}`, { token: owner.token });
      expect(page.body.totalCount).toBe(1);
      expect(page.body.data[0].reactions).toEqual([{ emoji: '👍', count: 2, fromMe: true }]);
      const updated = await log.waitFor((e) => e.event === 'message.UPDATED' && e.data.reactions?.[0]?.count === 2);
      expect(realtimeEvent.parse(updated).data).toMatchObject({ text: 'O pedido chegou?', reactions: [{ emoji: '👍', count: 2, fromMe: true }] });
    } finally {
      log.close();
    }
  });
});

describe('a send WhatsApp failed', () => {
  it('an error status (-2) from WhatsApp marks the message failed, and it can be tried again from the inbox', async () => {
    const { owner, contact, service } = await inboxTeam();
    const wa = adapter(owner.accountId, service.id);
    const sent = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: service.id, text: 'Vai falhar' } });
    const ports = workerPorts();
    const stored = await eventually(async () => {
      const item = await getMessageItem(ports.table, owner.accountId, contact.id, sent.body.id);
      return item?.ack === 1 && item;
    });
    // WhatsApp reports the error as Baileys' status update of our message.
    const acks = acksOfUpdates([
      { key: { remoteJid: contact.idFromService, fromMe: true, id: stored.channelMessageId! }, update: { status: proto.WebMessageInfo.Status.ERROR } },
    ]);
    expect(acks).toEqual([{ channelMessageId: stored.channelMessageId, ack: -2 }]);
    for (const ack of acks) await wa.sink.ack(ack);
    const failed = await call('GET', `/messages${listQueryString({ where: { contactId: contact.id } })}`, { token: owner.token });
    expect(failed.body.data[0]).toMatchObject({ id: sent.body.id, ack: -2 });
    const retried = await call('POST', `/messages/${sent.body.id}/retry`, { token: owner.token, body: { contactId: contact.id } });
    expect(retried.status).toBe(200);
    expect(retried.body.ack).toBe(0);
    await eventually(async () => (await getMessageItem(ports.table, owner.accountId, contact.id, sent.body.id))?.ack === 1);
    expect((await fakeChannel.sent()).filter((s) => s.message.messageId === sent.body.id)).toHaveLength(2);
  });
});
