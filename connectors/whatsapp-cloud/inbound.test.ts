import { describe, expect, it } from 'vitest';
import { ack } from '#contracts/messages.ts';
import { foldAcks } from './acks.ts';
import { cloudErrorMeaning } from './errors.ts';
import { deliveryEvents, limitText, messageTime, type CloudEvent } from './inbound.ts';
import { customerMessage, deliveryOf, failed131049, metadata, ourWamid, status, statusDelivery, wabaId } from './meta-examples.ts';
import { delivery } from './webhook-payload.ts';

// 1749416383 is 2025-06-08T20:59:43Z; received 300 ms into that second.
const now = 1749416383_300;
const eventsOf = (body: unknown) => deliveryEvents(delivery.parse(body), { now });
const only = <K extends CloudEvent['kind']>(events: CloudEvent[], kind: K) => events.filter((e): e is Extract<CloudEvent, { kind: K }> => e.kind === kind);
const messageOf = (body: unknown) => {
  const [event, ...rest] = only(eventsOf(body), 'message');
  expect(rest).toEqual([]);
  return event!;
};

describe('customer messages', () => {
  it('text: the body, the customer’s wa_id and profile name, the time within its second', () => {
    const event = messageOf(customerMessage({ type: 'text', text: { body: 'Does it come in another color?' } }));
    expect(event).toMatchObject({ kind: 'message', origin: 'customer', wabaId, phoneNumberId: metadata.phone_number_id, media: null, forwarded: 'no' });
    expect(event.wamid).toBe(event.message.channelMessageId);
    expect(event.message).toEqual({
      channelMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
      chat: { idFromService: '16505551234', name: 'Sheena Nelson', isGroup: false, phoneNumber: '16505551234' },
      author: null,
      isFromMe: false,
      type: 'text',
      text: 'Does it come in another color?',
      replyToChannelMessageId: null,
      timestamp: '2025-06-08T20:59:43.300Z',
    });
  });

  it('messageTime stays within the message’s second', () => {
    expect(messageTime(1749416383, 0)).toBe('2025-06-08T20:59:43.000Z');
    expect(messageTime(1749416383, 1749416400_000)).toBe('2025-06-08T20:59:43.999Z');
  });

  it('a reply names the message it answers (context.id) and a forward says so', () => {
    const reply = messageOf(
      customerMessage({ type: 'text', text: { body: 'Is this still available?' }, context: { from: '15550783881', id: 'wamid.PRODUCT' } }),
    );
    expect(reply.message.replyToChannelMessageId).toBe('wamid.PRODUCT');
    const forwarded = messageOf(customerMessage({ type: 'text', text: { body: 'x' }, context: { frequently_forwarded: true } }));
    expect(forwarded).toMatchObject({ forwarded: 'frequently', message: { replyToChannelMessageId: null } });
  });

  it('image, video and document: the caption as text and the file as a reference to fetch', () => {
    const image = messageOf(
      customerMessage({ type: 'image', image: { caption: 'Minha foto', mime_type: 'image/jpeg', sha256: 'abc=', id: '1003383421387256' } }),
    );
    expect(image.message).toMatchObject({ type: 'image', text: 'Minha foto' });
    expect(image.media).toEqual({
      mediaId: '1003383421387256',
      mimetype: 'image/jpeg',
      sha256: 'abc=',
      filename: null,
      name: 'imagem-1003383421387256.jpg',
      voice: false,
      unavailableText: 'mídia indisponível',
    });
    const video = messageOf(customerMessage({ type: 'video', video: { mime_type: 'video/mp4', sha256: 's', id: '22' } }));
    expect(video).toMatchObject({ message: { type: 'video', text: '' }, media: { name: 'video-22.mp4' } });
    const document = messageOf(
      customerMessage({ type: 'document', document: { caption: 'Nota', filename: 'fatura.pdf', mime_type: 'application/pdf', sha256: 's', id: '33' } }),
    );
    expect(document).toMatchObject({ message: { type: 'document', text: 'Nota' }, media: { filename: 'fatura.pdf', name: 'fatura.pdf' } });
  });

  it('audio: a voice note (voice true) is a voice message, other audio an audio file', () => {
    const voice = messageOf(customerMessage({ type: 'audio', audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 's', id: '44', voice: true } }));
    expect(voice).toMatchObject({ message: { type: 'voice', text: '' }, media: { voice: true, name: 'voz-44.ogg' } });
    const audio = messageOf(customerMessage({ type: 'audio', audio: { mime_type: 'audio/mpeg', sha256: 's', id: '45', voice: false } }));
    expect(audio).toMatchObject({ message: { type: 'audio' }, media: { voice: false, name: 'audio-45.mp3' } });
  });

  it('sticker: an image, shown as [figurinha] when the file cannot be had', () => {
    const sticker = messageOf(customerMessage({ type: 'sticker', sticker: { mime_type: 'image/webp', sha256: 's', id: '55', animated: false } }));
    expect(sticker).toMatchObject({ message: { type: 'image', text: '' }, media: { name: 'figurinha-55.webp', unavailableText: '[figurinha]' } });
  });

  it('location and contact cards: readable text as the QR channel writes them', () => {
    const location = messageOf(
      customerMessage({
        type: 'location',
        location: {
          address: '1 Hacker Way, Menlo Park, CA 94025',
          latitude: 37.483307,
          longitude: -122.148981,
          name: 'Philz Coffee',
          url: 'https://philzcoffee.com',
        },
      }),
    );
    expect(location.message).toMatchObject({
      type: 'text',
      text: '[localização] https://maps.google.com/?q=37.483307,-122.148981 (Philz Coffee, 1 Hacker Way, Menlo Park, CA 94025)',
    });
    const cards = messageOf(
      customerMessage({
        type: 'contacts',
        contacts: [
          {
            name: { formatted_name: 'Barbara J. Johnson', first_name: 'Barbara' },
            phones: [{ phone: '+1 (940) 555-1234', wa_id: '19405551234', type: 'HOME' }],
          },
          { name: { first_name: 'Ana', last_name: 'Souza' }, phones: [{ phone: '+55 11 5555-0000' }] },
        ],
      }),
    );
    expect(cards.message.text).toBe('[contato] Barbara J. Johnson +19405551234\n[contato] Ana Souza +55 11 5555-0000');
  });

  it('button and list replies and template quick-reply buttons: the option the customer chose, replying to our message', () => {
    const button = messageOf(
      customerMessage({
        context: { from: '15550783881', id: 'wamid.OURS' },
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'change-button', title: 'Change' } },
      }),
    );
    expect(button.message).toMatchObject({ type: 'text', text: 'Change', replyToChannelMessageId: 'wamid.OURS', choice: 'change-button' });
    const list = messageOf(
      customerMessage({
        type: 'interactive',
        interactive: { type: 'list_reply', list_reply: { id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' } },
      }),
    );
    expect(list.message).toMatchObject({ text: 'Priority Mail Express', choice: 'priority_express' });
    const quick = messageOf(customerMessage({ context: { from: '15550783881', id: 'wamid.T' }, type: 'button', button: { payload: 'Sim', text: 'Sim' } }));
    expect(quick.message.text).toBe('Sim');
  });

  it('order: its note and one item a line, prices in reais', () => {
    const order = messageOf(
      customerMessage({
        type: 'order',
        order: {
          catalog_id: '194836987003835',
          text: 'Entregar à tarde',
          product_items: [
            { product_retailer_id: 'di9ozbzfi4', quantity: 2, item_price: 30, currency: 'BRL' },
            { product_retailer_id: 'nqryix03ez', quantity: 1 },
          ],
        },
      }),
    );
    expect(order.message.text.replace(/\u00a0/g, ' ')).toBe('[pedido] Entregar à tarde\n2× di9ozbzfi4 (R$ 30,00)\n1× nqryix03ez');
  });

  it('unsupported and unknown types: readable pt-BR text, never an error', () => {
    const edit = messageOf(customerMessage({ errors: [{ code: 131051, title: 'Message type unknown' }], type: 'unsupported', unsupported: { type: 'edit' } }));
    expect(edit.message).toMatchObject({
      type: 'text',
      text: '[mensagem não suportada] O cliente enviou um conteúdo que a API oficial do WhatsApp não entrega (edição de mensagem). Se precisar dele, peça que envie de outra forma.',
    });
    const unknown = messageOf(customerMessage({ type: 'unknown', errors: [{ code: 131051 }] }));
    expect(unknown.message.text).toContain('(tipo desconhecido)');
    const future = messageOf(customerMessage({ type: 'poll_v9', poll_v9: {} }));
    expect(future.message.text).toContain('(poll_v9)');
  });

  it('a changed number: a line in the chat and a numberChanged event', () => {
    const events = eventsOf(
      customerMessage({
        type: 'system',
        system: { body: 'User Sheena Nelson changed from 16505551234 to 16505559999', wa_id: '16505559999', type: 'user_changed_number' },
      }),
    );
    expect(only(events, 'message')[0]!.message.text).toBe('[aviso] O contato mudou de número no WhatsApp: agora é +16505559999.');
    expect(only(events, 'numberChanged')).toMatchObject([{ from: '16505551234', to: '16505559999' }]);
  });

  it('a reaction, and its removal (emoji omitted), on one of our messages', () => {
    const [put] = only(eventsOf(customerMessage({ type: 'reaction', reaction: { message_id: 'wamid.OURS', emoji: '\u{1F44D}' } })), 'reaction');
    expect(put!.reaction).toEqual({
      channelMessageId: 'wamid.OURS',
      reactorId: '16505551234',
      fromMe: false,
      emoji: '\u{1F44D}',
      timestamp: '2025-06-08T20:59:43.000Z',
    });
    const [removed] = only(eventsOf(customerMessage({ type: 'reaction', reaction: { message_id: 'wamid.OURS' } })), 'reaction');
    expect(removed!.reaction.emoji).toBe('');
  });

  it('an edit (coexistence numbers): the earlier message’s new text or caption, named by its own wamid', () => {
    // Meta's "Edit messages webhook reference": `edit.original_message_id` and the message as it now reads.
    const [text] = only(
      eventsOf(
        customerMessage({ type: 'edit', edit: { original_message_id: 'wamid.EARLIER', message: { type: 'text', text: { body: 'Às 15h, não às 14h' } } } }),
      ),
      'edit',
    );
    expect(text).toMatchObject({
      wamid: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
      edit: { channelMessageId: 'wamid.EARLIER', text: 'Às 15h, não às 14h' },
    });
    const [caption] = only(
      eventsOf(
        customerMessage({
          type: 'edit',
          edit: {
            original_message_id: 'wamid.PHOTO',
            message: { context: { id: 'wamid.X' }, type: 'image', image: { caption: 'Bolo de cenoura', id: '1', mime_type: 'image/jpeg' } },
          },
        }),
      ),
      'edit',
    );
    expect(caption!.edit).toEqual({ channelMessageId: 'wamid.PHOTO', text: 'Bolo de cenoura' });
    // Neither a message of its own nor an unsupported line.
    expect(
      only(eventsOf(customerMessage({ type: 'edit', edit: { original_message_id: 'wamid.E', message: { type: 'text', text: { body: 'x' } } } })), 'message'),
    ).toEqual([]);
    // An edit with nothing to show is left out, logged.
    const [ignored] = only(eventsOf(customerMessage({ type: 'edit', edit: { original_message_id: 'wamid.E', message: { type: 'sticker' } } })), 'ignored');
    expect(ignored!.issue).toContain('no text or caption');
  });

  it('a revoke (coexistence numbers): the earlier message deleted for everyone', () => {
    const events = eventsOf(customerMessage({ type: 'revoke', revoke: { original_message_id: 'wamid.GONE' } }));
    expect(only(events, 'deletion')).toMatchObject([{ deletion: { channelMessageId: 'wamid.GONE' } }]);
    expect(only(events, 'message')).toEqual([]);
  });

  it('the same wamid delivered twice gives the same event twice, for the caller to deduplicate on', () => {
    const body = customerMessage({ type: 'text', text: { body: 'Oi' } });
    const first = eventsOf(body);
    const again = eventsOf(JSON.parse(JSON.stringify(body)));
    expect(again).toEqual(first);
    expect(new Set([...first, ...again].map((e) => (e as { wamid: string }).wamid)).size).toBe(1);
  });

  it('a message missing its id is skipped as ignored while the others of the delivery still map', () => {
    const body = customerMessage({ type: 'text', text: { body: 'ok' } }) as { entry: { changes: { value: { messages: unknown[] } }[] }[] };
    body.entry[0]!.changes[0]!.value.messages.unshift({ from: '1', timestamp: '1', type: 'text', text: { body: 'no id' } });
    const events = eventsOf(body);
    expect(events.map((e) => e.kind)).toEqual(['ignored', 'message']);
  });
});

describe('statuses of what we sent', () => {
  it('maps Meta’s examples to acks with the wamid, the time and pricing', () => {
    const events = only(
      eventsOf(
        statusDelivery(
          status('sent', '1750030073', {
            conversation: { id: '72b14d6bd5407799e66f64d1b338e567', expiration_timestamp: '1750116480', origin: { type: 'marketing' } },
            pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' },
          }),
          status('delivered', '1750030074'),
          status('read', '1750030075'),
          status('played', '1750030076'),
        ),
      ),
      'ack',
    );
    expect(events.map((e) => e.ack)).toEqual([1, 2, 3, 4].map((a) => ({ channelMessageId: ourWamid, ack: a })));
    expect(events[0]).toMatchObject({ wamid: ourWamid, recipientId: '16505551234', pricingCategory: 'marketing', timestamp: '2025-06-15T23:27:53.000Z' });
  });

  it('a failure carries Meta’s code and its pt-BR meaning for the bubble', () => {
    const [event] = only(eventsOf(statusDelivery(status('failed', '1751142888', { errors: [failed131049] }))), 'ack');
    expect(event!.ack).toEqual({ channelMessageId: ourWamid, ack: ack.error, reason: cloudErrorMeaning(131049).text });
    expect(event!.errorCodes).toEqual([131049]);
  });

  it('out of order and repeated statuses still end where the message really is', () => {
    const events = only(
      eventsOf(statusDelivery(status('read', '3'), status('sent', '1'), status('delivered', '2'), status('read', '3'), status('failed', '4'))),
      'ack',
    );
    expect(foldAcks(events.map((e) => e.ack.ack))).toBe(ack.read);
    const failedFirst = only(eventsOf(statusDelivery(status('failed', '2', { errors: [failed131049] }), status('sent', '1'))), 'ack');
    expect(foldAcks(failedFirst.map((e) => e.ack.ack))).toBe(ack.error);
  });

  it('a status that is no ack is left out', () => {
    expect(eventsOf(statusDelivery(status('deleted', '1')))).toEqual([]);
  });

  it('errors outside any message become a channelError event', () => {
    const events = eventsOf(deliveryOf('messages', { messaging_product: 'whatsapp', metadata, errors: [{ code: 131000, message: 'Something went wrong' }] }));
    expect(events).toEqual([
      {
        kind: 'channelError',
        wabaId,
        phoneNumberId: metadata.phone_number_id,
        errors: [{ code: 131000, text: cloudErrorMeaning(131000).text, details: 'Something went wrong' }],
      },
    ]);
  });
});

describe('coexistence: the WhatsApp Business app', () => {
  it('an echo is our own message to the customer it went to', () => {
    const [event] = only(
      eventsOf(
        deliveryOf('smb_message_echoes', {
          messaging_product: 'whatsapp',
          metadata,
          message_echoes: [
            {
              from: '15550783881',
              to: '16505551234',
              id: 'wamid.HBgLMTY0NjcwNDM1OTUVAgARGBIyNDlBOEI5QUQ4NDc0N0FCNjMA',
              timestamp: '1739321024',
              type: 'text',
              text: { body: "Here's the info you requested! https://www.meta.com/quest/quest-3/" },
            },
          ],
        }),
      ),
      'message',
    );
    expect(event).toMatchObject({ origin: 'echo', wamid: 'wamid.HBgLMTY0NjcwNDM1OTUVAgARGBIyNDlBOEI5QUQ4NDc0N0FCNjMA' });
    expect(event!.message).toMatchObject({ isFromMe: true, chat: { idFromService: '16505551234', name: '', phoneNumber: '16505551234' }, type: 'text' });
  });

  it('a reaction made in the Business app is ours', () => {
    const [event] = only(
      eventsOf(
        deliveryOf('smb_message_echoes', {
          metadata,
          message_echoes: [
            {
              from: '15550783881',
              to: '16505551234',
              id: 'wamid.R',
              timestamp: '1739321024',
              type: 'reaction',
              reaction: { message_id: 'wamid.C', emoji: '❤' },
            },
          ],
        }),
      ),
      'reaction',
    );
    expect(event!.reaction).toMatchObject({ reactorId: '15550783881', fromMe: true, emoji: '❤' });
  });

  it('history: the customer’s and the business’s past messages at their own times, and a declined share as an error', () => {
    const events = eventsOf(
      deliveryOf('history', {
        messaging_product: 'whatsapp',
        metadata,
        history: [
          {
            metadata: { phase: 0, chunk_order: 1, progress: 55 },
            threads: [
              {
                id: '16505551234',
                messages: [
                  { from: '16505551234', id: 'wamid.H1', timestamp: '1739230955', type: 'text', text: { body: 'Olá' }, history_context: { status: 'READ' } },
                  { from: '15550783881', to: '16505551234', id: 'wamid.H2', timestamp: '1739231000', type: 'text', text: { body: 'Bom dia!' } },
                ],
              },
            ],
          },
          { errors: [{ code: 2593109, title: 'History sync is turned off by the business from the WhatsApp Business App' }] },
        ],
      }),
    );
    const messages = only(events, 'message');
    expect(messages.map((m) => [m.origin, m.message.isFromMe, m.message.chat.idFromService, m.message.timestamp])).toEqual([
      ['history', false, '16505551234', '2025-02-10T23:42:35.000Z'],
      ['history', true, '16505551234', '2025-02-10T23:43:20.000Z'],
    ]);
    expect(only(events, 'channelError')[0]!.errors[0]!.code).toBe(2593109);
  });
});

describe('account-level events', () => {
  it('a template status change, with the rejection reason in pt-BR', () => {
    const events = eventsOf({
      entry: [
        {
          id: wabaId,
          time: 1751247548,
          changes: [
            {
              value: {
                event: 'REJECTED',
                message_template_id: 1689556908129832,
                message_template_name: 'order_confirmation',
                message_template_language: 'pt_BR',
                reason: 'INVALID_FORMAT',
                message_template_category: 'UTILITY',
              },
              field: 'message_template_status_update',
            },
          ],
        },
      ],
      object: 'whatsapp_business_account',
    });
    expect(events).toEqual([
      {
        kind: 'template',
        wabaId,
        templateId: '1689556908129832',
        name: 'order_confirmation',
        language: 'pt_BR',
        event: 'REJECTED',
        category: 'UTILITY',
        reason: 'INVALID_FORMAT',
        text: 'O modelo "order_confirmation" (pt_BR) foi recusado pela Meta (motivo: formato inválido).',
      },
    ]);
    const approved = eventsOf(
      deliveryOf('message_template_status_update', {
        event: 'APPROVED',
        message_template_id: 1,
        message_template_name: 'boas_vindas',
        message_template_language: 'pt_BR',
        reason: 'NONE',
      }),
    );
    expect(approved[0]).toMatchObject({ reason: null, text: 'O modelo "boas_vindas" (pt_BR) foi aprovado pela Meta e já pode ser enviado.' });
  });

  it('quality and messaging-limit changes, alarmed when quality drops to red or the limit goes down', () => {
    const throughput = eventsOf({
      entry: [
        {
          id: wabaId,
          time: 1748454394,
          changes: [
            {
              value: { display_phone_number: '15550783881', event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_UNLIMITED' },
              field: 'phone_number_quality_update',
            },
          ],
        },
      ],
      object: 'whatsapp_business_account',
    });
    expect(throughput[0]).toMatchObject({ kind: 'quality', event: 'THROUGHPUT_UPGRADE', limit: 'TIER_UNLIMITED', alarm: false });
    const flagged = eventsOf(deliveryOf('phone_number_quality_update', { display_phone_number: '15550783881', event: 'FLAGGED', current_limit: 'TIER_10K' }));
    expect(flagged[0]).toMatchObject({ alarm: true });
    expect((flagged[0] as { text: string }).text).toContain('baixa (vermelha)');
    const downgrade = eventsOf(
      deliveryOf('phone_number_quality_update', { display_phone_number: '1', event: 'DOWNGRADE', old_limit: 'TIER_10K', current_limit: 'TIER_1K' }),
    );
    expect(downgrade[0]).toMatchObject({ alarm: true, limit: 'TIER_1K', previousLimit: 'TIER_10K' });
    expect(limitText('TIER_2K')).toBe('2.000 conversas por dia');
    expect(limitText('TIER_NOT_SET')).toBe('ainda não definido');
  });

  it('an account update keeps what Meta sent beside its event', () => {
    const events = eventsOf(
      deliveryOf('account_update', { phone_number: '15550783881', event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'SCAM' } }),
    );
    expect(events[0]).toMatchObject({ kind: 'account', event: 'ACCOUNT_VIOLATION', alarm: true, details: { violation_info: { violation_type: 'SCAM' } } });
  });

  it('a field not followed is reported as ignored', () => {
    expect(eventsOf(deliveryOf('flows', { event: 'FLOW_STATUS_CHANGE' }))).toEqual([{ kind: 'ignored', wabaId, field: 'flows', issue: null }]);
  });
});
