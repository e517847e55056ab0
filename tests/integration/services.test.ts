import { describe, expect, it } from 'vitest';
import { call, newOwner, proTeam } from './api.ts';

describe('connections', () => {
  it('an admin creates, reads, renames and deletes a connection', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Atendimento', type: 'whatsapp' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Atendimento', type: 'whatsapp', status: 'disconnected', connected: false, data: { qrCode: null } });
    const id = created.body.id;
    expect((await call('GET', `/services/${id}`, { token: owner.token })).body.name).toBe('Atendimento');
    const renamed = await call('PUT', `/services/${id}`, { token: owner.token, body: { name: 'Vendas' } });
    expect(renamed.body.name).toBe('Vendas');
    const list = await call('GET', '/services', { token: owner.token });
    expect(list.body).toMatchObject({ totalCount: 1, data: [{ id, name: 'Vendas' }] });
    expect((await call('DELETE', `/services/${id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/services/${id}`, { token: owner.token })).status).toBe(404);
  });

  it('requires a Telegram token, stores it sealed and never sends it back whole', async () => {
    const { owner } = await proTeam();
    const missing = await call('POST', '/services', { token: owner.token, body: { name: 'Bot', type: 'telegram', token: '   ' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'token', message: 'Token do Telegram é obrigatório' }]);
    const token = '987654:SECRET-bot-token-XyZ9';
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Bot', type: 'telegram', token } });
    expect(created.status).toBe(201);
    expect(created.body.internalData.token).toMatch(/XyZ9$/);
    expect(JSON.stringify(created.body)).not.toContain('SECRET');
    const { workerPorts } = await import('./worker.ts');
    const { getServiceItem } = await import('#db/services.ts');
    const stored = await getServiceItem(workerPorts().table, owner.accountId, created.body.id);
    expect(JSON.stringify(stored)).not.toContain('SECRET');
    expect(await workerPorts().vault.open(stored!.tokenSealed!)).toBe(token);
  });

  it('never changes the type', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    const changed = await call('PUT', `/services/${created.body.id}`, { token: owner.token, body: { name: 'Zap', type: 'telegram', token: 'x' } });
    expect(changed.status).toBe(400);
    expect(changed.body.details[0].path).toBe('type');
  });

  it('requires name and type ("Campo obrigatório")', async () => {
    const { owner } = await proTeam();
    const answer = await call('POST', '/services', { token: owner.token, body: {} });
    expect(answer.body.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Campo obrigatório' },
        { path: 'type', message: 'Campo obrigatório' },
      ]),
    );
  });

  it('members see connections but cannot change them', async () => {
    const { owner, member } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    expect((await call('GET', '/services', { token: member.token })).body.totalCount).toBe(1);
    expect((await call('POST', '/services', { token: member.token, body: { name: 'X', type: 'whatsapp' } })).status).toBe(403);
    expect((await call('PUT', `/services/${created.body.id}`, { token: member.token, body: { name: 'X' } })).status).toBe(403);
    expect((await call('DELETE', `/services/${created.body.id}`, { token: member.token })).status).toBe(403);
  });

  it('the Free plan allows one connection; the next answers the spec text', async () => {
    const owner = await newOwner();
    expect((await call('POST', '/services', { token: owner.token, body: { name: 'Um', type: 'whatsapp' } })).status).toBe(201);
    const second = await call('POST', '/services', { token: owner.token, body: { name: 'Dois', type: 'whatsapp' } });
    expect(second.status).toBe(402);
    expect(second.body.message).toBe('The maximum number of services allowed on the account has been reached');
    expect((await call('GET', `/accounts/${owner.accountId}/usage`, { token: owner.token })).body.connections).toBe(1);
  });

  it('another account sees none of them', async () => {
    const a = await proTeam();
    const b = await proTeam();
    const created = await call('POST', '/services', { token: b.owner.token, body: { name: 'Zap B', type: 'whatsapp' } });
    for (const [method, path, body] of [
      ['GET', `/services/${created.body.id}`],
      ['PUT', `/services/${created.body.id}`, { name: 'X' }],
      ['DELETE', `/services/${created.body.id}`],
    ] as const) {
      expect((await call(method, path, { token: a.owner.token, body })).status).toBe(404);
    }
    expect((await call('GET', '/services', { token: a.owner.token })).body.totalCount).toBe(0);
  });
});

describe('connection actions', () => {
  it('only admins start, stop, restart and log out a connection; other accounts see none of it', async () => {
    const { owner, member } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    const other = await proTeam();
    for (const action of ['start', 'restart', 'shutdown', 'logout']) {
      expect((await call('POST', `/services/${created.body.id}/${action}`, { token: member.token })).status).toBe(403);
      expect((await call('POST', `/services/${created.body.id}/${action}`, { token: other.owner.token })).status).toBe(404);
    }
  });

  it('a type with no connector yet cannot be started, and says so', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    const answer = await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('This connection type cannot be started yet');
    expect((await call('GET', `/services/${created.body.id}`, { token: owner.token })).body.status).toBe('disconnected');
  });

  it('one Telegram bot serves one connection only, across accounts; deleting frees it', async () => {
    const { uniqueBotToken } = await import('./api.ts');
    const a = await proTeam();
    const b = await proTeam();
    const token = uniqueBotToken();
    const first = await call('POST', '/services', { token: a.owner.token, body: { name: 'Bot', type: 'telegram', token } });
    expect(first.status).toBe(201);
    const sameBot = `${token.split(':')[0]}:another-secret`;
    const second = await call('POST', '/services', { token: b.owner.token, body: { name: 'Bot', type: 'telegram', token: sameBot } });
    expect(second.status).toBe(400);
    expect(second.body.message).toBe('This Telegram bot is already used by another connection');
    const other = await call('POST', '/services', { token: b.owner.token, body: { name: 'Outro', type: 'telegram', token: uniqueBotToken() } });
    const moved = await call('PUT', `/services/${other.body.id}`, { token: b.owner.token, body: { name: 'Outro', token } });
    expect(moved.body.message).toBe('This Telegram bot is already used by another connection');
    expect((await call('DELETE', `/services/${first.body.id}`, { token: a.owner.token })).status).toBe(204);
    const now = await call('PUT', `/services/${other.body.id}`, { token: b.owner.token, body: { name: 'Outro', token } });
    expect(now.status).toBe(200);
    expect(now.body.internalData.token.endsWith(token.slice(-4))).toBe(true);
  });
});
