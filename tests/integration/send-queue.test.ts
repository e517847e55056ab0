/**
 * The send queue over the local runtime (SQS FIFO emulator, the same handler modules Lambda runs)
 * with the HTTP channel double: one lane per connection, waits that hold only their own lane, and
 * partial batch failures that resend nothing already sent.
 */
import { describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { maxWaitSeconds } from '#domain/messages/dispatch.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { eventually, fakeChannel } from './worker.ts';

type Team = Awaited<ReturnType<typeof inboxTeam>>;

const send = async (team: Team, text: string) => {
  const answer = await call('POST', '/messages/send', { token: team.owner.token, body: { contactId: team.contact.id, serviceId: team.service.id, text } });
  expect(answer.status).toBe(201);
  return answer.body as { id: string };
};

const messagesOf = async (team: Team) =>
  (await call('GET', `/messages${listQueryString({ where: { contactId: team.contact.id } })}`, { token: team.owner.token })).body.data as {
    id: string;
    text: string;
    ack: number;
    error: string | null;
  }[];

/** What the channel was handed for a connection, in the order it was handed. */
const handedTo = async (team: Team) =>
  ((await fakeChannel.sent()) as { connection: { serviceId: string }; message: { text: string }; answered: { ok?: true }; at: number }[]).filter(
    (s) => s.connection.serviceId === team.service.id,
  );

const allSent = (team: Team, count: number) => async () => {
  const messages = await messagesOf(team);
  return messages.length === count && messages.every((m) => m.ack === 1) && messages;
};

describe('the send queue', () => {
  it("a connection the channel asks to wait does not delay another account's send, and goes out after the wait, in order", async () => {
    const limited = await inboxTeam();
    const other = await inboxTeam();
    await fakeChannel.script([{ serviceId: limited.service.id, reason: 'Muitas mensagens', retryAfterSeconds: 3 }]);

    await send(limited, 'Primeira');
    await send(limited, 'Segunda');
    const firstRefusedAt = (await eventually(async () => (await handedTo(limited))[0])).at;
    const otherSentAt = Date.now();
    await send(other, 'Enquanto isso');

    // The other account's message is answered while the limited connection still waits.
    await eventually(allSent(other, 1), 2500);
    const otherHanded = await handedTo(other);
    expect(otherHanded).toHaveLength(1);
    expect(otherHanded[0]!.at - otherSentAt).toBeLessThan(2000);
    expect((await handedTo(limited)).map((s) => s.message.text)).toEqual(['Primeira']);

    // Then the limited lane goes on after the wait it was asked for, in the order the messages were sent.
    await eventually(allSent(limited, 2), 10_000);
    const limitedHanded = await handedTo(limited);
    expect(limitedHanded.map((s) => [s.message.text, 'ok' in s.answered])).toEqual([
      ['Primeira', false],
      ['Primeira', true],
      ['Segunda', true],
    ]);
    expect(limitedHanded[1]!.at - firstRefusedAt).toBeGreaterThanOrEqual(2950);
    expect(limitedHanded[1]!.at).toBeGreaterThan(otherHanded[0]!.at);
  });

  it('a failure in a batch resends nothing already sent: each message reaches the channel once, in order', async () => {
    const team = await inboxTeam();
    // The first send holds the lane for 2 s, so the next four queue up behind it and are handed
    // over with it in one batch; there the third asks to wait, which fails it and the two after it.
    await fakeChannel.script([
      { serviceId: team.service.id, text: 'm1', reason: 'Muitas mensagens', retryAfterSeconds: 2 },
      { serviceId: team.service.id, text: 'm3', reason: 'Muitas mensagens', retryAfterSeconds: 1 },
    ]);
    const texts = ['m1', 'm2', 'm3', 'm4', 'm5'];
    for (const text of texts) await send(team, text);

    await eventually(allSent(team, 5), 15_000);
    const handed = await handedTo(team);
    const accepted = handed.filter((s) => 'ok' in s.answered).map((s) => s.message.text);
    expect(accepted).toEqual(texts);
    expect(handed.map((s) => s.message.text)).toEqual(['m1', 'm1', 'm2', 'm3', 'm3', 'm4', 'm5']);
  });

  it('a wait longer than the queue will hold fails the message at once with the channel’s reason', async () => {
    const team = await inboxTeam();
    await fakeChannel.script([
      { serviceId: team.service.id, reason: 'O Telegram limitou os envios; tente de novo em 3600 s', retryAfterSeconds: maxWaitSeconds + 1 },
    ]);
    await send(team, 'Paciência');
    const failed = await eventually(async () => {
      const [message] = await messagesOf(team);
      return message?.ack === -2 && message;
    });
    expect(failed.error).toBe('O Telegram limitou os envios; tente de novo em 3600 s');
    expect(await handedTo(team)).toHaveLength(1);
  });

  it('a redelivered or repeated request records one answer: a retry after a failure is one new send', async () => {
    const team = await inboxTeam();
    await fakeChannel.script([{ serviceId: team.service.id, reason: 'Recusada', permanent: true }]);
    const message = await send(team, 'De novo');
    await eventually(async () => (await messagesOf(team))[0]?.ack === -2);
    const retried = await call('POST', `/messages/${message.id}/retry`, { token: team.owner.token, body: { contactId: team.contact.id } });
    expect(retried.status).toBe(200);
    await eventually(allSent(team, 1));
    // Give a stray duplicate time to show up.
    await new Promise((r) => setTimeout(r, 500));
    expect((await handedTo(team)).map((s) => 'ok' in s.answered)).toEqual([false, true]);
  });
});
