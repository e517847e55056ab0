/**
 * What real WhatsApp sends that the mapping used to lose (ADR-0175): the @lid ↔ number
 * links a history sync carries, the alternate JIDs of a key after the ledger's round trip, and
 * video notes, polls and button or list replies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { proto, type WAMessage } from 'baileys';
import { recordingSink, sessionPorts, until } from '../../tests/support/whatsapp-double.ts';
import { connectedSession } from '../../tests/support/whatsapp-session-harness.ts';
import { handleMessage, type InboundContext } from './inbound.ts';
import { ledgerRecord, messageOfRecord } from './ledger.ts';
import type { WhatsAppSession } from './session.ts';
import { shouldSyncHistoryMessage } from './socket.ts';

const customer = '5511912345678@s.whatsapp.net';
const lid = '123456789012345@lid';

describe('history sync links', () => {
  const sessions: WhatsAppSession[] = [];
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.stop()));
  });

  it('the initial bootstrap is downloaded (for its links only); recent and full syncs stay off', () => {
    const { HistorySyncType } = proto.Message;
    expect(shouldSyncHistoryMessage({ syncType: HistorySyncType.INITIAL_BOOTSTRAP })).toBe(true);
    expect(shouldSyncHistoryMessage({ syncType: HistorySyncType.ON_DEMAND })).toBe(true);
    expect(shouldSyncHistoryMessage({ syncType: HistorySyncType.RECENT })).toBe(false);
    expect(shouldSyncHistoryMessage({ syncType: HistorySyncType.FULL })).toBe(false);
  });

  it('hands every @lid ↔ number link of a history set to the sink as an alias; the bootstrap’s messages are not imported', async () => {
    const { socket, calls } = await connectedSession(sessions);

    // As Baileys' processHistoryMessage hands it over: the pairs of phoneNumberToLidMappings and of the conversations.
    socket.emit('messaging-history.set', {
      chats: [{ id: lid, pnJid: customer }],
      contacts: [],
      messages: [
        proto.WebMessageInfo.fromObject({
          key: { remoteJid: lid, id: 'HIST1', fromMe: false },
          messageTimestamp: 1_700_000_000,
          message: { conversation: 'antiga' },
        }) as WAMessage,
      ],
      lidPnMappings: [
        { lid, pn: customer },
        { lid: '999888777666555@lid', pn: '5521988887777@s.whatsapp.net' },
        { lid, pn: customer },
      ],
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
    });
    await until(() => calls.length === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toEqual([
      { kind: 'alias', input: { idFromService: customer, alias: lid, phoneNumber: '5511912345678' } },
      { kind: 'alias', input: { idFromService: '5521988887777@s.whatsapp.net', alias: '999888777666555@lid', phoneNumber: '5521988887777' } },
    ]);
  });
});

describe('the ledger round trip', () => {
  it('keeps the key’s alternate JIDs and addressing mode (Baileys’ fields beyond the proto)', () => {
    // As Baileys' decodeMessageNode builds them: a plain key object, the content a decoded proto.Message.
    const group = {
      key: { remoteJid: '120363000000000000@g.us', id: 'GRP1', fromMe: false, participant: lid, participantAlt: customer, addressingMode: 'lid' },
      messageTimestamp: 1_767_000_000,
      pushName: 'Maria',
      broadcast: false,
      message: proto.Message.fromObject({ conversation: 'Oi grupo' }),
    } as WAMessage;
    const direct = {
      key: { remoteJid: lid, remoteJidAlt: customer, id: 'DM1', fromMe: false, addressingMode: 'lid' },
      messageTimestamp: 1_767_000_000,
      message: proto.Message.fromObject({ conversation: 'Oi' }),
    } as WAMessage;

    expect(messageOfRecord(ledgerRecord(group)).key).toMatchObject({ participant: lid, participantAlt: customer, addressingMode: 'lid' });
    expect(messageOfRecord(ledgerRecord(direct)).key).toMatchObject({ remoteJid: lid, remoteJidAlt: customer, addressingMode: 'lid' });
    expect(messageOfRecord(ledgerRecord(direct)).message?.conversation).toBe('Oi');
  });
});

describe('message types that were dropped', () => {
  const context = (): { context: InboundContext; calls: ReturnType<typeof recordingSink>['calls'] } => {
    const { sink, calls } = recordingSink();
    const { ports } = sessionPorts();
    return { context: { sink, media: { ports, accountId: 'ACC1' }, me: () => null, groupName: async () => '' }, calls };
  };
  const incoming = (id: string, message: proto.IMessage) =>
    proto.WebMessageInfo.fromObject({
      key: { remoteJid: customer, id, fromMe: false },
      messageTimestamp: 1_767_000_000,
      pushName: 'Maria',
      message,
    }) as WAMessage;
  const stored = (calls: ReturnType<typeof recordingSink>['calls']) =>
    calls.flatMap((c) =>
      c.kind === 'message' ? [{ id: c.input.channelMessageId, type: c.input.type, text: c.input.text, media: Boolean(c.input.media) }] : [],
    );

  it('a video note (ptvMessage) is a playable video', async () => {
    const { context: ctx, calls } = context();
    await handleMessage(ctx, incoming('PTV1', { ptvMessage: { mimetype: 'video/mp4', url: 'https://mmg.whatsapp.net/x', directPath: '/v/x', seconds: 12 } }));
    expect(stored(calls)).toEqual([{ id: 'PTV1', type: 'video', text: '', media: true }]);
  });

  it('polls (v1, v2, v3) read as text with their options', async () => {
    const { context: ctx, calls } = context();
    const poll = { name: 'Qual horário prefere?', options: [{ optionName: 'Manhã' }, { optionName: 'Tarde' }], selectableOptionsCount: 1 };
    await handleMessage(ctx, incoming('POLL1', { pollCreationMessage: poll }));
    await handleMessage(ctx, incoming('POLL2', { pollCreationMessageV2: poll }));
    await handleMessage(ctx, incoming('POLL3', { pollCreationMessageV3: poll }));
    const text = '📊 Enquete: Qual horário prefere?\n• Manhã\n• Tarde';
    expect(stored(calls)).toEqual(['POLL1', 'POLL2', 'POLL3'].map((id) => ({ id, type: 'text', text, media: false })));
  });

  it('button, list, template and interactive replies read as the option the customer chose', async () => {
    const { context: ctx, calls } = context();
    await handleMessage(ctx, incoming('BTN1', { buttonsResponseMessage: { selectedButtonId: 'b1', selectedDisplayText: 'Quero comprar' } }));
    await handleMessage(ctx, incoming('LIST1', { listResponseMessage: { title: 'Pizza grande', singleSelectReply: { selectedRowId: 'r2' } } }));
    await handleMessage(ctx, incoming('TPL1', { templateButtonReplyMessage: { selectedId: 't1', selectedDisplayText: 'Falar com atendente' } }));
    await handleMessage(
      ctx,
      incoming('INT1', {
        interactiveResponseMessage: { body: { text: 'Confirmar pedido' }, nativeFlowResponseMessage: { name: 'quick_reply', paramsJson: '{"id":"ok"}' } },
      }),
    );
    expect(stored(calls)).toEqual([
      { id: 'BTN1', type: 'text', text: 'Quero comprar', media: false },
      { id: 'LIST1', type: 'text', text: 'Pizza grande', media: false },
      { id: 'TPL1', type: 'text', text: 'Falar com atendente', media: false },
      { id: 'INT1', type: 'text', text: 'Confirmar pedido', media: false },
    ]);
  });
});
