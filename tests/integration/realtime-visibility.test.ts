/**
 * Realtime events follow conversation visibility (docs/product.md#team-inbox): a member's socket gets no note, message
 * or contact update of a conversation the member may not see over HTTP (404 there), gets those of
 * their own, and gets one last contact.UPDATED of a conversation moved away from them; an admin's
 * socket gets everything. Account-level events still reach every socket.
 */
import { describe, expect, it } from 'vitest';
import { call, signIn, strongPassword, uniqueEmail } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { listen } from './realtime-client.ts';

type Team = Awaited<ReturnType<typeof inboxTeam>>;
let phones = 0;

async function addMember(team: Team, name: string) {
  const email = uniqueEmail(name.toLowerCase());
  const created = await call('POST', '/users', { token: team.owner.token, body: { name, email, password: strongPassword, isAdmin: false } });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, token: await signIn(email, strongPassword) };
}

async function newContact(team: Team, name: string): Promise<string> {
  const phoneNumber = `55218${String(Date.now() % 10_000).padStart(4, '0')}${String(++phones).padStart(4, '0')}`;
  const created = await call('POST', '/contacts', {
    token: team.owner.token,
    body: { name, serviceId: team.service.id, data: { phoneNumber, phoneCountry: 'BR' } },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function post(path: string, token: string, body?: unknown) {
  const answer = await call('POST', path, { token, body });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

const rename = async (team: Team, id: string, name: string) => {
  const answer = await call('PUT', `/contacts/${id}`, { token: team.admin.token, body: { name, serviceId: team.service.id } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};

describe('realtime events follow conversation visibility', () => {
  it("a member's socket gets their conversations' notes and updates, not another member's outside their departments; an admin's gets all", async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    const sales = await post('/departments', team.owner.token, { name: 'Vendas', userIds: [ana.id] });
    await post('/departments', team.owner.token, { name: 'Financeiro', userIds: [team.member.id] });
    const anas = await newContact(team, 'Cliente da Ana');
    const salesQueue = await newContact(team, 'Fila de Vendas');
    const mine = await newContact(team, 'Cliente do Membro');
    const leaving = await newContact(team, 'Vai para a Ana');
    await post(`/contacts/${anas}/transfer`, team.owner.token, { userId: ana.id });
    await post(`/contacts/${salesQueue}/transfer`, team.owner.token, { departmentId: sales.id });
    await post(`/contacts/${mine}/take`, team.member.token);
    await post(`/contacts/${leaving}/take`, team.member.token);
    // The HTTP API hides the first two from the member.
    for (const hidden of [anas, salesQueue]) expect((await call('GET', `/contacts/${hidden}`, { token: team.member.token })).status).toBe(404);

    const member = await listen(team.member.token);
    const admin = await listen(team.admin.token);
    try {
      // Conversations the member may not see: a note, a system line and contact updates.
      const hiddenNote = await post('/messages/notes', ana.token, { contactId: anas, text: 'Nota só da Ana' });
      await rename(team, anas, 'Cliente da Ana renomeado');
      await rename(team, salesQueue, 'Fila de Vendas renomeada');
      await post(`/contacts/${salesQueue}/take`, ana.token);
      // The member's own: a note and an update.
      const ownNote = await post('/messages/notes', team.member.token, { contactId: mine, text: 'Nota do Membro' });
      await rename(team, mine, 'Cliente do Membro renomeado');
      // Transferred away from the member: one last update, then nothing of it.
      await post(`/contacts/${leaving}/transfer`, team.admin.token, { userId: ana.id });
      const afterLeaving = await post('/messages/notes', ana.token, { contactId: leaving, text: 'Já é da Ana' });
      // Account-level events still reach everyone; the account rename is the last thing done.
      expect((await call('PUT', `/accounts/${team.owner.accountId}`, { token: team.owner.token, body: { name: 'Loja Renomeada' } })).status).toBe(200);

      // The admin gets every one of them.
      const adminSaw = async (predicate: (e: { event: string; data: any }) => boolean) => admin.waitFor(predicate, 15_000);
      await adminSaw((e) => e.event === 'message.CREATED' && e.data.id === hiddenNote.id);
      await adminSaw((e) => e.event === 'contact.UPDATED' && e.data.name === 'Cliente da Ana renomeado');
      await adminSaw((e) => e.event === 'contact.UPDATED' && e.data.id === salesQueue && e.data.userId === ana.id);
      await adminSaw((e) => e.event === 'message.CREATED' && e.data.contactId === salesQueue && e.data.kind === 'system');
      await adminSaw((e) => e.event === 'message.CREATED' && e.data.id === ownNote.id);
      await adminSaw((e) => e.event === 'message.CREATED' && e.data.id === afterLeaving.id);
      await adminSaw((e) => e.event === 'account.UPDATED' && e.data.name === 'Loja Renomeada');

      // The member gets their own, the last update of the one that left, and the account's.
      await member.waitFor((e) => e.event === 'account.UPDATED' && e.data.name === 'Loja Renomeada', 15_000);
      await member.waitFor((e) => e.event === 'message.CREATED' && e.data.id === ownNote.id);
      await member.waitFor((e) => e.event === 'contact.UPDATED' && e.data.name === 'Cliente do Membro renomeado');
      const last = await member.waitFor((e) => e.event === 'contact.UPDATED' && e.data.id === leaving && e.data.userId === ana.id);
      expect(last.data.user).toEqual({ id: ana.id, name: 'Ana' });
      // Room for anything misaddressed still on its way.
      await new Promise((r) => setTimeout(r, 1000));
      const leaked = member.events.filter(
        (e) =>
          ((e.event.startsWith('contact.') || e.event.startsWith('message.')) && [anas, salesQueue].includes(e.data.contactId ?? e.data.id)) ||
          (e.event.startsWith('message.') && e.data.contactId === leaving),
      );
      expect(leaked).toEqual([]);
      expect(member.events.filter((e) => e.event === 'contact.UPDATED' && e.data.id === leaving)).toHaveLength(1);
    } finally {
      member.close();
      admin.close();
    }
  }, 60_000);

  it('a member promoted to admin has their socket closed, and the reopened one gets every conversation', async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    const anas = await newContact(team, 'Cliente da Ana');
    await post(`/contacts/${anas}/transfer`, team.owner.token, { userId: ana.id });
    const before = await listen(team.member.token);
    const promoted = await call('PUT', `/users/${team.member.id}`, {
      token: team.owner.token,
      body: { name: 'Membro', email: team.member.email, isAdmin: true },
    });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    await before.closed;
    const after = await listen(team.member.token);
    try {
      const note = await post('/messages/notes', ana.token, { contactId: anas, text: 'Agora o Membro é admin' });
      await after.waitFor((e) => e.event === 'message.CREATED' && e.data.id === note.id, 15_000);
    } finally {
      after.close();
    }
  }, 60_000);

  it("with the account's setting, a member's socket gets every conversation", async () => {
    const team = await inboxTeam();
    const ana = await addMember(team, 'Ana');
    const anas = await newContact(team, 'Cliente da Ana');
    await post(`/contacts/${anas}/transfer`, team.owner.token, { userId: ana.id });
    expect((await call('PUT', '/inbox/settings', { token: team.owner.token, body: { membersSeeAll: true } })).status).toBe(200);
    const member = await listen(team.member.token);
    try {
      const note = await post('/messages/notes', ana.token, { contactId: anas, text: 'Todos veem' });
      await member.waitFor((e) => e.event === 'message.CREATED' && e.data.id === note.id, 15_000);
    } finally {
      member.close();
    }
  }, 60_000);
});
