import { describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { call, lastMail, newOwner, proTeam, signIn, strongPassword, uniqueEmail } from './api.ts';

describe('users', () => {
  it('the Free plan allows one user: a second one is refused with the limit text', async () => {
    const owner = await newOwner();
    const answer = await call('POST', '/users', { token: owner.token, body: { name: 'Extra', email: uniqueEmail(), password: strongPassword } });
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({
      error: 'Payment Required',
      message: 'The maximum number of contacts or users allowed on the account has been reached',
    });
    expect((await call('GET', `/accounts/${owner.accountId}/usage`, { token: owner.token })).body.users).toBe(1);
  });

  it('an admin creates users who can sign in; the list shows them with a count', async () => {
    const { owner, admin, member } = await proTeam();
    const list = await call('GET', '/users', { token: member.token });
    expect(list.status).toBe(200);
    expect(list.body.totalCount).toBe(3);
    const byId = Object.fromEntries(list.body.data.map((u: any) => [u.id, u]));
    expect(byId[owner.user.id]).toMatchObject({ isOwner: true, isAdmin: true });
    expect(byId[admin.id]).toMatchObject({ isOwner: false, isAdmin: true });
    expect(byId[member.id]).toMatchObject({ isOwner: false, isAdmin: false, archivedAt: null });
    expect(JSON.stringify(list.body)).not.toContain('passwordHash');
  });

  it('filters with like on name and email, orders and pages', async () => {
    const { owner } = await proTeam();
    const like = await call('GET', `/users${listQueryString({ where: { name: { like: '%MEMB%' } } })}`, { token: owner.token });
    expect(like.body.data.map((u: any) => u.name)).toEqual(['Membro']);
    const or = await call(
      'GET',
      `/users${listQueryString({ where: { or: [{ name: { like: '%dona%' } }, { email: { like: 'admin.%' } }] }, order: [['name', 'ASC']] })}`,
      { token: owner.token },
    );
    expect(or.body.data.map((u: any) => u.name)).toEqual(['Admin', 'Dona Teste']);
    const page = await call('GET', `/users${listQueryString({ order: [['name', 'DESC']], page: 1, perPage: 2 })}`, { token: owner.token });
    expect(page.body).toMatchObject({ totalCount: 3 });
    expect(page.body.data.map((u: any) => u.name)).toEqual(['Admin']);
  });

  it('answers Invalid params for a malformed or unknown list query', async () => {
    const owner = await newOwner();
    for (const query of ['{bad', '[]', JSON.stringify({ where: { passwordHash: 'x' } }), JSON.stringify({ perPage: 100000 }), JSON.stringify({ page: -1 })]) {
      const answer = await call('GET', `/users?query=${encodeURIComponent(query)}`, { token: owner.token });
      expect(answer.status, query).toBe(400);
      expect(answer.body.message).toBe('Invalid params');
    }
  });

  it('refuses a second user with an e-mail already in the account', async () => {
    const { owner, member } = await proTeam();
    const answer = await call('POST', '/users', { token: owner.token, body: { name: 'Dup', email: member.email, password: strongPassword } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Email already exists');
  });

  it('only admins create users and set the admin flag', async () => {
    const { member } = await proTeam();
    const answer = await call('POST', '/users', { token: member.token, body: { name: 'X', email: uniqueEmail(), password: strongPassword } });
    expect(answer.status).toBe(403);
    const promote = await call('PUT', `/users/${member.id}`, { token: member.token, body: { name: 'Membro', email: member.email, isAdmin: true } });
    expect(promote.status).toBe(403);
  });

  it('everyone edits themselves; admins edit others but not the owner', async () => {
    const { owner, admin, member } = await proTeam();
    const self = await call('PUT', `/users/${member.id}`, { token: member.token, body: { name: 'Membro Novo', email: member.email } });
    expect(self.status).toBe(200);
    expect(self.body.name).toBe('Membro Novo');
    const other = await call('PUT', `/users/${admin.id}`, { token: member.token, body: { name: 'Hack', email: admin.email } });
    expect(other.status).toBe(403);
    const byAdmin = await call('PUT', `/users/${member.id}`, { token: admin.token, body: { name: 'Membro', email: member.email, isAdmin: true } });
    expect(byAdmin.body.isAdmin).toBe(true);
    const onOwner = await call('PUT', `/users/${owner.user.id}`, { token: admin.token, body: { name: 'Dono', email: owner.email } });
    expect(onOwner.status).toBe(403);
  });

  it("changing a user's e-mail refuses one another user of the account has, and frees the old one", async () => {
    const { owner, admin, member } = await proTeam();
    const taken = await call('PUT', `/users/${member.id}`, { token: member.token, body: { name: 'Membro', email: admin.email } });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe('Email already exists');
    const newEmail = uniqueEmail('novo');
    const asked = await call('PUT', `/users/${member.id}`, { token: member.token, body: { name: 'Membro', email: newEmail } });
    expect(asked.status).toBe(200);
    // The new address waits for its code (account-takeover.test.ts has the whole flow).
    expect(asked.body).toMatchObject({ email: member.email, pendingEmail: newEmail });
    const code = (await lastMail(newEmail))!.code!;
    expect((await call('POST', '/auth/verify-email', { body: { userId: member.id, verifyCode: code } })).status).toBe(204);
    const reused = await call('POST', '/users', { token: owner.token, body: { name: 'Outro', email: member.email, password: strongPassword } });
    expect(reused.status).toBe(201);
  });

  it('the owner must stay an administrator', async () => {
    const { owner } = await proTeam();
    const answer = await call('PUT', `/users/${owner.user.id}`, { token: owner.token, body: { name: 'Dona', email: owner.email, isAdmin: false } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('The owner user must be an administrator');
  });

  it('changing the password keeps it when blank and replaces it when given', async () => {
    const { member } = await proTeam();
    const blank = await call('PUT', `/users/${member.id}`, { token: member.token, body: { name: 'Membro', email: member.email, password: '' } });
    expect(blank.status).toBe(200);
    expect(await signIn(member.email, strongPassword)).toBeTruthy();
    await call('PUT', `/users/${member.id}`, { token: member.token, body: { name: 'Membro', email: member.email, password: 'Trocada#2024' } });
    expect(await signIn(member.email, 'Trocada#2024')).toBeTruthy();
  });

  it('archiving: admins only, never the owner or oneself; an archived user cannot sign in', async () => {
    const { owner, admin, member } = await proTeam();
    expect((await call('POST', `/users/${admin.id}/archive`, { token: member.token, body: { archive: true } })).status).toBe(403);
    const onOwner = await call('POST', `/users/${owner.user.id}/archive`, { token: admin.token, body: { archive: true } });
    expect(onOwner.status).toBe(403);
    expect(onOwner.body.message).toBe('The owner user cannot be archived');
    const onSelf = await call('POST', `/users/${admin.id}/archive`, { token: admin.token, body: { archive: true } });
    expect(onSelf.body.message).toBe('You cannot archive yourself');

    const archived = await call('POST', `/users/${member.id}/archive`, { token: admin.token, body: { id: member.id, archive: true } });
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toBeTruthy();
    expect(archived.body.archivedReason).toBe('manual');
    expect((await call('GET', '/auth/me', { token: member.token })).status).toBe(401);
    expect((await call('POST', '/auth/login', { body: { email: member.email, password: strongPassword } })).status).toBe(401);

    const back = await call('POST', `/users/${member.id}/archive`, { token: admin.token, body: { archive: false } });
    expect(back.body.archivedAt).toBeNull();
    expect(await signIn(member.email, strongPassword)).toBeTruthy();
  });

  it('deleting a user frees its seat and its e-mail', async () => {
    const { owner, member } = await proTeam();
    expect((await call('DELETE', `/users/${owner.user.id}`, { token: owner.token })).status).toBe(403);
    expect((await call('DELETE', `/users/${member.id}`, { token: member.token })).status).toBe(403);
    expect((await call('DELETE', `/users/${member.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/users/${member.id}`, { token: owner.token })).status).toBe(404);
    expect((await call('GET', `/accounts/${owner.accountId}/usage`, { token: owner.token })).body.users).toBe(2);
    const again = await call('POST', '/users', { token: owner.token, body: { name: 'De volta', email: member.email, password: strongPassword } });
    expect(again.status).toBe(201);
  });

  it('a user added to a second account with the same e-mail and password gets the account choice', async () => {
    const { owner, member } = await proTeam();
    const elsewhere = await newOwner('Outra Loja');
    const { setPlan } = await import('./api.ts');
    await setPlan(elsewhere.accountId, { productName: 'Pro', users: 10, connections: 5, contacts: 25000 });
    await call('POST', '/users', { token: elsewhere.token, body: { name: 'Membro', email: member.email, password: strongPassword } });
    const answer = await call('POST', '/auth/login', { body: { email: member.email, password: strongPassword } });
    expect(answer.body.users.map((u: any) => u.accountId).sort()).toEqual([owner.accountId, elsewhere.accountId].sort());
  });
});
