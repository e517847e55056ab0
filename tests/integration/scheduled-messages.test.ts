/**
 * Scheduled messages (ADR-0224) over the shared runtime, the channel played by
 * the tests' fake WhatsApp: scheduled through the API in the account's zone, fired by the timers'
 * poller function on a moved clock, the occurrence goes out once however often (and however many
 * at once) the poller runs, and a run killed at its write leaves it due, as the scheduler's message; a daily one moves to the next day, is edited
 * and cancelled; other tabs hear of each change; validation and visibility; deleting the contact
 * takes its schedules.
 */
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { keys } from '#db/keys.ts';
import { wallClock } from '#domain/business-hours/zoned-time.ts';
import type { Ports } from '#domain/ports.ts';
import { fireDueScheduledMessages } from '#domain/scheduled-messages/fire-scheduled-messages.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { listen } from './realtime-client.ts';
import { eventually, fakeChannel, workerPorts } from './worker.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The poller's ports with the clock moved `ms` ahead. */
const later = (ms: number): Ports => ({ ...workerPorts(), clock: () => new Date(Date.now() + ms) });

/** The wall clock in São Paulo (the default business hours' zone) `ms` from `from` (now), as the form sends it. */
function inSaoPaulo(ms: number, from = Date.now()): { date: string; time: string } {
  const { date, minutes } = wallClock(from + ms, 'America/Sao_Paulo');
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date, time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` };
}
const text = (date: string, time: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)} ${time}`;

type Team = Awaited<ReturnType<typeof inboxTeam>>;
const thread = async (team: Team) =>
  (await call('GET', `/messages${listQueryString({ where: { contactId: team.contact.id }, perPage: 50 })}`, { token: team.owner.token })).body.data as any[];
const scheduledOf = async (team: Team, token = team.owner.token) => call('GET', `/contacts/${team.contact.id}/scheduled-messages`, { token });
const sentTo = async (team: Team) => (await fakeChannel.sent()).filter((s) => s.message.to === team.contact.idFromService);

describe('scheduled messages', () => {
  it('go out once when due, as the scheduler, move to the next occurrence, and are edited and cancelled; other tabs hear of it', async () => {
    const team = await inboxTeam();
    const otherTab = await listen(team.admin.token);
    // Both occurrences from one reading of the clock: read again later, a minute may have turned.
    const createdAt = Date.now();
    const when = inSaoPaulo(10 * MINUTE, createdAt);
    const created = await call('POST', '/scheduled-messages', {
      token: team.owner.token,
      body: { contactId: team.contact.id, text: 'Seu boleto vence amanhã', ...when, repeat: 'daily' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'scheduled', repeat: 'daily', sentCount: 0, nextAtText: text(when.date, when.time) });
    await otherTab.waitFor((e) => e.event === 'scheduledMessage.CREATED' && e.data.id === created.body.id);
    expect((await scheduledOf(team)).body.map((s: any) => s.id)).toEqual([created.body.id]);

    // Not due yet: nothing goes. (The poller fires every account's due schedules, other files'
    // included: this test reads its own contact's thread and sends, never the poller's totals.)
    await fireDueScheduledMessages(later(5 * MINUTE));
    expect(await thread(team)).toEqual([]);
    expect(await sentTo(team)).toEqual([]);
    // A run killed at its write (the transaction never reaches the table) leaves it due, nothing stored.
    const ports = later(11 * MINUTE);
    const killedAtWrite: Ports = {
      ...ports,
      table: {
        ...ports.table,
        doc: {
          send: (command: unknown) => (command instanceof TransactWriteCommand ? Promise.reject(new Error('killed')) : ports.table.doc.send(command as never)),
        },
      } as unknown as Ports['table'],
    };
    await expect(fireDueScheduledMessages(killedAtWrite)).rejects.toThrow('killed');
    expect(await thread(team)).toEqual([]);
    // Due: two pollers at once and a retried one store it once.
    await Promise.all([fireDueScheduledMessages(later(11 * MINUTE)), fireDueScheduledMessages(later(11 * MINUTE))]);
    await fireDueScheduledMessages(later(12 * MINUTE));
    const [message] = await thread(team);
    expect(message).toMatchObject({ text: 'Seu boleto vence amanhã', isFromMe: true, user: { name: 'Dona Teste' } });
    await eventually(async () => (await thread(team))[0].ack === 1);
    expect((await sentTo(team)).map((s) => s.message.text)).toEqual(['Seu boleto vence amanhã']);
    expect((await thread(team)).length).toBe(1);

    // The daily schedule moved to tomorrow at the same time.
    const tomorrow = inSaoPaulo(DAY + 10 * MINUTE, createdAt);
    const [moved] = (await scheduledOf(team)).body;
    expect(moved).toMatchObject({ id: created.body.id, sentCount: 1, nextAtText: text(tomorrow.date, tomorrow.time), ...tomorrow });
    await otherTab.waitFor((e) => e.event === 'scheduledMessage.UPDATED' && e.data.sentCount === 1);

    // Edited with the date it shows: it keeps its place; the next occurrence goes with the new text.
    const edited = await call('PUT', `/scheduled-messages/${created.body.id}`, {
      token: team.admin.token,
      body: { contactId: team.contact.id, text: 'Lembrete: boleto vence hoje', ...tomorrow, repeat: 'daily' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ text: 'Lembrete: boleto vence hoje', nextAt: moved.nextAt });
    await fireDueScheduledMessages(later(DAY + 11 * MINUTE));
    await eventually(async () => (await sentTo(team)).length === 2);
    expect(await thread(team)).toHaveLength(2);
    expect((await thread(team))[0]).toMatchObject({ text: 'Lembrete: boleto vence hoje', user: { name: 'Dona Teste' } });

    // Cancelled: it leaves the list, and nothing more goes.
    const cancelled = await call('POST', `/scheduled-messages/${created.body.id}/cancel`, { token: team.owner.token, body: { contactId: team.contact.id } });
    expect(cancelled.body.status).toBe('cancelled');
    await otherTab.waitFor((e) => e.event === 'scheduledMessage.UPDATED' && e.data.status === 'cancelled');
    expect((await scheduledOf(team)).body).toEqual([]);
    await fireDueScheduledMessages(later(3 * DAY));
    expect(await thread(team)).toHaveLength(2);
    expect(await sentTo(team)).toHaveLength(2);
    const again = await call('PUT', `/scheduled-messages/${created.body.id}`, {
      token: team.owner.token,
      body: { contactId: team.contact.id, text: 'De novo', ...inSaoPaulo(DAY), repeat: 'once' },
    });
    expect(again.body.details).toEqual([{ path: 'id', message: 'Esta mensagem agendada já foi enviada ou cancelada' }]);
    otherTab.close();
  });

  it('refuses a past time, an empty or too long text in pt-BR; who cannot see the conversation cannot schedule; deleting the contact takes its schedules', async () => {
    const team = await inboxTeam();
    const body = (changes: object) => ({ contactId: team.contact.id, text: 'Oi', ...inSaoPaulo(DAY), repeat: 'once', ...changes });
    const post = (changes: object, token = team.owner.token) => call('POST', '/scheduled-messages', { token, body: body(changes) });
    expect((await post(inSaoPaulo(-2 * MINUTE))).body.details).toEqual([{ path: 'time', message: 'Escolha uma data e um horário que ainda não passaram' }]);
    expect((await post({ text: '  ' })).body.details).toEqual([{ path: 'text', message: 'A mensagem está vazia' }]);
    expect((await post({ text: 'x'.repeat(4097) })).body.details).toEqual([{ path: 'text', message: 'A mensagem pode ter no máximo 4096 caracteres' }]);
    expect((await post({ date: '2027-02-30' })).body.details).toEqual([{ path: 'date', message: 'Data inválida' }]);

    // The owner takes the conversation: the member no longer sees it, so cannot schedule there.
    expect((await call('POST', `/contacts/${team.contact.id}/take`, { token: team.owner.token })).status).toBe(200);
    expect((await post({}, team.member.token)).status).toBe(404);
    expect((await scheduledOf(team, team.member.token)).status).toBe(404);

    expect((await post({ repeat: 'monthly' })).status).toBe(201);
    expect((await call('DELETE', `/contacts/${team.contact.id}`, { token: team.owner.token })).status).toBe(204);
    const { table } = workerPorts();
    const { pk, skPrefix } = keys.contactScheduledMessages(team.owner.accountId, team.contact.id);
    await eventually(async () => {
      const { Items } = await table.doc.send(
        new QueryCommand({
          TableName: table.name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
          ConsistentRead: true,
        }),
      );
      return Items?.length === 0;
    });
  });
});
