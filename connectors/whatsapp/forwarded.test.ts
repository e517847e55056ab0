import { describe, expect, it } from 'vitest';
import { generateWAMessageContent } from 'baileys';
import type { OutboundMessage } from '#domain/channels/port.ts';
import { contentOf } from './send.ts';

const message = (fields: Partial<OutboundMessage>): OutboundMessage => ({
  messageId: 'M1',
  to: '5511912345678@s.whatsapp.net',
  type: 'text',
  text: 'Promoção de hoje',
  file: null,
  replyTo: null,
  ...fields,
});
const upload = async () => {
  throw new Error('no media in these tests');
};

describe('a forwarded message on WhatsApp (QR)', () => {
  it("carries the forwarded context WhatsApp shows as 'Encaminhada'", async () => {
    const proto = await generateWAMessageContent(await contentOf(message({ forwarded: true })), { upload } as never);
    expect(proto.extendedTextMessage?.text).toBe('Promoção de hoje');
    expect(proto.extendedTextMessage?.contextInfo).toMatchObject({ isForwarded: true, forwardingScore: 1 });
  });

  it('any other message carries none', async () => {
    const proto = await generateWAMessageContent(await contentOf(message({})), { upload } as never);
    expect(proto.conversation ?? proto.extendedTextMessage?.text).toBe('Promoção de hoje');
    expect(proto.extendedTextMessage?.contextInfo?.isForwarded ?? false).toBe(false);
  });
});
