import { describe, expect, it } from 'vitest';
import { call, newOwner, proTeam, register, signIn } from './api.ts';

describe('accounts', () => {
  it('creating an account makes the creator its owner and admin and moves the session there', async () => {
    const person = await register('Carla Dias');
    const created = await call('POST', '/accounts', { token: person.accessToken, body: { name: 'Padaria da Carla' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Padaria da Carla',
      plan: { productName: 'Free', users: 1, connections: 1, contacts: 1000 },
      subscription: null,
    });
    expect(created.body.user).toMatchObject({
      id: person.id,
      accountId: created.body.id,
      isOwner: true,
      isAdmin: true,
      account: { id: created.body.id, name: 'Padaria da Carla' },
    });
    const me = await call('GET', '/auth/me', { token: created.body.accessToken });
    expect(me.body.user.accountId).toBe(created.body.id);
    // The user moved: logging in again lands in the account.
    const login = await call('POST', '/auth/login', { body: { email: person.email, password: person.password } });
    expect(login.body.user.accountId).toBe(created.body.id);
  });

  it('reads, renames and counts usage of the own account', async () => {
    const owner = await newOwner('Oficina');
    const got = await call('GET', `/accounts/${owner.accountId}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body.name).toBe('Oficina');
    expect(got.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const renamed = await call('PUT', `/accounts/${owner.accountId}`, { token: owner.token, body: { name: 'Oficina do Zé' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Oficina do Zé');
    const usage = await call('GET', `/accounts/${owner.accountId}/usage`, { token: owner.token });
    expect(usage.body).toEqual({ users: 1, connections: 0, contacts: 0 });
  });

  it('requires a name ("Campo obrigatório")', async () => {
    const owner = await newOwner();
    const answer = await call('PUT', `/accounts/${owner.accountId}`, { token: owner.token, body: { name: '   ' } });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([{ path: 'name', message: 'Campo obrigatório' }]);
  });

  it('lets only admins rename the account', async () => {
    const { owner, member } = await proTeam();
    const answer = await call('PUT', `/accounts/${owner.accountId}`, { token: member.token, body: { name: 'Tomada' } });
    expect(answer.status).toBe(403);
    expect((await call('GET', `/accounts/${owner.accountId}`, { token: member.token })).status).toBe(200);
  });

  it('refuses account routes to a user who has no account yet', async () => {
    const person = await register();
    expect((await call('GET', '/users', { token: person.accessToken })).status).toBe(403);
    expect((await call('GET', '/accounts', { token: person.accessToken })).body).toEqual({ data: [], totalCount: 0 });
  });
});

describe('one e-mail in several accounts', () => {
  async function personWithTwoAccounts() {
    const first = await newOwner('Alfa Modas', 'Rita');
    const second = await call('POST', '/accounts', { token: first.token, body: { name: 'Beta Calçados' } });
    expect(second.status).toBe(201);
    expect(second.body.user.id).not.toBe(first.user.id);
    return { first, secondAccountId: second.body.id as string, secondToken: second.body.accessToken as string };
  }

  it('login without a choice answers the list of accounts to choose from', async () => {
    const { first, secondAccountId } = await personWithTwoAccounts();
    const answer = await call('POST', '/auth/login', { body: { email: first.email, password: first.password } });
    expect(answer.status).toBe(200);
    expect(answer.body.accessToken).toBeUndefined();
    expect(answer.body.users.map((u: any) => u.account.name)).toEqual(['Alfa Modas', 'Beta Calçados']);
    expect(answer.body.users.map((u: any) => u.accountId).sort()).toEqual([first.accountId, secondAccountId].sort());
    expect(answer.body.users[0]).toMatchObject({ name: 'Rita', email: first.email });
    const chosen = await call('POST', '/auth/login', { body: { email: first.email, password: first.password, accountId: secondAccountId } });
    expect(chosen.body.user.accountId).toBe(secondAccountId);
  });

  it('lists the accounts of the e-mail and switches the session between them', async () => {
    const { first, secondAccountId } = await personWithTwoAccounts();
    const list = await call('GET', '/accounts', { token: first.token });
    expect(list.body.totalCount).toBe(2);
    const switched = await call('POST', '/auth/switch-account', { token: first.token, body: { accountId: secondAccountId } });
    expect(switched.status).toBe(200);
    expect(switched.body.user.accountId).toBe(secondAccountId);
    const other = await newOwner('Estranha');
    const refused = await call('POST', '/auth/switch-account', { token: first.token, body: { accountId: other.accountId } });
    expect(refused.status).toBe(404);
  });

  it('reset password asks which account, then changes only that one', async () => {
    const { first, secondAccountId } = await personWithTwoAccounts();
    await call('POST', '/auth/forgot-password', { body: { email: first.email } });
    const { lastMail } = await import('./api.ts');
    const code = (await lastMail(first.email))!.code!;
    const ask = await call('POST', '/auth/reset-password', { body: { email: first.email, verifyCode: code, password: 'Outra#Senha789' } });
    expect(ask.status).toBe(200);
    expect(ask.body.accounts).toHaveLength(2);
    const done = await call('POST', '/auth/reset-password', {
      body: { email: first.email, verifyCode: code, password: 'Outra#Senha789', accountId: secondAccountId },
    });
    expect(done.body.user.accountId).toBe(secondAccountId);
    expect(await signIn(first.email, 'Outra#Senha789')).toBeTruthy();
    expect(await signIn(first.email, first.password)).toBeTruthy();
  });
});

describe('deleting an account', () => {
  it('only the owner deletes it; every session of it ends and its people may sign up again', async () => {
    const { owner, admin, member } = await proTeam();
    expect((await call('DELETE', `/accounts/${owner.accountId}`, { token: admin.token })).status).toBe(403);
    expect((await call('DELETE', `/accounts/${owner.accountId}`, { token: member.token })).status).toBe(403);
    const other = await newOwner();
    expect((await call('DELETE', `/accounts/${other.accountId}`, { token: owner.token })).status).toBe(404);

    expect((await call('DELETE', `/accounts/${owner.accountId}`, { token: owner.token })).status).toBe(204);
    for (const token of [owner.token, admin.token, member.token]) {
      expect((await call('GET', '/auth/me', { token })).status).toBe(401);
    }
    expect((await call('POST', '/auth/login', { body: { email: member.email, password: 'Senha#Forte123' } })).status).toBe(401);
    const again = await call('POST', '/auth/register', { body: { name: 'De novo', email: owner.email, password: 'Senha#Forte123' } });
    expect(again.status).toBe(201);
    expect((await call('GET', `/accounts/${other.accountId}`, { token: other.token })).status).toBe(200);
  });
});
