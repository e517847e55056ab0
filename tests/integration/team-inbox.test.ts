/**
 * The team inbox (docs/product.md#team-inbox) over the shared runtime: departments, tags, conversation status,
 * assignment (with the concurrent take), who sees what, quick replies and internal notes.
 */
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { errorTexts, shownMessage } from '#contracts/errors.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { realtimeEvent } from '#contracts/realtime.ts';
import { getContactItem } from '#db/contacts.ts';
import { receiveMessage } from '#domain/messages/inbound.ts';
import { call, signIn, strongPassword, uniqueEmail } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { listen } from './realtime-client.ts';
import { eventually, fakeChannel, setServiceStatus, workerPorts } from './worker.ts';

type Team = Awaited<ReturnType<typeof inboxTeam>>;
const notFoundBody = { statusCode: 404, error: 'Not Found', message: errorTexts.notFound };
let phones = 0;

async function addMember(team: Team, name: string) {
  const email = uniqueEmail(name.toLowerCase());
  const created = await call('POST', '/users', { token: team.owner.token, body: { name, email, password: strongPassword, isAdmin: false } });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, name, token: await signIn(email, strongPassword) };
}

async function newContact(team: Team, name = 'Cliente') {
  const phoneNumber = `55219${String(Date.now() % 10_000).padStart(4, '0')}${String(++phones).padStart(4, '0')}`;
  const created = await call('POST', '/contacts', {
    token: team.owner.token,
    body: { name, serviceId: team.service.id, data: { phoneNumber, phoneCountry: 'BR' } },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; idFromService: string };
}

async function newDepartment(team: Team, name: string, userIds: string[] = []) {
  const created = await call('POST', '/departments', { token: team.owner.token, body: { name, userIds } });
  expect(created.status).toBe(201);
  return created.body as { id: string; name: string };
}

const messagesOf = async (token: string, contactId: string) =>
  (await call('GET', `/messages${listQueryString({ where: { contactId }, perPage: 50 })}`, { token })).body.data as any[];
const linesOf = async (token: string, contactId: string) =>
  (await messagesOf(token, contactId)).filter((m) => m.kind !== 'message').map((m) => [m.kind, m.text, m.user?.name ?? null]);
const listed = async (token: string, where: Record<string, unknown> = {}) =>
  ((await call('GET', `/contacts${listQueryString({ where, perPage: 100 })}`, { token })).body.data as any[]).map((c) => c.id as string);

describe('departments', () => {
  it('admins create, rename and archive a department and choose its users; members read them', async () => {
    const team = await inboxTeam();
    const created = await newDepartment(team, 'Financeiro', [team.member.id]);
    expect(created).toMatchObject({ name: 'Financeiro', userIds: [team.member.id], archivedAt: null });
    const renamed = await call('PUT', `/departments/${created.id}`, { token: team.admin.token, body: { name: 'Cobrança', userIds: [] } });
    expect(renamed.body).toMatchObject({ name: 'Cobrança', userIds: [] });
    const archived = await call('POST', `/departments/${created.id}/archive`, { token: team.admin.token, body: { archive: true } });
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    const list = await call('GET', '/departments', { token: team.member.token });
    expect(list.body).toMatchObject({ totalCount: 1, data: [{ id: created.id, name: 'Cobrança' }] });
  });

  it('refuses a member creating one, a name already used (whatever the case and accents) and an unknown user', async () => {
    const team = await inboxTeam();
    await newDepartment(team, 'Suporte Técnico');
    expect((await call('POST', '/departments', { token: team.member.token, body: { name: 'Vendas' } })).status).toBe(403);
    const twice = await call('POST', '/departments', { token: team.owner.token, body: { name: 'suporte tecnico' } });
    expect(twice.status).toBe(400);
    expect(twice.body.details).toEqual([{ path: 'name', message: 'Já existe um departamento com este nome' }]);
    const stranger = await call('POST', '/departments', { token: team.owner.token, body: { name: 'Vendas', userIds: ['01NOBODY'] } });
    expect(stranger.body.details).toEqual([{ path: 'userIds.0', message: 'Usuário não encontrado' }]);
    const blank = await call('POST', '/departments', { token: team.owner.token, body: { name: '  ' } });
    expect(blank.body.details).toEqual([{ path: 'name', message: 'Campo obrigatório' }]);
  });

  it("routes a new customer's conversation to its connection's default department, with a system line", async () => {
    const team = await inboxTeam();
    const from = { accountId: team.owner.accountId, serviceId: team.service.id };
    let customers = 0;
    const firstMessage = (text: string) => {
      const idFromService = `55219${String(Date.now() % 10_000_000).padStart(7, '0')}${++customers}@s.whatsapp.net`;
      const input = {
        channelMessageId: `wamid-${Date.now()}-${customers}`,
        chat: { idFromService, name: 'Novo', isGroup: false },
        isFromMe: false,
        type: 'text' as const,
        text,
        timestamp: new Date().toISOString(),
      };
      return { input, received: receiveMessage(workerPorts(), from, input) };
    };

    // No default department: the conversation starts in none, with no line.
    const unrouted = (await firstMessage('Sem departamento').received)!;
    expect((await call('GET', `/contacts/${unrouted.contactId}`, { token: team.owner.token })).body).toMatchObject({ departmentId: null });
    expect(await linesOf(team.owner.token, unrouted.contactId)).toEqual([]);

    const department = await newDepartment(team, 'Atendimento');
    const unknown = await call('PUT', `/services/${team.service.id}`, { token: team.owner.token, body: { name: 'Zap', defaultDepartmentId: '01NOPE' } });
    expect(unknown.body.details).toEqual([{ path: 'defaultDepartmentId', message: 'Departamento não encontrado' }]);
    const updated = await call('PUT', `/services/${team.service.id}`, { token: team.owner.token, body: { name: 'Zap', defaultDepartmentId: department.id } });
    expect(updated.body.defaultDepartmentId).toBe(department.id);
    const first = firstMessage('Oi');
    const stored = (await first.received)!;
    const contact = await call('GET', `/contacts/${stored.contactId}`, { token: team.owner.token });
    expect(contact.body).toMatchObject({
      departmentId: department.id,
      department: { id: department.id, name: 'Atendimento' },
      userId: null,
      status: 'open',
      unread: 1,
      lastMessage: { text: 'Oi' },
    });
    // Newest first: the customer's message, then the line written with the contact, by nobody.
    const newestFirst = await messagesOf(team.owner.token, stored.contactId);
    expect(newestFirst.map((m) => [m.kind, m.text, m.user])).toEqual([
      ['message', 'Oi', null],
      ['system', 'Encaminhada para Atendimento', null],
    ]);
    expect(newestFirst[1]).toMatchObject({ isFromMe: true, ack: 1 });
    // Counted with the message on the stored contact (the API does not show the count).
    expect((await getContactItem(workerPorts().table, from.accountId, stored.contactId))?.messagesCount).toBe(2);
    expect(Date.parse(newestFirst[1].timestamp)).toBeLessThan(Date.parse(newestFirst[0].timestamp));

    // The customer's next message, and a redelivery of the first, add no second line.
    await receiveMessage(workerPorts(), from, { ...first.input });
    await receiveMessage(workerPorts(), from, { ...first.input, channelMessageId: `${first.input.channelMessageId}-2`, text: 'Tem alguém aí?' });
    expect(await linesOf(team.owner.token, stored.contactId)).toEqual([['system', 'Encaminhada para Atendimento', null]]);

    // An archived default department routes nothing: no department, no line.
    await call('POST', `/departments/${department.id}/archive`, { token: team.owner.token, body: { archive: true } });
    const afterArchive = (await firstMessage('Depois do arquivamento').received)!;
    expect((await call('GET', `/contacts/${afterArchive.contactId}`, { token: team.owner.token })).body).toMatchObject({ departmentId: null });
    expect(await linesOf(team.owner.token, afterArchive.contactId)).toEqual([]);
  });
});

describe('tags', () => {
  it('admins keep the palette; anyone tags a contact; the contacts list and the counts filter by tag', async () => {
    const team = await inboxTeam();
    const vip = await call('POST', '/tags', { token: team.admin.token, body: { name: 'VIP', color: '#B91C1C' } });
    expect(vip.body).toMatchObject({ name: 'VIP', color: '#b91c1c' });
    expect((await call('POST', '/tags', { token: team.member.token, body: { name: 'Novo', color: '#000000' } })).status).toBe(403);
    const badColour = await call('POST', '/tags', { token: team.admin.token, body: { name: 'Azul', color: 'azul' } });
    expect(badColour.body.details).toEqual([{ path: 'color', message: 'Escolha uma cor no formato #RRGGBB' }]);
    const other = await newContact(team);
    const tagged = await call('PUT', `/contacts/${team.contact.id}/tags`, { token: team.member.token, body: { tagIds: [vip.body.id, vip.body.id] } });
    expect(tagged.body.tags).toEqual([vip.body.id]);
    expect(await listed(team.member.token, { tags: vip.body.id })).toEqual([team.contact.id]);
    expect(await listed(team.member.token, { tags: { ne: vip.body.id } })).toEqual([other.id]);
    const counts = await call('GET', `/inbox/counts${listQueryString({ where: { tags: vip.body.id } })}`, { token: team.member.token });
    expect(counts.body.all).toEqual({ total: 1, open: 1, pending: 0, resolved: 0 });
    const unknown = await call('PUT', `/contacts/${team.contact.id}/tags`, { token: team.member.token, body: { tagIds: ['01NOPE'] } });
    expect(unknown.body.details).toEqual([{ path: 'tagIds.0', message: 'Etiqueta não encontrada' }]);
    const untagged = await call('PUT', `/contacts/${team.contact.id}/tags`, { token: team.member.token, body: { tagIds: [] } });
    expect(untagged.body.tags).toEqual([]);
  });
  it('people tagging the same contact at once all succeed, and the last set written is the one kept', async () => {
    const team = await inboxTeam();
    const palette = await Promise.all(
      ['VIP', 'Atacado', 'Novo', 'Retorno'].map((name) => call('POST', '/tags', { token: team.admin.token, body: { name, color: '#047857' } })),
    );
    const sets = palette.map((tag) => [tag.body.id as string]);
    const callers = [team.owner, team.admin, team.member, team.owner];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        sets.map((tagIds, i) => call('PUT', `/contacts/${team.contact.id}/tags`, { token: callers[i]!.token, body: { tagIds } })),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      const kept = (await call('GET', `/contacts/${team.contact.id}`, { token: team.owner.token })).body.tags;
      const latest = answers
        .map((a) => a.body)
        .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))
        .at(-1);
      expect(kept).toEqual(latest.tags);
    }
  });
});

describe('assignment', () => {
  it('two members taking the same conversation at once: one owns it, the other no longer sees it and gets 404, nothing about the winner', async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    const bruno = await addMember(team, 'Bruno');
    for (let round = 0; round < 4; round++) {
      const contact = await newContact(team);
      const answers = await Promise.all([ana, bruno].map((who) => call('POST', `/contacts/${contact.id}/take`, { token: who.token })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
      const won = answers.find((a) => a.status === 200)!.body;
      const winner = won.userId === ana.id ? ana : bruno;
      const loser = winner === ana ? bruno : ana;
      expect(won.user).toEqual({ id: winner.id, name: winner.name });
      // Members see their own and their queues' conversations: the winner's is hidden from the loser now.
      expect((await call('GET', `/contacts/${contact.id}`, { token: loser.token })).status).toBe(404);
      expect(answers.find((a) => a.status === 404)!.body).toEqual(notFoundBody);
      expect(await linesOf(team.owner.token, contact.id)).toEqual([['system', `${winner.name} assumiu a conversa`, winner.name]]);
    }
  });

  it("with 'membersSeeAll', the loser still sees the conversation and gets 409 naming the winner, in pt-BR", async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    const bruno = await addMember(team, 'Bruno');
    expect((await call('PUT', '/inbox/settings', { token: team.owner.token, body: { membersSeeAll: true } })).status).toBe(200);
    for (let round = 0; round < 2; round++) {
      const contact = await newContact(team);
      const answers = await Promise.all([ana, bruno].map((who) => call('POST', `/contacts/${contact.id}/take`, { token: who.token })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const won = answers.find((a) => a.status === 200)!.body;
      const lost = answers.find((a) => a.status === 409)!.body;
      const winner = won.userId === ana.id ? ana : bruno;
      expect(lost).toMatchObject({ statusCode: 409, error: 'Conflict', message: errorTexts.conversationTaken });
      expect(lost.details).toEqual([{ path: 'userId', message: `${winner.name} já atende esta conversa` }]);
      expect(shownMessage(lost.message)).toBe('Outra pessoa já assumiu esta conversa. Atualize a lista para ver quem a atende.');
      expect(await linesOf(team.owner.token, contact.id)).toEqual([['system', `${winner.name} assumiu a conversa`, winner.name]]);
    }
  });

  it('take, transfer to a department with a note, release: each a system line, the note an internal one', async () => {
    const team = await inboxTeam();
    const finance = await newDepartment(team, 'Financeiro', [team.member.id]);
    const contact = team.contact.id;
    expect((await call('POST', `/contacts/${contact}/take`, { token: team.member.token })).body.userId).toBe(team.member.id);
    // Taking again changes nothing.
    expect((await call('POST', `/contacts/${contact}/take`, { token: team.member.token })).status).toBe(200);
    const moved = await call('POST', `/contacts/${contact}/transfer`, {
      token: team.member.token,
      body: { departmentId: finance.id, note: 'Cliente pediu segunda via do boleto' },
    });
    expect(moved.body).toMatchObject({ userId: null, user: null, departmentId: finance.id, department: { id: finance.id, name: 'Financeiro' } });
    const toAdmin = await call('POST', `/contacts/${contact}/transfer`, { token: team.owner.token, body: { userId: team.admin.id } });
    expect(toAdmin.body).toMatchObject({ userId: team.admin.id, departmentId: finance.id });
    expect((await call('POST', `/contacts/${contact}/release`, { token: team.admin.token })).body.userId).toBeNull();
    expect((await linesOf(team.owner.token, contact)).reverse()).toEqual([
      ['system', 'Membro assumiu a conversa', 'Membro'],
      ['system', 'Transferida para Financeiro', 'Membro'],
      ['note', 'Cliente pediu segunda via do boleto', 'Membro'],
      ['system', 'Transferida para Admin', 'Dona Teste'],
      ['system', 'Admin liberou a conversa', 'Admin'],
    ]);
  });

  it("a member cannot transfer, release or resolve someone else's conversation; an admin reassigns it", async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    expect((await call('PUT', '/inbox/settings', { token: team.owner.token, body: { membersSeeAll: true } })).body).toEqual({ membersSeeAll: true });
    expect((await call('POST', `/contacts/${team.contact.id}/take`, { token: ana.token })).status).toBe(200);
    for (const [path, body] of [
      ['transfer', { userId: team.member.id }],
      ['release', undefined],
      ['status', { status: 'resolved' }],
    ] as const) {
      const answer = await call('POST', `/contacts/${team.contact.id}/${path}`, { token: team.member.token, body });
      expect(answer.status, path).toBe(409);
    }
    const reassigned = await call('POST', `/contacts/${team.contact.id}/transfer`, { token: team.admin.token, body: { userId: team.member.id } });
    expect(reassigned.body.userId).toBe(team.member.id);
  });

  it('reaches browsers live: contact.UPDATED with the owner and status, message.CREATED for the system line', async () => {
    const team = await inboxTeam();
    const log = await listen(team.owner.token);
    try {
      await call('POST', `/contacts/${team.contact.id}/take`, { token: team.member.token });
      const updated = await log.waitFor((e) => e.event === 'contact.UPDATED' && e.data.id === team.contact.id && e.data.userId === team.member.id, 10_000);
      expect(updated.data).toMatchObject({ user: { id: team.member.id, name: 'Membro' }, status: 'open' });
      const line = await log.waitFor((e) => e.event === 'message.CREATED' && e.data.contactId === team.contact.id, 10_000);
      expect(line.data).toMatchObject({ kind: 'system', text: 'Membro assumiu a conversa' });
      expect(log.events.filter((e) => !realtimeEvent.safeParse(e).success)).toEqual([]);
    } finally {
      log.close();
    }
  });

  it('refuses a transfer to nobody, to an archived department or to an unknown user', async () => {
    const team = await inboxTeam();
    const old = await newDepartment(team, 'Antigo');
    await call('POST', `/departments/${old.id}/archive`, { token: team.owner.token, body: { archive: true } });
    const nobody = await call('POST', `/contacts/${team.contact.id}/transfer`, { token: team.owner.token, body: {} });
    expect(nobody.body.details).toEqual([{ path: 'userId', message: 'Escolha um usuário ou um departamento' }]);
    const archived = await call('POST', `/contacts/${team.contact.id}/transfer`, { token: team.owner.token, body: { departmentId: old.id, userId: '01NOPE' } });
    expect(archived.body.details).toEqual([
      { path: 'userId', message: 'Usuário não encontrado' },
      { path: 'departmentId', message: 'Departamento não encontrado' },
    ]);
  });
});

describe('who sees which conversation', () => {
  it("a member sees theirs, their departments' unassigned ones and the general queue; with the setting, all", async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    const finance = await newDepartment(team, 'Financeiro', [team.member.id]);
    const sales = await newDepartment(team, 'Vendas', [ana.id]);
    const general = team.contact.id;
    const inFinance = (await newContact(team)).id;
    const inSales = (await newContact(team)).id;
    const anas = (await newContact(team)).id;
    const mine = (await newContact(team)).id;
    for (const [id, departmentId] of [
      [inFinance, finance.id],
      [inSales, sales.id],
    ]) {
      expect((await call('POST', `/contacts/${id}/transfer`, { token: team.owner.token, body: { departmentId } })).status).toBe(200);
    }
    expect((await call('POST', `/contacts/${anas}/transfer`, { token: team.owner.token, body: { userId: ana.id } })).status).toBe(200);
    expect((await call('POST', `/contacts/${mine}/take`, { token: team.member.token })).status).toBe(200);

    expect((await listed(team.member.token)).sort()).toEqual([general, inFinance, mine].sort());
    expect((await listed(team.owner.token)).length).toBe(5);
    for (const hidden of [inSales, anas]) {
      expect((await call('GET', `/contacts/${hidden}`, { token: team.member.token })).status).toBe(404);
      expect((await call('GET', `/messages${listQueryString({ where: { contactId: hidden } })}`, { token: team.member.token })).status).toBe(404);
      const send = await call('POST', '/messages/send', { token: team.member.token, body: { contactId: hidden, serviceId: team.service.id, text: 'Oi' } });
      expect(send.status).toBe(404);
      // Hidden: 404 like the read, nothing said about who has it (Ana's would be in the member's queue unassigned).
      expect(await call('POST', `/contacts/${hidden}/take`, { token: team.member.token })).toMatchObject({ status: 404, body: notFoundBody });
      expect((await call('POST', '/messages/notes', { token: team.member.token, body: { contactId: hidden, text: 'x' } })).status).toBe(404);
    }
    const counts = (await call('GET', '/inbox/counts', { token: team.member.token })).body;
    expect(counts).toEqual({
      mine: { total: 1, open: 1, pending: 0, resolved: 0 },
      unassigned: { total: 2, open: 2, pending: 0, resolved: 0 },
      all: { total: 3, open: 3, pending: 0, resolved: 0 },
    });

    expect((await call('PUT', '/inbox/settings', { token: team.member.token, body: { membersSeeAll: true } })).status).toBe(403);
    expect((await call('PUT', '/inbox/settings', { token: team.admin.token, body: { membersSeeAll: true } })).status).toBe(200);
    expect((await call('GET', '/inbox/settings', { token: team.member.token })).body).toEqual({ membersSeeAll: true });
    expect((await listed(team.member.token)).length).toBe(5);
    expect((await call('GET', `/contacts/${anas}`, { token: team.member.token })).status).toBe(200);
  });

  it('every change to a hidden conversation answers exactly as an unknown id does, and changes nothing', async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    const sales = await newDepartment(team, 'Vendas', [ana.id]);
    const finance = await newDepartment(team, 'Financeiro', [team.member.id]);
    const anasInGeneral = (await newContact(team)).id;
    const anasInFinance = (await newContact(team)).id;
    const inSales = (await newContact(team)).id;
    expect((await call('POST', `/contacts/${anasInGeneral}/transfer`, { token: team.owner.token, body: { userId: ana.id } })).status).toBe(200);
    expect(
      (await call('POST', `/contacts/${anasInFinance}/transfer`, { token: team.owner.token, body: { userId: ana.id, departmentId: finance.id } })).status,
    ).toBe(200);
    expect((await call('POST', `/contacts/${inSales}/transfer`, { token: team.owner.token, body: { departmentId: sales.id } })).status).toBe(200);
    const hidden = [anasInGeneral, anasInFinance, inSales];
    const before = await Promise.all(hidden.map((id) => linesOf(team.owner.token, id)));
    const changes = [
      ['take', undefined],
      ['transfer', { userId: team.member.id }],
      ['transfer', { departmentId: finance.id }],
      ['transfer', { userId: '01NOPE' }],
      ['release', undefined],
      ['status', { status: 'resolved' }],
    ] as const;
    for (const [path, body] of changes) {
      const unknown = await call('POST', `/contacts/${ulid()}/${path}`, { token: team.member.token, body });
      expect(unknown, path).toMatchObject({ status: 404, body: notFoundBody });
      for (const id of hidden) {
        const answer = await call('POST', `/contacts/${id}/${path}`, { token: team.member.token, body });
        expect({ status: answer.status, body: answer.body }, `${path} ${id}`).toEqual({ status: unknown.status, body: unknown.body });
      }
    }
    expect(await Promise.all(hidden.map((id) => linesOf(team.owner.token, id)))).toEqual(before);
  });
});

describe('conversation status', () => {
  it('changes with a system line, counts per status, and a customer message reopens a resolved one', async () => {
    const team = await inboxTeam();
    const contact = team.contact as { id: string; idFromService: string };
    const bad = await call('POST', `/contacts/${contact.id}/status`, { token: team.member.token, body: { status: 'closed' } });
    expect(bad.body.details).toEqual([{ path: 'status', message: 'Escolha aberta, pendente ou resolvida' }]);
    expect((await call('POST', `/contacts/${contact.id}/status`, { token: team.member.token, body: { status: 'pending' } })).body.status).toBe('pending');
    expect((await call('POST', `/contacts/${contact.id}/status`, { token: team.member.token, body: { status: 'resolved' } })).body.status).toBe('resolved');
    expect(await listed(team.member.token, { status: 'resolved' })).toEqual([contact.id]);
    const counts = (await call('GET', '/inbox/counts', { token: team.member.token })).body;
    expect(counts.all).toEqual({ total: 1, open: 0, pending: 0, resolved: 1 });

    await receiveMessage(
      workerPorts(),
      { accountId: team.owner.accountId, serviceId: team.service.id },
      {
        channelMessageId: `wamid-reopen-${Date.now()}`,
        chat: { idFromService: contact.idFromService, name: 'Cliente Zap', isGroup: false },
        isFromMe: false,
        type: 'text',
        text: 'Voltei, ainda com problema',
        timestamp: new Date().toISOString(),
      },
    );
    const reopened = (await call('GET', `/contacts/${contact.id}`, { token: team.member.token })).body;
    expect(reopened).toMatchObject({ status: 'open', unread: 1, lastMessage: { text: 'Voltei, ainda com problema' } });
    const newestFirst = (await messagesOf(team.member.token, contact.id)).map((m) => [m.kind, m.text]);
    expect(newestFirst).toEqual([
      ['message', 'Voltei, ainda com problema'],
      ['system', 'Conversa reaberta por nova mensagem do cliente'],
      ['system', 'Membro marcou a conversa como resolvida'],
      ['system', 'Membro marcou a conversa como pendente'],
    ]);
  });
});

describe('quick replies', () => {
  it('admins keep them, shortcuts are unique, and anyone fills one for a contact with its variables', async () => {
    const team = await inboxTeam();
    const created = await call('POST', '/quick-replies', {
      token: team.admin.token,
      body: { shortcut: '/Saudacao', text: 'Olá {{primeiro_nome}}, aqui é {{atendente}}. Pedido {{pedido}}; telefone {{ telefone }}.' },
    });
    expect(created.status).toBe(201);
    expect(created.body.shortcut).toBe('saudacao');
    const twice = await call('POST', '/quick-replies', { token: team.admin.token, body: { shortcut: 'saudacao', text: 'Outra' } });
    expect(twice.body.details).toEqual([{ path: 'shortcut', message: 'Já existe uma resposta rápida com este atalho' }]);
    expect((await call('POST', '/quick-replies', { token: team.member.token, body: { shortcut: 'x', text: 'y' } })).status).toBe(403);
    const list = await call('GET', `/quick-replies${listQueryString({ where: { shortcut: { like: 'sau%' } } })}`, { token: team.member.token });
    expect(list.body).toMatchObject({ totalCount: 1, data: [{ id: created.body.id }] });

    const contact = (await call('GET', `/contacts/${team.contact.id}`, { token: team.member.token })).body;
    const filled = await call('POST', `/quick-replies/${created.body.id}/render`, { token: team.member.token, body: { contactId: team.contact.id } });
    expect(filled.body).toEqual({ text: `Olá Cliente, aqui é Membro. Pedido {{pedido}}; telefone ${contact.data.phoneNumber}.` });

    const ana = await addMember(team, 'Ana');
    const hidden = (await newContact(team)).id;
    await call('POST', `/contacts/${hidden}/transfer`, { token: team.owner.token, body: { userId: ana.id } });
    expect((await call('POST', `/quick-replies/${created.body.id}/render`, { token: team.member.token, body: { contactId: hidden } })).status).toBe(404);

    const renamed = await call('PUT', `/quick-replies/${created.body.id}`, { token: team.admin.token, body: { shortcut: 'oi', text: 'Oi!' } });
    expect(renamed.body).toMatchObject({ shortcut: 'oi', text: 'Oi!' });
    // The old shortcut is free again.
    expect((await call('POST', '/quick-replies', { token: team.admin.token, body: { shortcut: 'saudacao', text: 'De novo' } })).status).toBe(201);
    expect((await call('DELETE', `/quick-replies/${created.body.id}`, { token: team.admin.token })).status).toBe(204);
  });
});

describe('internal notes', () => {
  it('are listed in the conversation for the team, never handed to the channel, and leave the preview alone', async () => {
    const team = await inboxTeam();
    const contact = team.contact as { id: string; idFromService: string; serviceId: string };
    const note = await call('POST', '/messages/notes', { token: team.member.token, body: { contactId: contact.id, text: 'Não oferecer desconto' } });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ kind: 'note', text: 'Não oferecer desconto', user: { id: team.member.id, name: 'Membro' } });
    const empty = await call('POST', '/messages/notes', { token: team.member.token, body: { contactId: contact.id, text: '   ' } });
    expect(empty.body.details).toEqual([{ path: 'text', message: 'A nota está vazia' }]);
    await call('POST', '/messages/send', { token: team.member.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Depois da nota' } });
    await eventually(async () => (await fakeChannel.sent()).some((s) => s.message.to === contact.idFromService && s.message.text === 'Depois da nota'));
    const toContact = (await fakeChannel.sent()).filter((s) => s.message.to === contact.idFromService).map((s) => s.message.text);
    expect(toContact).toEqual(['Depois da nota']);
    const after = (await call('GET', `/contacts/${contact.id}`, { token: team.member.token })).body;
    expect(after.lastMessage.text).toBe('Depois da nota');
  });

  it('are written where nothing reaches the customer: a disconnected connection, an archived contact', async () => {
    const team = await inboxTeam();
    const contact = team.contact as { id: string; idFromService: string; serviceId: string };
    await setServiceStatus(team.owner.accountId, team.service.id, 'disconnected');
    const offline = await call('POST', '/messages/notes', { token: team.member.token, body: { contactId: contact.id, text: 'Ligar quando voltar' } });
    expect(offline.status).toBe(201);
    expect(offline.body).toMatchObject({ kind: 'note', text: 'Ligar quando voltar' });
    // Sending to the customer stays refused there.
    const send = await call('POST', '/messages/send', { token: team.member.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Oi' } });
    expect(send.status).toBeGreaterThanOrEqual(400);
    await setServiceStatus(team.owner.accountId, team.service.id, 'connected');
    expect((await call('POST', `/contacts/${contact.id}/archive`, { token: team.owner.token, body: { archive: true } })).status).toBe(200);
    const archived = await call('POST', '/messages/notes', { token: team.member.token, body: { contactId: contact.id, text: 'Arquivado por engano?' } });
    expect(archived.status).toBe(201);
    expect(await linesOf(team.member.token, contact.id)).toEqual([
      ['note', 'Arquivado por engano?', 'Membro'],
      ['note', 'Ligar quando voltar', 'Membro'],
    ]);
    expect((await fakeChannel.sent()).filter((s) => s.message.to === contact.idFromService)).toEqual([]);
  });
});
