/**
 * The mapping of real Baileys messages (built with its `proto`) to what the inbox receives: every
 * message type, quotes, groups, messages from the phone, edits, deletions, reactions and acks.
 */
import { describe, expect, it } from 'vitest';
import { proto, type WAMessage } from 'baileys';
import { memoryStorage, recordingSink } from '../../tests/support/whatsapp-double.ts';
import type { Ports } from '#domain/ports.ts';
import { ackOfStatus, acksOfReceipts, acksOfUpdates } from './acks.ts';
import { handleMessage, type InboundContext } from './inbound.ts';
import { aliasOfMapping } from './jids.ts';
import { messageTime } from './time.ts';

const customer = '5511912345678@s.whatsapp.net';
const group = '120363025246125888@g.us';
const lid = '123456789012345@lid';
const at = 1_767_225_600; // 2026-01-01T00:00:00Z

function waMessage(object: Record<string, unknown>): WAMessage {
  return proto.WebMessageInfo.fromObject({ messageTimestamp: at, pushName: 'Maria Cliente', ...object }) as WAMessage;
}

const fromCustomer = (message: Record<string, unknown>, id = 'A1B2C3') => waMessage({ key: { remoteJid: customer, fromMe: false, id }, message });

function setup(options: { download?: (m: WAMessage) => Promise<Uint8Array>; pnForLid?: InboundContext['pnForLid'] } = {}) {
  const { sink, calls } = recordingSink();
  const { storage, objects } = memoryStorage();
  let n = 0;
  const context: InboundContext = {
    sink,
    media: {
      ports: { storage, newId: () => `FILE${++n}` } as unknown as Pick<Ports, 'storage' | 'newId'>,
      accountId: 'ACC1',
      download: options.download ?? (async () => new Uint8Array([1, 2, 3, 4])),
    },
    me: () => '5511900000000@s.whatsapp.net',
    groupName: async (jid) => (jid === group ? 'Grupo da Loja' : ''),
    pnForLid: options.pnForLid,
  };
  const only = () => {
    expect(calls).toHaveLength(1);
    return calls[0]!;
  };
  const message = () => {
    const call = only();
    if (call.kind !== 'message') throw new Error(`expected a message, got ${call.kind}`);
    return call.input;
  };
  return { context, calls, objects, only, message };
}

describe('inbound messages', () => {
  it('a text from a customer: the person is the chat, named by their push name, with the phone number and the time', async () => {
    const t = setup();
    await handleMessage(t.context, fromCustomer({ conversation: 'Oi, tudo bem?' }));
    expect(t.message()).toEqual({
      channelMessageId: 'A1B2C3',
      chat: { idFromService: customer, name: 'Maria Cliente', isGroup: false, phoneNumber: '5511912345678' },
      author: null,
      isFromMe: false,
      type: 'text',
      text: 'Oi, tudo bem?',
      media: null,
      replyToChannelMessageId: null,
      // Received long after its second: the last moment of that second.
      timestamp: '2026-01-01T00:00:00.999Z',
    });
  });

  it('an extended text that quotes another message replies to it by its WhatsApp id', async () => {
    const t = setup();
    await handleMessage(
      t.context,
      fromCustomer({
        extendedTextMessage: { text: 'Esse aqui', contextInfo: { stanzaId: 'ORIG9', participant: customer, quotedMessage: { conversation: 'original' } } },
      }),
    );
    expect(t.message()).toMatchObject({ type: 'text', text: 'Esse aqui', replyToChannelMessageId: 'ORIG9' });
  });

  it('an image with a caption is downloaded into the bucket under the account only when loaded', async () => {
    let downloads = 0;
    const t = setup({
      download: async () => {
        downloads++;
        return new Uint8Array([9, 9, 9]);
      },
    });
    await handleMessage(
      t.context,
      fromCustomer({ imageMessage: { caption: 'Olha a foto', mimetype: 'image/jpeg', url: 'https://mmg.whatsapp.net/x', mediaKey: Buffer.alloc(32) } }),
    );
    const input = t.message();
    expect(input).toMatchObject({ type: 'image', text: 'Olha a foto', media: { unavailableText: 'mídia indisponível' } });
    expect(downloads).toBe(0);
    const loaded = await input.media!.load();
    expect(loaded).toEqual({ objectKey: 'accounts/ACC1/files/FILE1/imagem-A1B2C3.jpg', name: 'imagem-A1B2C3.jpg', mimetype: 'image/jpeg', size: 3 });
    expect(t.objects.get(loaded!.objectKey)).toEqual({ bytes: new Uint8Array([9, 9, 9]), mimetype: 'image/jpeg' });
  });

  it('video, audio, voice notes (ptt), documents with their file name and stickers (as images) each keep their type', async () => {
    const cases: [Record<string, unknown>, { type: string; text: string; name: string; mimetype: string }][] = [
      [{ videoMessage: { caption: 'Vídeo', mimetype: 'video/mp4' } }, { type: 'video', text: 'Vídeo', name: 'video-A1B2C3.mp4', mimetype: 'video/mp4' }],
      [{ audioMessage: { mimetype: 'audio/mpeg', ptt: false } }, { type: 'audio', text: '', name: 'audio-A1B2C3.mp3', mimetype: 'audio/mpeg' }],
      [
        { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true } },
        { type: 'voice', text: '', name: 'voz-A1B2C3.ogg', mimetype: 'audio/ogg; codecs=opus' },
      ],
      [
        { documentWithCaptionMessage: { message: { documentMessage: { fileName: 'Orçamento.pdf', mimetype: 'application/pdf', caption: 'Segue' } } } },
        { type: 'document', text: 'Segue', name: 'Orçamento.pdf', mimetype: 'application/pdf' },
      ],
      [{ stickerMessage: { mimetype: 'image/webp' } }, { type: 'image', text: '', name: 'figurinha-A1B2C3.webp', mimetype: 'image/webp' }],
    ];
    for (const [content, expected] of cases) {
      const t = setup();
      await handleMessage(t.context, fromCustomer(content));
      const input = t.message();
      expect(input).toMatchObject({ type: expected.type, text: expected.text });
      expect(await input.media!.load()).toMatchObject({ name: expected.name, mimetype: expected.mimetype });
    }
  });

  it('media that cannot be downloaded loads as nothing, so the message keeps "mídia indisponível"', async () => {
    const t = setup({ download: async () => Promise.reject(new Error('bad decrypt')) });
    await handleMessage(t.context, fromCustomer({ imageMessage: { mimetype: 'image/jpeg' } }));
    expect(await t.message().media!.load()).toBeNull();
    expect(t.objects.size).toBe(0);
  });

  it('locations and contact cards arrive as readable text', async () => {
    const location = setup();
    await handleMessage(
      location.context,
      fromCustomer({ locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' } }),
    );
    expect(location.message()).toMatchObject({
      type: 'text',
      text: '[localização] https://maps.google.com/?q=-23.5505,-46.6333 (Loja Centro, Praça da Sé)',
      media: null,
    });

    const card = setup();
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João Silva\nTEL;type=CELL;waid=5521987654321:+55 21 98765-4321\nEND:VCARD';
    await handleMessage(card.context, fromCustomer({ contactMessage: { displayName: 'João Silva', vcard } }));
    expect(card.message()).toMatchObject({ type: 'text', text: '[contato] João Silva +5521987654321' });

    const cards = setup();
    await handleMessage(
      cards.context,
      fromCustomer({ contactsArrayMessage: { contacts: [{ displayName: 'Ana', vcard: 'TEL:+55 11 4000-0000' }, { displayName: 'Bia' }] } }),
    );
    expect(cards.message().text).toBe('[contato] Ana +55 11 4000-0000\n[contato] Bia');
  });

  it('in a group the group is the chat (its subject looked up only when asked) and the member who wrote is the author', async () => {
    const t = setup();
    let lookups = 0;
    const groupName = t.context.groupName;
    t.context.groupName = (jid) => {
      lookups++;
      return groupName(jid);
    };
    await handleMessage(
      t.context,
      waMessage({
        key: { remoteJid: group, fromMe: false, id: 'G1', participant: '5511988887777@s.whatsapp.net' },
        pushName: 'Carlos',
        message: { conversation: 'Bom dia, grupo' },
      }),
    );
    expect(t.message()).toMatchObject({
      chat: { idFromService: group, name: '', isGroup: true, phoneNumber: null },
      author: { idFromService: '5511988887777@s.whatsapp.net', name: 'Carlos' },
      text: 'Bom dia, grupo',
    });
    // The domain asks for the subject only when the group becomes a new contact.
    expect(lookups).toBe(0);
    expect(await t.message().chat.lookupName?.()).toBe('Grupo da Loja');
    expect(lookups).toBe(1);
  });

  it('the chat’s profile picture is copied only when the domain asks (a new contact), for the person or the group', async () => {
    const t = setup();
    const asked: string[] = [];
    t.context.avatar = async (jid) => {
      asked.push(jid);
      return `accounts/ACC1/avatars/SVC1/${jid}.jpg`;
    };
    await handleMessage(t.context, fromCustomer({ conversation: 'Oi' }));
    expect(asked).toEqual([]);
    expect(await t.message().chat.avatar?.()).toBe(`accounts/ACC1/avatars/SVC1/${customer}.jpg`);
    expect(asked).toEqual([customer]);
  });

  it('a message sent from the phone itself is ours, and the chat is not named after us', async () => {
    const t = setup();
    await handleMessage(
      t.context,
      waMessage({ key: { remoteJid: customer, fromMe: true, id: 'ME1' }, pushName: 'Loja', message: { conversation: 'Respondi pelo celular' } }),
    );
    expect(t.message()).toMatchObject({ isFromMe: true, chat: { idFromService: customer, name: '' }, author: null });
  });

  it('a person addressed by a private @lid id is kept under the phone-number JID Baileys gives with it, the @lid id as an alias', async () => {
    const t = setup();
    const message = waMessage({ key: { remoteJid: lid, fromMe: false, id: 'L1' }, message: { conversation: 'Oi' } });
    Object.assign(message.key, { remoteJidAlt: '5511912345678:2@s.whatsapp.net' });
    await handleMessage(t.context, message);
    expect(t.message().chat).toMatchObject({ idFromService: customer, aliases: [lid], phoneNumber: '5511912345678' });
  });

  it('a message by phone number that names the @lid id too carries it as an alias', async () => {
    const t = setup();
    const message = fromCustomer({ conversation: 'Oi de novo' }, 'P1');
    Object.assign(message.key, { remoteJidAlt: '123456789012345:3@lid' });
    await handleMessage(t.context, message);
    expect(t.message().chat).toMatchObject({ idFromService: customer, aliases: [lid] });
  });

  it('on a message sent from our phone, an alternate JID that is our own number is not taken for the customer’s', async () => {
    const t = setup();
    const ours = waMessage({ key: { remoteJid: lid, fromMe: true, id: 'ME2' }, message: { conversation: 'Respondi' } });
    Object.assign(ours.key, { remoteJidAlt: '5511900000000:5@s.whatsapp.net' });
    await handleMessage(t.context, ours);
    const pnChat = waMessage({ key: { remoteJid: customer, fromMe: true, id: 'ME3' }, message: { conversation: 'De novo' } });
    Object.assign(pnChat.key, { remoteJidAlt: '987654321098765@lid' });
    await handleMessage(t.context, pnChat);
    expect(t.calls.map((c) => (c.kind === 'message' ? c.input.chat : null))).toEqual([
      expect.objectContaining({ idFromService: lid, phoneNumber: null }),
      expect.objectContaining({ idFromService: customer }),
    ]);
    expect(t.calls.every((c) => c.kind === 'message' && c.input.chat.aliases === undefined)).toBe(true);
  });

  it('an @lid id without its number is looked up in the LID store Baileys keeps; unknown there, it stays the id', async () => {
    const known = setup({ pnForLid: async (id) => (id === lid ? '5511912345678:0@s.whatsapp.net' : null) });
    await handleMessage(known.context, waMessage({ key: { remoteJid: lid, fromMe: false, id: 'L2' }, message: { conversation: 'Oi' } }));
    expect(known.message().chat).toMatchObject({ idFromService: customer, aliases: [lid], phoneNumber: '5511912345678' });

    const unknown = setup({ pnForLid: async () => null });
    await handleMessage(unknown.context, waMessage({ key: { remoteJid: lid, fromMe: false, id: 'L3' }, message: { conversation: 'Oi' } }));
    const chat = unknown.message().chat;
    expect(chat).toMatchObject({ idFromService: lid, phoneNumber: null });
    expect(chat.aliases).toBeUndefined();
  });

  it('in a group, a member addressed by @lid is named by the phone number when known; reactions by @lid are the same person', async () => {
    const t = setup({ pnForLid: async (id) => (id === lid ? '5511912345678@s.whatsapp.net' : null) });
    const inGroup = waMessage({
      key: { remoteJid: group, fromMe: false, id: 'G2', participant: lid },
      pushName: 'Maria',
      message: { conversation: 'Oi grupo' },
    });
    await handleMessage(t.context, inGroup);
    await handleMessage(
      t.context,
      waMessage({ key: { remoteJid: lid, fromMe: false, id: 'R9' }, message: { reactionMessage: { key: { id: 'M1' }, text: '👍' } } }),
    );
    expect(t.calls[0]!.input).toMatchObject({ author: { idFromService: customer, name: 'Maria' } });
    expect(t.calls[1]!.input).toMatchObject({ reactorId: customer });
  });

  it('disappearing (ephemeral) messages are unwrapped', async () => {
    const t = setup();
    await handleMessage(t.context, fromCustomer({ ephemeralMessage: { message: { extendedTextMessage: { text: 'Some em 7 dias' } } } }));
    expect(t.message()).toMatchObject({ text: 'Some em 7 dias' });
  });

  it('status updates, broadcasts, other protocol messages and empty ones are not handed over', async () => {
    const t = setup();
    await handleMessage(
      t.context,
      waMessage({ key: { remoteJid: 'status@broadcast', fromMe: false, id: 'S1', participant: customer }, message: { conversation: 'meu status' } }),
    );
    await handleMessage(
      t.context,
      fromCustomer({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 604800 } }),
    );
    await handleMessage(t.context, fromCustomer({ senderKeyDistributionMessage: { groupId: group } }));
    await handleMessage(t.context, waMessage({ key: { remoteJid: customer, fromMe: false, id: 'E1' } }));
    expect(t.calls).toEqual([]);
  });
});

describe('edits, deletions and reactions', () => {
  it('an edit replaces the text of the original message, in both forms WhatsApp sends it', async () => {
    const t = setup();
    const edit = {
      type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
      key: { remoteJid: customer, fromMe: false, id: 'ORIG1' },
      editedMessage: { conversation: 'Texto corrigido' },
    };
    await handleMessage(t.context, fromCustomer({ protocolMessage: edit }, 'EDIT1'));
    await handleMessage(
      t.context,
      fromCustomer({ editedMessage: { message: { protocolMessage: { ...edit, editedMessage: { imageMessage: { caption: 'Legenda nova' } } } } } }, 'EDIT2'),
    );
    expect(t.calls).toEqual([
      { kind: 'edit', input: { channelMessageId: 'ORIG1', text: 'Texto corrigido' } },
      { kind: 'edit', input: { channelMessageId: 'ORIG1', text: 'Legenda nova' } },
    ]);
  });

  it('a deletion for everyone names the deleted message', async () => {
    const t = setup();
    await handleMessage(
      t.context,
      fromCustomer({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: customer, fromMe: false, id: 'GONE1' } } }, 'REV1'),
    );
    expect(t.only()).toEqual({ kind: 'deletion', input: { channelMessageId: 'GONE1' } });
  });

  it('a reaction goes to the reacted message (never a bubble of its own); an empty one takes it away', async () => {
    const t = setup();
    const reaction = (text: string, ms: number) => ({
      reactionMessage: { key: { remoteJid: customer, fromMe: true, id: 'OURS1' }, text, senderTimestampMs: ms },
    });
    await handleMessage(t.context, fromCustomer(reaction('👍', 1_767_225_601_500), 'R1'));
    await handleMessage(t.context, fromCustomer(reaction('', 1_767_225_602_000), 'R2'));
    expect(t.calls).toEqual([
      { kind: 'reaction', input: { channelMessageId: 'OURS1', reactorId: customer, fromMe: false, emoji: '👍', timestamp: '2026-01-01T00:00:01.500Z' } },
      { kind: 'reaction', input: { channelMessageId: 'OURS1', reactorId: customer, fromMe: false, emoji: '', timestamp: '2026-01-01T00:00:02.000Z' } },
    ]);
  });

  it('a reaction in a group is the member’s; one made on our phone is ours', async () => {
    const t = setup();
    await handleMessage(
      t.context,
      waMessage({
        key: { remoteJid: group, fromMe: false, id: 'R3', participant: '5511988887777@s.whatsapp.net' },
        message: { reactionMessage: { key: { id: 'M1' }, text: '❤️' } },
      }),
    );
    await handleMessage(
      t.context,
      waMessage({ key: { remoteJid: customer, fromMe: true, id: 'R4' }, message: { reactionMessage: { key: { id: 'M2' }, text: '😂' } } }),
    );
    expect(t.calls.map((c) => c.input)).toMatchObject([
      { channelMessageId: 'M1', reactorId: '5511988887777@s.whatsapp.net', fromMe: false, emoji: '❤️', timestamp: '2026-01-01T00:00:00.000Z' },
      { channelMessageId: 'M2', reactorId: '5511900000000@s.whatsapp.net', fromMe: true, emoji: '😂' },
    ]);
  });
});

describe('links Baileys learns', () => {
  it('a lid-mapping.update becomes a link of the @lid id to the phone-number JID, in either order of the pair', () => {
    const link = { idFromService: customer, alias: lid, phoneNumber: '5511912345678' };
    expect(aliasOfMapping({ lid: '123456789012345:4@lid', pn: '5511912345678:4@s.whatsapp.net' })).toEqual(link);
    expect(aliasOfMapping({ lid: customer, pn: lid })).toEqual(link);
    expect(aliasOfMapping({ lid: group, pn: customer })).toBeNull();
  });
});

describe('message time', () => {
  it("takes the moment of receipt, kept inside the message's own second, so a burst of one second keeps its order", () => {
    expect(messageTime(at, at * 1000 + 734)).toBe(new Date(at * 1000 + 734).toISOString());
    expect(messageTime(at, at * 1000 + 50_000)).toBe(new Date(at * 1000 + 999).toISOString());
    expect(messageTime(at, at * 1000 - 2000)).toBe(new Date(at * 1000).toISOString());
    // protobuf Longs, as Baileys decodes them, count the same.
    const decoded = proto.WebMessageInfo.fromObject({ key: {}, messageTimestamp: at }).messageTimestamp;
    expect(messageTime(decoded as never, at * 1000 + 5)).toBe(new Date(at * 1000 + 5).toISOString());
  });
});

describe('acks', () => {
  it("Baileys' statuses map to 1 sent, 2 delivered, 3 read, 4 played and -2 error; pending is no ack", () => {
    const S = proto.WebMessageInfo.Status;
    expect([S.ERROR, S.PENDING, S.SERVER_ACK, S.DELIVERY_ACK, S.READ, S.PLAYED].map(ackOfStatus)).toEqual([-2, null, 1, 2, 3, 4]);
  });

  it('status updates of our messages are acks; those of the customer’s messages and other updates are not', () => {
    const ours = { remoteJid: customer, fromMe: true, id: 'OUT1' };
    expect(
      acksOfUpdates([
        { key: ours, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } },
        { key: ours, update: { status: proto.WebMessageInfo.Status.READ } },
        { key: { remoteJid: customer, fromMe: false, id: 'IN1' }, update: { status: proto.WebMessageInfo.Status.READ } },
        { key: ours, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE } },
        { key: ours, update: { status: proto.WebMessageInfo.Status.ERROR } },
      ]),
    ).toEqual([
      { channelMessageId: 'OUT1', ack: 2 },
      { channelMessageId: 'OUT1', ack: 3 },
      { channelMessageId: 'OUT1', ack: -2 },
    ]);
  });

  it('group receipts of our messages move the ack to delivered, read or played', () => {
    const key = { remoteJid: group, fromMe: true, id: 'OUT2' };
    const member = '5511988887777@s.whatsapp.net';
    expect(
      acksOfReceipts([
        { key, receipt: { userJid: member, receiptTimestamp: at } },
        { key, receipt: { userJid: member, readTimestamp: at } },
        { key, receipt: { userJid: member, playedTimestamp: at } },
        { key: { ...key, fromMe: false }, receipt: { userJid: member, readTimestamp: at } },
      ]),
    ).toEqual([
      { channelMessageId: 'OUT2', ack: 2 },
      { channelMessageId: 'OUT2', ack: 3 },
      { channelMessageId: 'OUT2', ack: 4 },
    ]);
  });
});
