/**
 * Polls' votes on WhatsApp, end to end on the local runtime with the socket double: a customer's
 * poll made by Baileys' own `generateWAMessageContent` (with its random `messageSecret`), votes
 * encrypted as a voter's phone does (the inverse of Baileys' `decryptPollVote`, with Baileys' own
 * `hmacSign`, `aesEncryptGCM` and `sha256`; checked against `decryptPollVote` and
 * `getAggregateVotesInPollMessage` here), from the customer and from the business's own phone. The
 * poll's message shows the current tally (a changed vote replaces the earlier one, a withdrawn one
 * counts no more), through the usual `message.UPDATED`; a vote that this poll's secret does not
 * open changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { aesEncryptGCM, decryptPollVote, generateWAMessageContent, getAggregateVotesInPollMessage, hmacSign, proto, sha256 } from 'baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { listQueryString } from '#contracts/list-query.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { WhatsAppControl } from '../support/whatsapp-control.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';
import { eventually } from './worker.ts';

let runtime: RunningRuntime;
let control: WhatsAppControl;
const call = callAt(() => runtime.url);

beforeAll(async () => {
  runtime = await spawnLocalRuntime({ WHATSAPP_DOUBLE: '1', WHATSAPP_DOUBLE_PACE_MS: '50' });
  control = new WhatsAppControl(runtime.whatsappControlUrl!);
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
});

const me = '5511900000000@s.whatsapp.net';
const customer = '5511977776666@s.whatsapp.net';
const options = ['Manhã', 'Tarde', 'Noite'];

/** A vote as the voter's phone encrypts it: the key from the poll's secret, its id, its creator and the voter (Utils/process-message.js, read backwards). */
function encryptVote(vote: { pollMsgId: string; pollCreatorJid: string; voterJid: string; pollEncKey: Uint8Array; chosen: string[] }) {
  const sign = Buffer.concat([
    Buffer.from(vote.pollMsgId),
    Buffer.from(vote.pollCreatorJid),
    Buffer.from(vote.voterJid),
    Buffer.from('Poll Vote'),
    new Uint8Array([1]),
  ]);
  const key0 = hmacSign(vote.pollEncKey, new Uint8Array(32), 'sha256');
  const encKey = hmacSign(sign, key0, 'sha256');
  const encIv = randomBytes(12);
  const plain = proto.Message.PollVoteMessage.encode({ selectedOptions: vote.chosen.map((name) => sha256(Buffer.from(name))) }).finish();
  const encPayload = aesEncryptGCM(plain, encKey, encIv, Buffer.from(`${vote.pollMsgId}\u0000${vote.voterJid}`));
  return { encPayload, encIv };
}

let sequence = 0;
const nextId = () => `3A${String(++sequence).padStart(10, '0')}POLLTEST`;

describe('poll votes', () => {
  it('the poll’s message shows the current tally of decrypted votes; a vote its secret does not open changes nothing', { timeout: 90_000 }, async () => {
    const registered = await call('POST', '/auth/register', { body: { name: 'Dona Zap', email: uniqueEmail('polls'), password: strongPassword } });
    const account = await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: 'Loja Zap' } });
    const token = account.body.accessToken as string;
    const serviceId = (await call('POST', '/services', { token, body: { name: 'WhatsApp da loja', type: 'whatsapp' } })).body.id as string;
    expect((await call('POST', `/services/${serviceId}/start`, { token })).status).toBe(200);
    await control.waitFor(serviceId, () => true);
    await control.pair(serviceId);
    await eventually(async () => (await call('GET', `/services/${serviceId}`, { token })).body.status === 'connected', 20_000);
    const socket = new WebSocket(await realtimeUrl(runtime.url, token));
    const events: { event: string; data: any }[] = [];
    socket.on('message', (data) => events.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });

    // The customer's poll, as Baileys builds one (its secret in messageContextInfo).
    const content = await generateWAMessageContent({ poll: { name: 'Qual horário prefere?', values: options, selectableCount: 1 } }, {} as never);
    const secret = content.messageContextInfo!.messageSecret!;
    expect(secret.length).toBe(32);
    const pollId = nextId();
    const pollKey = { remoteJid: customer, fromMe: false, id: pollId };
    const at = () => Math.floor(Date.now() / 1000);
    await control.emit(serviceId, 'messages.upsert', {
      type: 'notify',
      messages: [
        { key: pollKey, message: proto.Message.toObject(proto.Message.fromObject(content), { bytes: String }), messageTimestamp: at(), pushName: 'Joana' },
      ],
    });
    const [contact] = await eventually(async () => {
      const contacts = (await call('GET', '/contacts', { token })).body.data as { id: string }[];
      return contacts.length ? contacts : undefined;
    }, 20_000);
    const pollMessage = async () =>
      ((await call('GET', `/messages${listQueryString({ where: { contactId: contact!.id } })}`, { token })).body.data as { id: string; text: string }[]).find(
        (m) => m.text.startsWith('📊'),
      )!;
    await eventually(pollMessage, 10_000);
    expect((await pollMessage()).text).toBe('📊 Enquete: Qual horário prefere?\n• Manhã\n• Tarde\n• Noite');

    const vote = async (voter: 'customer' | 'me', chosen: string[], pollEncKey: Uint8Array = secret) => {
      const voterJid = voter === 'me' ? me : customer;
      const encrypted = encryptVote({ pollMsgId: pollId, pollCreatorJid: customer, voterJid, pollEncKey, chosen });
      // Baileys' own decryption reads it back (the vote is built right).
      if (pollEncKey === secret)
        expect(
          decryptPollVote(encrypted, { pollCreatorJid: customer, pollMsgId: pollId, pollEncKey, voterJid }).selectedOptions?.map((h) =>
            Buffer.from(h).toString('hex'),
          ),
        ).toEqual(chosen.map((name) => sha256(Buffer.from(name)).toString('hex')));
      const key = { remoteJid: customer, fromMe: voter === 'me', id: nextId() };
      await control.emit(serviceId, 'messages.upsert', {
        type: 'notify',
        messages: [
          {
            key,
            message: {
              pollUpdateMessage: {
                pollCreationMessageKey: pollKey,
                vote: { encPayload: Buffer.from(encrypted.encPayload).toString('base64'), encIv: Buffer.from(encrypted.encIv).toString('base64') } as never,
                senderTimestampMs: Date.now(),
              },
            },
            messageTimestamp: at(),
          },
        ],
      });
      return { key, vote: { selectedOptions: chosen.map((name) => sha256(Buffer.from(name))) } };
    };
    const tally = (lines: string[]) => ['📊 Enquete: Qual horário prefere?', ...lines].join('\n');

    const customerVote = await vote('customer', ['Tarde']);
    const ownVote = await vote('me', ['Manhã']);
    const two = tally(['• Manhã: 1 voto', '• Tarde: 1 voto', '• Noite: 0 votos', '2 pessoas votaram']);
    await eventually(async () => (await pollMessage()).text === two, 10_000);
    // Baileys' own aggregation of the same votes agrees.
    const aggregate = getAggregateVotesInPollMessage(
      { message: content, pollUpdates: [customerVote, ownVote].map((v) => ({ pollUpdateMessageKey: v.key, vote: v.vote })) },
      me,
    );
    expect(aggregate.map((o) => `${o.name}:${o.voters.length}`)).toEqual(['Manhã:1', 'Tarde:1', 'Noite:0']);

    // The customer changes their vote: it replaces the earlier one.
    await vote('customer', ['Manhã']);
    const changed = tally(['• Manhã: 2 votos', '• Tarde: 0 votos', '• Noite: 0 votos', '2 pessoas votaram']);
    await eventually(async () => (await pollMessage()).text === changed, 10_000);
    await eventually(async () => events.some((e) => e.event === 'message.UPDATED' && e.data?.text === changed), 10_000);

    // A vote sealed with another poll's secret cannot be read: nothing changes. Then the customer withdraws theirs.
    await vote('customer', ['Noite'], randomBytes(32));
    await vote('customer', []);
    const withdrawn = tally(['• Manhã: 1 voto', '• Tarde: 0 votos', '• Noite: 0 votos', '1 pessoa votou']);
    await eventually(async () => (await pollMessage()).text === withdrawn, 10_000);
    expect(events.some((e) => e.data?.text?.includes('Noite: 1 voto'))).toBe(false);
    // Votes are not messages of their own.
    expect(((await call('GET', `/messages${listQueryString({ where: { contactId: contact!.id } })}`, { token })).body.data as unknown[]).length).toBe(1);
    socket.terminate();
  });
});
