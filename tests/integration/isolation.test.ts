import { describe, expect, it } from 'vitest';
import { call, proTeam } from './api.ts';

describe('tenant isolation', () => {
  it('a user of account A gets 404 for every id of account B, and B is left untouched', async () => {
    const a = await proTeam();
    const b = await proTeam();
    const token = a.owner.token;
    const bAccount = b.owner.accountId;
    const bUser = b.member.id;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/accounts/${bAccount}`],
      ['PUT', `/accounts/${bAccount}`, { name: 'Invadida' }],
      ['GET', `/accounts/${bAccount}/usage`],
      ['GET', `/users/${bUser}`],
      ['PUT', `/users/${bUser}`, { name: 'Invadido', email: 'x@example.com', isAdmin: true }],
      ['DELETE', `/users/${bUser}`],
      ['POST', `/users/${bUser}/archive`, { archive: true }],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await call(method, path, { token, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    const list = await call('GET', '/users', { token });
    expect(list.body.data.map((u: any) => u.id)).not.toContain(bUser);

    const still = await call('GET', `/users/${bUser}`, { token: b.owner.token });
    expect(still.body).toMatchObject({ name: 'Membro', isAdmin: false, archivedAt: null });
    expect((await call('GET', `/accounts/${bAccount}`, { token: b.owner.token })).body.name).toBe('Equipe Pro');
  });

  it('the account comes from the token, never from the body', async () => {
    const a = await proTeam();
    const b = await proTeam();
    const created = await call('POST', '/users', {
      token: a.owner.token,
      body: { name: 'Plantado', email: 'plantado@example.com', password: 'Senha#Forte123', accountId: b.owner.accountId },
    });
    expect(created.status).toBe(201);
    expect(created.body.accountId).toBe(a.owner.accountId);
    const bList = await call('GET', '/users', { token: b.owner.token });
    expect(bList.body.data.map((u: any) => u.name)).not.toContain('Plantado');
  });
});
