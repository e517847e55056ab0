/**
 * The conversation lifecycle wired into the inbox (docs/conversation-lifecycle.md) over the shared
 * runtime, with the channel played by the tests' fake WhatsApp: a customer's message gets the
 * greeting and the menu in the write that stores it; a menu option routes to a department; the
 * team's take, reply and resolve move it (closing message, rating question); a score is recorded
 * without reopening the conversation, and the next message starts a new one; timers armed in those
 * writes fire through `fireDueTimers` on a moved clock, once; out of hours the away reply goes once a
 * stretch; automated messages leave unread alone; an account with every automation off keeps the
 * inbox's behaviour and no lifecycle state, and reports still count its conversations.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type AutomationSettings, defaultAutomationSettings, type ConnectionMenu } from '#contracts/automations.ts';
import type { BusinessHours } from '#contracts/business-hours.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { putAccountSetting } from '#db/account-settings.ts';
import { getContactItem } from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import { fireDueTimers } from '#domain/automations/fire-timers.ts';
import { receiveMessage } from '#domain/messages/inbound.ts';
import type { Ports } from '#domain/ports.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { listen } from './realtime-client.ts';
import { eventually, workerPorts } from './worker.ts';

type Team = Awaited<ReturnType<typeof inboxTeam>>;
const MINUTE = 60_000;
const allWeek = (start: string, end: string) => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start, end }));
const alwaysOpen: BusinessHours = { timeZone: 'America/Sao_Paulo', shifts: allWeek('00:00', '24:00'), holidays: [], departments: [] };
const neverOpen: BusinessHours = { ...alwaysOpen, shifts: [] };

const automations = (changes: Partial<AutomationSettings>): AutomationSettings => ({ ...defaultAutomationSettings, ...changes });

async function configure(team: Team, settings: { automations?: AutomationSettings; hours?: BusinessHours; menu?: ConnectionMenu }) {
  const { table } = workerPorts();
  const by = { userId: team.owner.user.id as string, now: new Date().toISOString() };
  if (settings.automations) await putAccountSetting(table, team.owner.accountId, 'automations', settings.automations, by);
  if (settings.hours) await putAccountSetting(table, team.owner.accountId, 'business-hours', settings.hours, by);
  if (settings.menu) await putAccountSetting(table, team.owner.accountId, `menu#${team.service.id}`, settings.menu, by);
}

let seq = 0;
/** The customer (the team's contact) writes. */
async function customerWrites(team: Team, text: string, ports: Ports = workerPorts()) {
  return receiveMessage(
    ports,
    { accountId: team.owner.accountId, serviceId: team.service.id },
    {
      channelMessageId: `wamid-auto-${Date.now()}-${++seq}`,
      chat: { idFromService: team.contact.idFromService, name: 'Cliente Zap', isGroup: false },
      isFromMe: false,
      type: 'text',
      text,
      timestamp: new Date(ports.clock().getTime()).toISOString(),
    },
  );
}

async function thread(team: Team): Promise<any[]> {
  const page = await call('GET', `/messages${listQueryString({ where: { contactId: team.contact.id }, perPage: 100 })}`, { token: team.owner.token });
  return (page.body.data as any[]).slice().reverse();
}
const automated = async (team: Team) => (await thread(team)).filter((m) => m.automated).map((m) => m.text as string);
const lines = async (team: Team) => (await thread(team)).filter((m) => m.kind === 'system').map((m) => m.text as string);
const contactOf = async (team: Team) => (await call('GET', `/contacts/${team.contact.id}`, { token: team.owner.token })).body;

async function timersOf(team: Team): Promise<{ name: string; version: number; dueAt: string }[]> {
  const { table } = workerPorts();
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.contactMessages(team.owner.accountId, team.contact.id).pk, ':p': 'TIMER#' },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((i) => ({ name: i.name as string, version: i.version as number, dueAt: i.dueAt as string }));
}

/** The ports with their clock moved `ms` ahead (the timers' poller in the future). */
const later = (ms: number): Ports => ({ ...workerPorts(), clock: () => new Date(Date.now() + ms) });

describe('automations on the conversation lifecycle', () => {
  it('greets and offers the menu, routes by option, and moves with the team: take, reply, resolve, rating, a new conversation', async () => {
    const team = await inboxTeam();
    const financeiro = (await call('POST', '/departments', { token: team.owner.token, body: { name: 'Financeiro' } })).body;
    await configure(team, {
      hours: alwaysOpen,
      automations: automations({
        greeting: { enabled: true, text: 'Olá, {{primeiro_nome}}! Protocolo {{protocolo}}.' },
        closing: { enabled: true, text: 'Atendimento {{protocolo}} encerrado por {{atendente}}.' },
        rating: { enabled: true, question: 'De 1 a 5, como foi?', thanks: 'Obrigado pela nota!' },
      }),
      menu: {
        enabled: true,
        menus: [
          {
            id: 'inicio',
            text: 'Como podemos ajudar?',
            options: [
              { key: '1', label: 'Financeiro', action: { kind: 'department', departmentId: financeiro.id } },
              { key: '2', label: 'Endereço', action: { kind: 'answer', text: 'Rua das Flores, 100.' } },
            ],
          },
        ],
        invalidText: 'Opção inválida.',
        maxInvalid: 3,
        timeoutMinutes: 30,
        timeoutDepartmentId: null,
      },
    });

    await customerWrites(team, 'Oi, bom dia');
    const [greeting, menu] = await automated(team);
    expect(greeting).toMatch(/^Olá, Cliente! Protocolo \d{8}-[0-9A-Z]{4}\.$/);
    expect(menu).toBe('Como podemos ajudar?\n\n1 - Financeiro\n2 - Endereço');
    expect(await contactOf(team)).toMatchObject({ status: 'pending', userId: null, unread: 1 });
    // The menu's timeout is armed in the same write.
    expect((await timersOf(team)).map((t) => t.name)).toEqual(['menu_timeout']);
    // Sent through the channel like any message of ours.
    await eventually(async () => (await thread(team)).filter((m) => m.automated).every((m) => m.ack >= 1));

    await customerWrites(team, '2');
    // A text answer; the customer stays in the menu (its timeout armed again).
    expect((await automated(team)).slice(2)).toEqual(['Rua das Flores, 100.']);
    await customerWrites(team, '1');
    expect(await lines(team)).toContain('Encaminhada para Financeiro');
    expect(await contactOf(team)).toMatchObject({ status: 'pending', departmentId: financeiro.id, unread: 3 });
    expect(await timersOf(team)).toEqual([]);

    // The team: take, reply, resolve.
    expect((await call('POST', `/contacts/${team.contact.id}/take`, { token: team.admin.token })).status).toBe(200);
    expect(await contactOf(team)).toMatchObject({ status: 'open', userId: team.admin.id });
    const reply = await call('POST', '/messages/send', {
      token: team.admin.token,
      body: { contactId: team.contact.id, serviceId: team.service.id, text: 'Olá! Vou verificar.' },
    });
    expect(reply.status).toBe(201);
    expect((await call('POST', `/contacts/${team.contact.id}/status`, { token: team.admin.token, body: { status: 'resolved' } })).status).toBe(200);
    const afterResolve = await automated(team);
    expect(afterResolve.slice(-2)).toEqual([expect.stringMatching(/^Atendimento \d{8}-[0-9A-Z]{4} encerrado por .+\.$/), 'De 1 a 5, como foi?']);
    expect(await contactOf(team)).toMatchObject({ status: 'resolved' });

    // What reports read: the conversation's start, its first answer (the admin's) and its resolution.
    const month = new Date().toISOString().slice(0, 7);
    const events = await workerPorts().table.doc.send(
      new QueryCommand({
        TableName: workerPorts().table.name,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.conversationEventsOf(team.owner.accountId, month).pk },
      }),
    );
    const ofContact = (events.Items ?? []).filter((e) => e.contactId === team.contact.id);
    expect(ofContact.map((e) => e.kind)).toEqual(['started', 'first_response', 'resolved']);
    expect(ofContact[1]).toMatchObject({ userId: team.admin.id, departmentId: financeiro.id, waitMs: expect.any(Number) });
    expect(ofContact[2]).toMatchObject({ by: 'team', handledMs: expect.any(Number) });
    expect(ofContact[2]!.handledMs).toBeGreaterThanOrEqual(ofContact[1]!.waitMs);

    // A score is recorded and thanked; the conversation stays resolved, with no 'reopened' line.
    await customerWrites(team, '5');
    expect((await automated(team)).at(-1)).toBe('Obrigado pela nota!');
    expect(await contactOf(team)).toMatchObject({ status: 'resolved' });
    expect(await lines(team)).not.toContain('Conversa reaberta por nova mensagem do cliente');
    // The score is a conversation event too, and the reports' rollup of the day counts it (the stream's report-rollups consumer).
    const rated = await workerPorts().table.doc.send(
      new QueryCommand({
        TableName: workerPorts().table.name,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.conversationEventsOf(team.owner.accountId, new Date().toISOString().slice(0, 7)).pk },
      }),
    );
    expect((rated.Items ?? []).find((e) => e.contactId === team.contact.id && e.kind === 'rated')).toMatchObject({ score: 5, userId: team.admin.id });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const report = await eventually(async () => {
      const answer = await call('GET', `/reports?from=${today}&to=${today}`, { token: team.owner.token });
      return answer.body.totals?.ratings.count === 1 ? answer.body : undefined;
    });
    expect(report.totals).toMatchObject({ opened: 1, resolved: 1, ratings: { average: 5, distribution: [0, 0, 0, 0, 1] } });
    expect(report.agents.find((a: { id: string }) => a.id === team.admin.id)).toMatchObject({ resolved: 1, firstResponse: { count: 1 } });
    const protocol = greeting!.match(/Protocolo (\S+)\./)![1]!;
    const { table } = workerPorts();
    const rating = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': keys.account(team.owner.accountId).pk, ':sk': keys.conversationRating(team.owner.accountId, protocol).sk },
      }),
    );
    expect(rating.Items?.[0]).toMatchObject({ score: 5, late: false, userId: team.admin.id, departmentId: financeiro.id, contactId: team.contact.id });

    // The next message is a new conversation, back with whoever had it (reopenToLastAgent, on by
    // default, as the inbox did before automations): reopened, nobody greeted again.
    await customerWrites(team, 'Oi de novo');
    expect(await automated(team)).toHaveLength(6);
    expect(await lines(team)).toContain('Conversa reaberta por nova mensagem do cliente');
    expect(await contactOf(team)).toMatchObject({ status: 'open', userId: team.admin.id, unread: 5 });
  });

  it("fires 'no one answered' once, on a moved clock, and a timer the team's reply cancelled never", async () => {
    const team = await inboxTeam();
    await configure(team, {
      hours: alwaysOpen,
      automations: automations({ noAnswer: { enabled: true, minutes: 5, text: 'Ainda estamos por aqui, {{primeiro_nome}}.' } }),
    });
    await customerWrites(team, 'Alguém aí?');
    const [armed] = await timersOf(team);
    expect(armed).toMatchObject({ name: 'no_answer' });
    expect(Date.parse(armed!.dueAt) - Date.now()).toBeGreaterThan(4 * MINUTE);

    // Not due yet: nothing.
    await fireDueTimers(later(MINUTE));
    expect(await automated(team)).toEqual([]);
    // Due: the notice, once, however often the poller runs.
    await fireDueTimers(later(6 * MINUTE));
    await fireDueTimers(later(7 * MINUTE));
    expect(await automated(team)).toEqual(['Ainda estamos por aqui, Cliente.']);
    expect(await timersOf(team)).toEqual([]);
    expect(await contactOf(team)).toMatchObject({ unread: 1 });

    // A new conversation's timer, cancelled by the team's reply in the write that stores it.
    await call('POST', `/contacts/${team.contact.id}/status`, { token: team.owner.token, body: { status: 'resolved' } });
    await customerWrites(team, 'Voltei');
    expect((await timersOf(team)).map((t) => t.name)).toEqual(['no_answer']);
    await call('POST', '/messages/send', { token: team.owner.token, body: { contactId: team.contact.id, serviceId: team.service.id, text: 'Oi!' } });
    expect(await timersOf(team)).toEqual([]);
    await fireDueTimers(later(10 * MINUTE));
    expect(await automated(team)).toEqual(['Ainda estamos por aqui, Cliente.']);
  });

  it('warns before closing an answered conversation the customer went quiet on, then closes it with the closing message', async () => {
    const team = await inboxTeam();
    await configure(team, {
      hours: alwaysOpen,
      automations: automations({
        closing: { enabled: true, text: 'Encerramos o atendimento {{protocolo}}.' },
        inactivity: { enabled: true, closeAfterHours: 2, warnBeforeMinutes: 30, warningText: 'Ainda está aí? Vamos encerrar em 30 minutos.' },
      }),
    });
    await customerWrites(team, 'Quero trocar um produto');
    await call('POST', `/contacts/${team.contact.id}/take`, { token: team.admin.token });
    await call('POST', '/messages/send', {
      token: team.admin.token,
      body: { contactId: team.contact.id, serviceId: team.service.id, text: 'Claro! Qual o pedido?' },
    });
    expect((await timersOf(team)).map((t) => t.name).sort()).toEqual(['inactivity_close', 'inactivity_warning']);

    // 1 h 31 min of silence: the warning, once.
    await fireDueTimers(later(91 * MINUTE));
    await fireDueTimers(later(95 * MINUTE));
    expect(await automated(team)).toEqual(['Ainda está aí? Vamos encerrar em 30 minutos.']);
    expect(await contactOf(team)).toMatchObject({ status: 'open', userId: team.admin.id });
    // 2 h: closed by the automation, with its line and the closing message; nobody's assignment touched.
    await fireDueTimers(later(121 * MINUTE));
    expect((await automated(team)).at(-1)).toMatch(/^Encerramos o atendimento \d{8}-[0-9A-Z]{4}\.$/);
    expect(await lines(team)).toContain('Conversa encerrada por inatividade');
    const closedEvents = await workerPorts().table.doc.send(
      new QueryCommand({
        TableName: workerPorts().table.name,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.conversationEventsOf(team.owner.accountId, new Date(Date.now() + 121 * MINUTE).toISOString().slice(0, 7)).pk },
      }),
    );
    expect((closedEvents.Items ?? []).find((e) => e.contactId === team.contact.id && e.kind === 'resolved')).toMatchObject({ by: 'inactivity' });
    expect(await contactOf(team)).toMatchObject({ status: 'resolved', userId: team.admin.id });
    expect(await timersOf(team)).toEqual([]);

    // The customer's answer before the close would have cancelled both: a new conversation, answered, then the customer writes.
    await customerWrites(team, 'Voltei');
    await call('POST', '/messages/send', { token: team.admin.token, body: { contactId: team.contact.id, serviceId: team.service.id, text: 'Oi de novo!' } });
    expect((await timersOf(team)).length).toBe(2);
    await customerWrites(team, 'Obrigado, era isso');
    expect(await timersOf(team)).toEqual([]);
  });

  it('moves a conversation that waited too long, unassigned, to the set department', async () => {
    const team = await inboxTeam();
    const geral = (await call('POST', '/departments', { token: team.owner.token, body: { name: 'Geral' } })).body;
    const plantao = (await call('POST', '/departments', { token: team.owner.token, body: { name: 'Plantão' } })).body;
    await call('PUT', `/services/${team.service.id}`, { token: team.owner.token, body: { name: team.service.name, defaultDepartmentId: geral.id } });
    await configure(team, { hours: alwaysOpen, automations: automations({ waitingTooLong: { enabled: true, minutes: 20, departmentId: plantao.id } }) });
    await customerWrites(team, 'Alguém pode me atender?');
    expect(await contactOf(team)).toMatchObject({ status: 'pending', departmentId: geral.id });
    await fireDueTimers(later(10 * MINUTE));
    expect((await contactOf(team)).departmentId).toBe(geral.id);
    await fireDueTimers(later(21 * MINUTE));
    expect(await contactOf(team)).toMatchObject({ status: 'pending', departmentId: plantao.id, userId: null });
    expect(await lines(team)).toContain('Encaminhada para Plantão');
    // In the set department already: not armed again.
    expect(await timersOf(team)).toEqual([]);
  });

  it('answers out of hours once a closed stretch, with no greeting', async () => {
    const team = await inboxTeam();
    await configure(team, {
      hours: neverOpen,
      automations: automations({
        greeting: { enabled: true, text: 'Olá!' },
        outOfHours: { enabled: true, text: 'Estamos fechados agora.' },
      }),
    });
    await customerWrites(team, 'Oi');
    await customerWrites(team, 'Tem alguém?');
    await customerWrites(team, 'Alô');
    expect(await automated(team)).toEqual(['Estamos fechados agora.']);
    expect(await contactOf(team)).toMatchObject({ status: 'pending', unread: 3 });
  });

  it('hands conversations out in turn to online members of the queue, up to the cap each, and leaves the rest waiting', async () => {
    const team = await inboxTeam();
    const tiago = (
      await call('POST', '/users', {
        token: team.owner.token,
        body: { name: 'Tiago', email: `tiago.${Date.now()}@example.com`, password: 'Senha#Forte123', isAdmin: false },
      })
    ).body;
    const suporte = (
      await call('POST', '/departments', { token: team.owner.token, body: { name: 'Suporte', userIds: [team.admin.id, team.member.id, tiago.id] } })
    ).body;
    await call('PUT', `/services/${team.service.id}`, { token: team.owner.token, body: { name: team.service.name, defaultDepartmentId: suporte.id } });
    await configure(team, { hours: alwaysOpen, automations: automations({ roundRobin: { enabled: true, maxOpenPerAgent: 1 } }) });
    // Online: the admin and the member (a realtime socket each, as the web app opens); Tiago is not.
    const sockets = await Promise.all([listen(team.admin.token), listen(team.member.token)]);
    onTestFinished(() => {
      for (const socket of sockets) socket.close();
    });
    const customer = async (name: string) => {
      const stored = await receiveMessage(
        workerPorts(),
        { accountId: team.owner.accountId, serviceId: team.service.id },
        {
          channelMessageId: `wamid-rr-${Date.now()}-${++seq}`,
          chat: { idFromService: `5511977${String(++seq).padStart(6, '0')}@s.whatsapp.net`, name, isGroup: false },
          isFromMe: false,
          type: 'text',
          text: 'Preciso de ajuda',
          timestamp: new Date().toISOString(),
        },
      );
      return (await call('GET', `/contacts/${stored!.contactId}`, { token: team.owner.token })).body;
    };
    const first = await customer('Ana Lima');
    const second = await customer('Bia Rocha');
    const third = await customer('Caio Melo');
    const online = [team.admin.id, team.member.id].sort();
    expect([first.userId, second.userId].sort()).toEqual(online);
    expect(first).toMatchObject({ status: 'open', departmentId: suporte.id });
    // Both online members are at the cap of 1; Tiago is offline: the third waits in the queue.
    expect(third).toMatchObject({ userId: null, status: 'pending', departmentId: suporte.id });
    const firstLines = (await call('GET', `/messages${listQueryString({ where: { contactId: first.id }, perPage: 20 })}`, { token: team.owner.token })).body
      .data;
    expect(firstLines.map((m: any) => m.text)).toContain(`Atribuída a ${first.user.name}`);

    // Nobody could take the third: round-robin asks again a minute later (the timer poller), and
    // until someone has room it keeps asking.
    const retries = async (contactId: string) => {
      const { Items } = await workerPorts().table.doc.send(
        new QueryCommand({
          TableName: workerPorts().table.name,
          KeyConditionExpression: 'pk = :pk AND sk = :sk',
          ExpressionAttributeValues: { ':pk': keys.contactMessages(team.owner.accountId, contactId).pk, ':sk': 'TIMER#round_robin' },
          ConsistentRead: true,
        }),
      );
      return Items ?? [];
    };
    expect(await retries(third.id)).toHaveLength(1);
    await fireDueTimers(later(2 * MINUTE));
    expect((await call('GET', `/contacts/${third.id}`, { token: team.owner.token })).body.userId).toBeNull();
    expect(await retries(third.id)).toHaveLength(1);
    // Resolving the first frees its agent: the next retry hands the third to them.
    await call('POST', `/contacts/${first.id}/status`, { token: team.owner.token, body: { status: 'resolved' } });
    await fireDueTimers(later(4 * MINUTE));
    expect((await call('GET', `/contacts/${third.id}`, { token: team.owner.token })).body).toMatchObject({ userId: first.userId, status: 'open' });
    expect(await retries(third.id)).toEqual([]);
  });

  it('keeps the inbox as it was where no automation is on: no lifecycle, no automated message; reports still count the conversation', async () => {
    const team = await inboxTeam();
    await configure(team, { hours: alwaysOpen, automations: defaultAutomationSettings });
    await customerWrites(team, 'Oi');
    expect(await automated(team)).toEqual([]);
    const item = await getContactItem(workerPorts().table, team.owner.accountId, team.contact.id);
    expect(item?.lifecycle).toBeUndefined();
    expect(item?.status ?? 'open').toBe('open');
    expect(item?.conversationStats).toMatchObject({ firstResponseAt: null });

    // An agent answers (nothing moves: nobody is assigned) and resolves it.
    const reply = await call('POST', '/messages/send', {
      token: team.admin.token,
      body: { contactId: team.contact.id, serviceId: team.service.id, text: 'Olá! Vou verificar.' },
    });
    expect(reply.status).toBe(201);
    expect(await contactOf(team)).toMatchObject({ status: 'open', userId: null });
    expect((await call('POST', `/contacts/${team.contact.id}/status`, { token: team.admin.token, body: { status: 'resolved' } })).status).toBe(200);
    const resolved = await getContactItem(workerPorts().table, team.owner.accountId, team.contact.id);
    expect(resolved?.lifecycle).toBeUndefined();
    expect(resolved?.conversationStats).toMatchObject({ protocol: item!.conversationStats!.protocol, firstResponseAt: expect.any(String) });

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const report = await eventually(async () => {
      const answer = await call('GET', `/reports?from=${today}&to=${today}`, { token: team.owner.token });
      return answer.body.totals?.resolved === 1 ? answer.body : undefined;
    });
    expect(report.totals).toMatchObject({ opened: 1, resolved: 1, firstResponse: { count: 1, median: expect.any(Number) }, resolution: { count: 1 } });
    expect(report.agents.find((a: { id: string }) => a.id === team.admin.id)).toMatchObject({ firstResponse: { count: 1 } });
  });
});
