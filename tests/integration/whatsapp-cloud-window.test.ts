/**
 * The WhatsApp (API oficial) 24-hour customer-service window over HTTP, against a local runtime of
 * the file's own whose clock the test moves (the runtime's ports are this process's), with the Graph
 * API double standing in for Meta (its own clock, moved apart from ours for the race): a customer's
 * message opens the window (the contact answers `lastInboundAt`, on GET and on its realtime event),
 * free text goes until 24 hours later and is refused with a 400 after, before anything is stored or
 * reaches Meta; a retry of a failed message is refused the same; Meta's 131047 when its clock
 * disagrees still fails the message with the window's reason; a new message opens it again. And
 * the automations on such a number: the greeting, the menu as reply buttons, and the button the
 * customer taps routing by its id; the lifecycle's timers ('no one answered', round-robin's retry)
 * fired on a moved clock, round-robin handing the conversation to the member who came online, and
 * the rating question as a list whose row the customer taps.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { customerWindowMs } from '#contracts/customer-window.ts';
import { errorTexts, shownMessage } from '#contracts/errors.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { cloudErrorMeaning } from '#connectors/whatsapp-cloud/errors.ts';
import { fireDueTimers } from '#domain/automations/fire-timers.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { strongPassword, uniqueEmail } from './api.ts';
import { cloudGraphWorld } from './cloud-graph-world.ts';
import { eventually } from './worker.ts';

const APP_SECRET = 'abcdef0123456789abcdef0123456789';
const CUSTOMER = { waId: '5511955554444', name: 'Rita Moraes' };
/** Whole seconds: Meta's message timestamps are. */
const START = Math.floor(Date.now() / 1000) * 1000;

const world = cloudGraphWorld('conversa-cloud-window-', { appSecret: APP_SECRET, start: START });
const { own, serverClockAt } = world;
const call = own.call;

/** A realtime link of the session, collecting its events. */
async function listen(token: string) {
  const ws = new WebSocket(await realtimeUrl(own.runtime().url, token));
  const events: { event: string; data: any }[] = [];
  ws.on('message', (data) => events.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { events, close: () => ws.close() };
}

async function newLine() {
  const person = await call('POST', '/auth/register', { body: { name: 'Dono da Ótica', email: uniqueEmail('cloudwindow'), password: strongPassword } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Ótica' } });
  const token = account.body.accessToken as string;
  const accessToken = `EAAGwindow${Date.now()}`;
  world.fake().addToken(accessToken);
  const number = world.fake().addNumber({ displayPhoneNumber: '+55 11 3555-0000', verifiedName: 'Ótica Visão' });
  const created = await call('POST', '/services', {
    token,
    body: { name: 'Oficial', type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
  });
  expect(created.status).toBe(201);
  expect((await call('POST', `/services/${created.body.id}/start`, { token })).status).toBe(200);
  return { token, number, serviceId: created.body.id as string, url: `${own.runtime().url}${created.body.webhook.path}` };
}

describe('the WhatsApp (API oficial) 24-hour window', () => {
  it('lets free text go for 24 hours after the customer wrote, refuses it after, and opens again when they write', async () => {
    serverClockAt(START);
    const line = await newLine();
    let socket = await listen(line.token);

    const inbound = async (text: string) => {
      const { payload } = world.fake().inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: text });
      const [d] = await world.fake().deliver(payload, { url: line.url });
      expect(d!.status).toBe(204);
    };
    await inbound('Meus óculos ficaram prontos?');
    const contact = await eventually(async () => (await call('GET', '/contacts', { token: line.token })).body.data[0]);
    expect(contact).toMatchObject({ service: { type: 'whatsapp_cloud' } });
    // Meta's second of the message (the inbox keeps the arrival's milliseconds within it).
    const firstWrote = contact.lastInboundAt as string;
    expect(Math.floor(Date.parse(firstWrote) / 1000) * 1000).toBe(START);
    const wrote = Date.parse(firstWrote);
    expect((await call('GET', `/contacts/${contact.id}`, { token: line.token })).body.lastInboundAt).toBe(firstWrote);
    await eventually(async () => socket.events.find((e) => e.event.startsWith('contact.') && e.data.lastInboundAt === firstWrote));

    const send = (text: string) => call('POST', '/messages/send', { token: line.token, body: { contactId: contact.id, serviceId: line.serviceId, text } });
    const messages = async () =>
      (await call('GET', `/messages${listQueryString({ where: { contactId: contact.id }, perPage: 50 })}`, { token: line.token })).body.data as any[];
    const sentToMeta = () => world.fake().sent.filter((s) => s.body.type === 'text').length;

    // 23:59 after the customer wrote: open, the text reaches Meta.
    serverClockAt(wrote + customerWindowMs - 60_000);
    world.fake().setNow(START + customerWindowMs - 60_000);
    const open = await send('Sim, pode buscar hoje!');
    expect(open.status).toBe(201);
    await eventually(async () => (await messages()).find((m) => m.id === open.body.id)?.ack === 1);
    expect(sentToMeta()).toBe(1);

    // 24:00:01 after: refused before anything is stored or queued.
    serverClockAt(wrote + customerWindowMs + 1000);
    const before = (await messages()).length;
    const closed = await send('Ainda está aí?');
    expect(closed.status).toBe(400);
    expect(closed.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: errorTexts.customerWindowClosed });
    expect(shownMessage(closed.body.message)).toMatch(/^A janela de 24 horas do WhatsApp fechou/);
    await new Promise((r) => setTimeout(r, 300));
    expect((await messages()).length).toBe(before);
    expect(sentToMeta()).toBe(1);

    // The race: our clock still inside the window, Meta's past it: 131047 fails the message with its reason.
    serverClockAt(wrote + customerWindowMs - 2000);
    world.fake().setNow(START + customerWindowMs + 5000);
    const raced = await send('Última mensagem');
    expect(raced.status).toBe(201);
    const failed = await eventually(async () => {
      const m = (await messages()).find((x) => x.id === raced.body.id);
      return m?.ack === -2 ? m : undefined;
    });
    expect(failed.error).toBe(cloudErrorMeaning(131047).text);
    // Its retry once our clock is past the window too: refused, left failed.
    serverClockAt(wrote + customerWindowMs + 1000);
    const retry = await call('POST', `/messages/${raced.body.id}/retry`, { token: line.token, body: { contactId: contact.id } });
    expect(retry.status).toBe(400);
    expect(retry.body.message).toBe(errorTexts.customerWindowClosed);
    expect((await messages()).find((x) => x.id === raced.body.id)?.ack).toBe(-2);

    // The customer writes again (25 hours after the first message): open again, said on the realtime link.
    const again = START + customerWindowMs + 3_600_000;
    world.fake().setNow(again);
    serverClockAt(again + 5000);
    // A link opened at the server's new time (a socket's session is dated by the server's clock).
    socket.close();
    socket = await listen(line.token);
    await inbound('Vou passar aí amanhã');
    const reopened = await eventually(async () =>
      socket.events.find((e) => e.event === 'contact.UPDATED' && e.data.id === contact.id && Date.parse(e.data.lastInboundAt) >= again),
    );
    expect(Math.floor(Date.parse(reopened.data.lastInboundAt) / 1000) * 1000).toBe(again);
    const reply = await send('Combinado!');
    expect(reply.status).toBe(201);
    await eventually(async () => (await messages()).find((m) => m.id === reply.body.id)?.ack === 1);
    socket.close();
  }, 60_000);

  it('refuses free text to a customer who never wrote on the number', async () => {
    serverClockAt(Date.now());
    const line = await newLine();
    const made = await call('POST', '/contacts', {
      token: line.token,
      body: { name: 'Paulo Reis', serviceId: line.serviceId, data: { phoneNumber: '5511944443333', phoneCountry: 'BR' } },
    });
    expect(made.status).toBe(201);
    expect(made.body.lastInboundAt).toBeNull();
    const sent = await call('POST', '/messages/send', { token: line.token, body: { contactId: made.body.id, serviceId: line.serviceId, text: 'Olá!' } });
    console.log('SENT', sent.status, JSON.stringify(sent.body));
    expect(sent.status).toBe(400);
    expect(sent.body.message).toBe(errorTexts.customerWindowClosed);
  }, 60_000);
});

describe('automations on a WhatsApp (API oficial) number', () => {
  it('sends the menu as reply buttons and routes by the button the customer taps (its id, whatever its label)', async () => {
    serverClockAt(START);
    world.fake().setNow(START);
    const line = await newLine();
    const financeiro = (await call('POST', '/departments', { token: line.token, body: { name: 'Financeiro' } })).body;
    const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' }));
    expect((await call('PUT', '/business-hours', { token: line.token, body: { shifts: everyDay } })).status).toBe(200);
    const defaults = (await call('GET', '/automations', { token: line.token })).body;
    const { saved: _saved, updatedAt: _updatedAt, ...settings } = defaults;
    const greeting = { enabled: true, text: 'Olá, {{primeiro_nome}}!' };
    expect((await call('PUT', '/automations', { token: line.token, body: { ...settings, greeting } })).status).toBe(200);
    const menuText = 'Como podemos ajudar?';
    const menu = await call('PUT', `/services/${line.serviceId}/menu`, {
      token: line.token,
      body: {
        enabled: true,
        menus: [
          {
            id: 'inicio',
            text: menuText,
            options: [
              { key: '1', label: 'Financeiro', action: { kind: 'department', departmentId: financeiro.id } },
              { key: '2', label: 'Endereço', action: { kind: 'answer', text: 'Av. Paulista, 1000.' } },
            ],
          },
        ],
        invalidText: 'Opção inválida.',
        maxInvalid: 3,
        timeoutMinutes: 30,
        timeoutDepartmentId: null,
      },
    });
    expect(menu.status).toBe(200);

    const [hello] = await world
      .fake()
      .deliver(world.fake().inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Oi' }).payload, { url: line.url });
    expect(hello!.status).toBe(204);
    const toCustomer = () => world.fake().accepted.filter((s) => s.phoneNumberId === line.number.phoneNumberId && s.body.to === CUSTOMER.waId);
    const buttons = await eventually(async () => toCustomer().find((s) => s.body.type === 'interactive'), 10_000);
    expect(toCustomer().find((s) => s.body.type === 'text')?.body.text.body).toBe('Olá, Rita!');
    expect(buttons.body.interactive).toEqual({
      type: 'button',
      body: { text: `${menuText}\n\n1 - Financeiro\n2 - Endereço` },
      action: {
        buttons: [
          { type: 'reply', reply: { id: '1', title: 'Financeiro' } },
          { type: 'reply', reply: { id: '2', title: 'Endereço' } },
        ],
      },
    });

    // The customer taps 'Financeiro': its id '1' routes the conversation, its title is what the thread shows.
    const tap = world
      .fake()
      .inbound(
        line.number.phoneNumberId,
        CUSTOMER,
        { type: 'button_reply', id: '1', title: 'Financeiro' },
        { context: { from: line.number.displayPhoneNumber, id: buttons.id! } },
      );
    const [tapped] = await world.fake().deliver(tap.payload, { url: line.url });
    expect(tapped!.status).toBe(204);
    const contacts = await call('GET', '/contacts', { token: line.token });
    const contact = contacts.body.data.find((c: { name: string }) => c.name === CUSTOMER.name);
    await eventually(async () => (await call('GET', `/contacts/${contact.id}`, { token: line.token })).body.departmentId === financeiro.id, 10_000);
    const thread = (await call('GET', `/messages${listQueryString({ where: { contactId: contact.id }, perPage: 50 })}`, { token: line.token })).body.data;
    expect(thread.map((m: { text: string }) => m.text)).toEqual(expect.arrayContaining(['Financeiro', 'Encaminhada para Financeiro']));
  });

  it("fires 'no one answered' and round-robin's retry on a moved clock, hands the conversation to who came online, and asks the rating as a list", async () => {
    const MINUTE = 60_000;
    const at = (ms: number) => {
      serverClockAt(START + ms);
      world.fake().setNow(START + ms);
    };
    at(0);
    const line = await newLine();
    const me = (await call('GET', '/auth/me', { token: line.token })).body.user as { id: string };
    const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' }));
    expect((await call('PUT', '/business-hours', { token: line.token, body: { shifts: everyDay } })).status).toBe(200);
    const { saved: _saved, updatedAt: _updatedAt, ...defaults } = (await call('GET', '/automations', { token: line.token })).body;
    const notice = 'Ainda estamos por aqui: já já alguém responde.';
    const automations = {
      ...defaults,
      noAnswer: { enabled: true, minutes: 5, text: notice },
      rating: { enabled: true, question: 'De 1 a 5, como foi o atendimento?', thanks: 'Obrigado pela avaliação, {{primeiro_nome}}!' },
      roundRobin: { enabled: true, maxOpenPerAgent: 1 },
    };
    expect((await call('PUT', '/automations', { token: line.token, body: automations })).status).toBe(200);
    const toCustomer = () => world.fake().accepted.filter((s) => s.phoneNumberId === line.number.phoneNumberId && s.body.to === CUSTOMER.waId);
    const texts = () => toCustomer().flatMap((s) => (s.body.type === 'text' ? [s.body.text.body as string] : []));

    // Nobody is online: the conversation waits in the queue.
    const [hello] = await world
      .fake()
      .deliver(world.fake().inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Oi' }).payload, { url: line.url });
    expect(hello!.status).toBe(204);
    const contact = await eventually(async () => (await call('GET', '/contacts', { token: line.token })).body.data[0]);
    const contactNow = async () => (await call('GET', `/contacts/${contact.id}`, { token: line.token })).body;
    expect(await contactNow()).toMatchObject({ userId: null, status: 'pending' });

    // Six minutes on: 'no one answered' goes to the customer, and round-robin's retry still finds nobody.
    at(6 * MINUTE);
    await fireDueTimers(own.ports());
    await eventually(async () => texts().includes(notice), 10_000);
    expect((await contactNow()).userId).toBeNull();

    // The owner opens the inbox: the next retry hands the conversation to them.
    const socket = await listen(line.token);
    try {
      at(8 * MINUTE);
      await fireDueTimers(own.ports());
      expect(await eventually(async () => ((await contactNow()).userId ? contactNow() : undefined), 10_000)).toMatchObject({ userId: me.id, status: 'open' });

      // Resolved: the rating question goes as a list of the five scores; the customer taps one.
      expect((await call('POST', `/contacts/${contact.id}/status`, { token: line.token, body: { status: 'resolved' } })).status).toBe(200);
      const question = await eventually(async () => toCustomer().find((s) => s.body.type === 'interactive' && s.body.interactive.type === 'list'), 10_000);
      expect(question.body.interactive.body.text).toContain('De 1 a 5, como foi o atendimento?');
      expect(question.body.interactive.action.sections[0].rows.map((r: { id: string }) => r.id)).toEqual(['5', '4', '3', '2', '1']);
      const tap = world
        .fake()
        .inbound(
          line.number.phoneNumberId,
          CUSTOMER,
          { type: 'list_reply', id: '5', title: '5 - Excelente' },
          { context: { from: line.number.displayPhoneNumber, id: question.id! } },
        );
      const [tapped] = await world.fake().deliver(tap.payload, { url: line.url });
      expect(tapped!.status).toBe(204);
      await eventually(async () => texts().includes('Obrigado pela avaliação, Rita!'), 10_000);
      // The score does not reopen the conversation.
      expect((await contactNow()).status).toBe('resolved');
    } finally {
      socket.close();
    }
  });
});
