/**
 * Our reactions through the Cloud API against the Graph API double: the wire body Meta takes
 * (`type: 'reaction'`, `reaction.message_id` and `emoji`, empty to take it away), the reactor id we
 * are known by (our number's digits, as Meta names us in coexistence echoes), and Meta's refusals as
 * the send path's errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cloudCredentialsToken } from '#domain/channels/cloud-credentials.ts';
import type { ChannelConnection } from '#domain/channels/port.ts';
import { type FakeGraphApi, type FakeNumber, startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { cloudErrorMeaning } from './errors.ts';
import { reactWhatsappCloud } from './reactions.ts';

const TOKEN = 'EAAGreactionstoken0123456789';
const APP_SECRET = 'abcdef0123456789abcdef0123456789';
const CUSTOMER = { waId: '5511987650000', name: 'Rita Alves' };

let fake: FakeGraphApi & { close(): Promise<void> };
let number: FakeNumber;
let connection: ChannelConnection;

beforeAll(async () => {
  fake = await startFakeGraphApi({ appSecret: APP_SECRET });
  process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
});
afterAll(async () => {
  delete process.env.WHATSAPP_CLOUD_GRAPH_URL;
  await fake.close();
});
beforeEach(() => {
  fake.addToken(TOKEN);
  number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-2000', verifiedName: 'Floricultura Rosa' });
  connection = {
    accountId: 'A1',
    serviceId: 'S1',
    type: 'whatsapp_cloud',
    token: cloudCredentialsToken({ phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken: TOKEN, appSecret: APP_SECRET }),
  };
});

describe('reactions through the Cloud API', () => {
  it('sends the emoji on the customer’s message, and an empty one to take it away, answering our number as the reactor', async () => {
    const { message } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Chegou!' });
    const answer = await reactWhatsappCloud(connection, { to: `${CUSTOMER.waId}@s.whatsapp.net`, channelMessageId: message.id, emoji: '❤️' });
    expect(answer).toEqual({ reactorId: '551130002000' });
    const sent = fake.accepted.at(-1)!;
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER.waId,
      type: 'reaction',
      reaction: { message_id: message.id, emoji: '❤️' },
    });

    await reactWhatsappCloud(connection, { to: CUSTOMER.waId, channelMessageId: message.id, emoji: '' });
    expect(fake.accepted.at(-1)!.body.reaction).toEqual({ message_id: message.id, emoji: '' });
  });

  it('a refusal is the send path’s: outside the 24-hour window (131047, answered at once) with its pt-BR meaning', async () => {
    fake.windowErrors = 'sync';
    try {
      const error = await reactWhatsappCloud(connection, { to: '5521999990000', channelMessageId: 'wamid.OLD', emoji: '👍' }).then(
        () => expect.fail('the reaction was accepted'),
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ reason: cloudErrorMeaning(131047).text, options: { permanent: true } });
    } finally {
      fake.windowErrors = 'webhook';
    }
  });
});
