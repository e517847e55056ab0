/**
 * Screenshots of two WhatsApp conversations whose text the worker writes (the integration tests
 * prove them: tests/integration/whatsapp-contact-check.test.ts and whatsapp-polls.test.ts): a
 * contact made by hand whose number has no WhatsApp, with its system line, and a customer's poll
 * showing its tally after votes. Light and dark, 1280 and 390 px wide, each with axe-core (0 serious
 * or critical), into docs/screenshots/contact-no-whatsapp-*.png and docs/screenshots/poll-tally-*.png.
 * The runtime's WhatsApp sockets are the socket double, whose directory knows only the poll's author.
 * Run: `npx tsx scripts/screenshots/take-contact-check-and-poll-screenshots.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { aesEncryptGCM, generateWAMessageContent, hmacSign, proto, sha256 } from 'baileys';
import { listQueryString } from '#contracts/list-query.ts';
import { callApi, expectAccessible, newPage, root } from '../../tests/e2e/browser.ts';
import { eventually, newTeam, openAs, startWorld } from '../../tests/e2e/world.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });

const customer = '5521988881111@s.whatsapp.net';
const me = '5511900000000@s.whatsapp.net';

/** A vote as the voter's phone encrypts it (Baileys' decryptPollVote, read backwards). */
function encryptVote(pollMsgId: string, voterJid: string, pollEncKey: Uint8Array, chosen: string[]) {
  const sign = Buffer.concat([Buffer.from(pollMsgId), Buffer.from(customer), Buffer.from(voterJid), Buffer.from('Poll Vote'), new Uint8Array([1])]);
  const encKey = hmacSign(sign, hmacSign(pollEncKey, new Uint8Array(32), 'sha256'), 'sha256');
  const encIv = randomBytes(12);
  const plain = proto.Message.PollVoteMessage.encode({ selectedOptions: chosen.map((name) => sha256(Buffer.from(name))) }).finish();
  return { encPayload: aesEncryptGCM(plain, encKey, encIv, Buffer.from(`${pollMsgId}\u0000${voterJid}`)).toString('base64'), encIv: encIv.toString('base64') };
}

const world = await startWorld({ whatsappDouble: { paceMs: 50 } });
try {
  const whatsapp = world.whatsapp!;
  await whatsapp.register([customer]);
  const { owner } = await newTeam(world, 'Ótica Visão Clara', 'Carla Souza');
  const token = owner.token;
  const zap = (await callApi(world.base, 'POST', '/services', { name: 'WhatsApp Vendas', type: 'whatsapp' }, token)).body;
  await callApi(world.base, 'POST', `/services/${zap.id}/start`, undefined, token);
  await whatsapp.waitFor(zap.id, (socket) => socket.sockets === 1);
  await whatsapp.pair(zap.id);
  await eventually(async () => (await callApi(world.base, 'GET', `/services/${zap.id}`, undefined, token)).body.status === 'connected');
  const messagesOf = async (contactId: string) =>
    ((await callApi(world.base, 'GET', `/messages${listQueryString({ where: { contactId } })}`, undefined, token)).body.data ?? []) as {
      text: string;
      kind: string;
    }[];

  // A contact typed by hand whose number has no WhatsApp.
  const typed = (
    await callApi(
      world.base,
      'POST',
      '/contacts',
      { name: 'Rafael Lima', serviceId: zap.id, data: { phoneNumber: '+55 (31) 99876-0000', phoneCountry: 'br' } },
      token,
    )
  ).body;
  await eventually(async () => (await messagesOf(typed.id)).some((m) => m.kind === 'system'));

  // A customer's poll with three votes.
  const content = await generateWAMessageContent(
    { poll: { name: 'Qual horário prefere?', values: ['Manhã', 'Tarde', 'Noite'], selectableCount: 1 } },
    {} as never,
  );
  const secret = content.messageContextInfo!.messageSecret!;
  const pollKey = { remoteJid: customer, fromMe: false, id: '3A00000000000000POLL1' };
  const at = Math.floor(Date.now() / 1000);
  await whatsapp.emit(zap.id, 'messages.upsert', {
    type: 'notify',
    messages: [
      {
        key: pollKey,
        message: proto.Message.toObject(proto.Message.fromObject(content), { bytes: String }),
        messageTimestamp: at - 240,
        pushName: 'Joana Pereira',
      },
    ],
  });
  const poll = await eventually(async () =>
    ((await callApi(world.base, 'GET', '/contacts', undefined, token)).body.data as { id: string; idFromService: string }[]).find(
      (c) => c.idFromService === customer,
    ),
  );
  let n = 0;
  for (const [voter, chosen] of [
    [customer, ['Tarde']],
    [me, ['Manhã']],
  ] as const) {
    await whatsapp.emit(zap.id, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: customer, fromMe: voter === me, id: `3A0000000000000VOTE${++n}` },
          message: {
            pollUpdateMessage: {
              pollCreationMessageKey: pollKey,
              vote: encryptVote(pollKey.id, voter, secret, [...chosen]) as never,
              senderTimestampMs: Date.now(),
            },
          },
          messageTimestamp: at,
        },
      ],
    });
  }
  await eventually(async () => (await messagesOf(poll.id)).some((m) => m.text.includes('2 pessoas votaram')));

  for (const dark of [false, true]) {
    for (const width of [1280, 390]) {
      const variant = `${width}-${dark ? 'dark' : 'light'}`;
      const { context, page, errors } = await newPage(world.browser, { width, height: width > 600 ? 800 : 844, dark });
      for (const [name, contactId, text] of [
        ['contact-no-whatsapp', typed.id, 'Este número não tem WhatsApp'],
        ['poll-tally', poll.id, '2 pessoas votaram'],
      ] as const) {
        await openAs(page, world, owner, `/inbox/${contactId}`);
        await page.getByText(text).first().waitFor();
        await expectAccessible(page, `${name} ${variant}`);
        await page.waitForTimeout(300);
        const file = join(out, `${name}-${variant}.png`);
        await page.screenshot({ path: file });
        console.log(`wrote ${file}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`);
      }
      await context.close();
    }
  }
} finally {
  await world.stop();
}
