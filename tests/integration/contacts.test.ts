import { describe, expect, it } from 'vitest';
import { containsPattern, listQueryString } from '#contracts/list-query.ts';
import { call, newOwner, proTeam, setPlan, uniqueBotToken } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';

async function withService(type: 'whatsapp' | 'telegram' = 'whatsapp') {
  const team = await proTeam();
  const service = await call('POST', '/services', {
    token: team.owner.token,
    body: type === 'telegram' ? { name: 'Bot', type, token: uniqueBotToken() } : { name: 'Zap', type },
  });
  return { ...team, serviceId: service.body.id as string };
}

describe('contacts', () => {
  it('creates a WhatsApp contact with digits only and its JID as channel id', async () => {
    const { owner, serviceId } = await withService();
    const answer = await call('POST', '/contacts', {
      token: owner.token,
      body: { name: 'Joana', serviceId, gender: 'female', data: { phoneNumber: '+55 (11) 98765-4321', phoneCountry: 'br', email: 'Joana@Example.com' } },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      name: 'Joana',
      type: 'user',
      gender: 'female',
      idFromService: '5511987654321@s.whatsapp.net',
      data: { phoneNumber: '5511987654321', phoneCountry: 'BR', email: 'joana@example.com' },
      service: { id: serviceId, name: 'Zap', type: 'whatsapp' },
      archivedAt: null,
      unread: 0,
      lastMessage: null,
    });
  });

  it.each([
    ['abc', 'Não tem formato de número'],
    ['551198765', 'Número muito pequeno inválido'],
    ['55119876543210000', 'Número muito grande inválido'],
    ['5500000000000', 'Número de telefone inválido'],
  ])('refuses the phone %s with "%s"', async (phone, message) => {
    const { owner, serviceId } = await withService();
    const answer = await call('POST', '/contacts', { token: owner.token, body: { name: 'X', serviceId, data: { phoneNumber: phone, phoneCountry: 'BR' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toContainEqual({ path: 'data.phoneNumber', message });
  });

  it('refuses an unknown country with "Código do país inválido"', async () => {
    const { owner, serviceId } = await withService();
    const answer = await call('POST', '/contacts', {
      token: owner.token,
      body: { name: 'X', serviceId, data: { phoneNumber: '5511987654321', phoneCountry: 'ZZ' } },
    });
    expect(answer.body.details).toContainEqual({ path: 'data.phoneNumber', message: 'Código do país inválido' });
  });

  it('requires name, connection and, for WhatsApp, the phone', async () => {
    const { owner, serviceId } = await withService();
    const empty = await call('POST', '/contacts', { token: owner.token, body: {} });
    expect(empty.body.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Campo obrigatório' },
        { path: 'serviceId', message: 'Campo obrigatório' },
      ]),
    );
    const noPhone = await call('POST', '/contacts', { token: owner.token, body: { name: 'X', serviceId } });
    expect(noPhone.body.details).toEqual([{ path: 'data.phoneNumber', message: 'Campo obrigatório' }]);
  });

  it('Telegram contacts need the Telegram id on create, and the phone is optional', async () => {
    const { owner, serviceId } = await withService('telegram');
    const noId = await call('POST', '/contacts', { token: owner.token, body: { name: 'T', serviceId } });
    expect(noId.body.details).toEqual([{ path: 'idFromService', message: 'Campo obrigatório' }]);
    const ok = await call('POST', '/contacts', { token: owner.token, body: { name: 'T', serviceId, idFromService: '777' } });
    expect(ok.status).toBe(201);
    const edited = await call('PUT', `/contacts/${ok.body.id}`, {
      token: owner.token,
      body: { name: 'T2', serviceId, data: { phoneNumber: '5511987654321', phoneCountry: 'BR' } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'T2', idFromService: '777', data: { phoneNumber: '5511987654321' } });
  });

  it('one contact per connection and channel id', async () => {
    const { owner, serviceId } = await withService();
    const body = { name: 'A', serviceId, data: { phoneNumber: '5511912345678', phoneCountry: 'BR' } };
    expect((await call('POST', '/contacts', { token: owner.token, body })).status).toBe(201);
    const again = await call('POST', '/contacts', { token: owner.token, body: { ...body, name: 'B' } });
    expect(again.status).toBe(400);
    expect(again.body.details[0].path).toBe('idFromService');
  });

  it('editing keeps the connection and, for WhatsApp, the phone', async () => {
    const { owner, contact } = await inboxTeam();
    const other = await call('POST', '/services', { token: owner.token, body: { name: 'Outro', type: 'whatsapp' } });
    const moved = await call('PUT', `/contacts/${contact.id}`, { token: owner.token, body: { name: 'X', serviceId: other.body.id } });
    expect(moved.body.details).toContainEqual({ path: 'serviceId', message: 'A conexão não pode ser alterada' });
    const rephoned = await call('PUT', `/contacts/${contact.id}`, {
      token: owner.token,
      body: { name: 'X', serviceId: contact.serviceId, data: { phoneNumber: '5511900000000', phoneCountry: 'BR' } },
    });
    expect(rephoned.status).toBe(400);
    const renamed = await call('PUT', `/contacts/${contact.id}`, {
      token: owner.token,
      body: { name: 'Novo Nome', serviceId: contact.serviceId, gender: 'male', data: { email: 'novo@example.com' } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Novo Nome', gender: 'male', data: { phoneNumber: contact.data.phoneNumber, email: 'novo@example.com' } });
  });

  it('past the plan limit new contacts are kept but archived, and unarchiving needs a free seat', async () => {
    const { owner, serviceId } = await withService();
    await setPlan(owner.accountId, { productName: 'Pro', users: 10, connections: 5, contacts: 2 });
    const make = (n: number) =>
      call('POST', '/contacts', { token: owner.token, body: { name: `C${n}`, serviceId, data: { phoneNumber: `551198888000${n}`, phoneCountry: 'BR' } } });
    const [a, b, c] = [await make(1), await make(2), await make(3)];
    expect([a.body.archivedAt, b.body.archivedAt]).toEqual([null, null]);
    expect(c.status).toBe(201);
    expect(c.body.archivedAt).toBeTruthy();
    expect(c.body.archivedReason).toBe('limit');
    expect((await call('GET', `/accounts/${owner.accountId}/usage`, { token: owner.token })).body.contacts).toBe(2);

    const full = await call('POST', `/contacts/${c.body.id}/archive`, { token: owner.token, body: { archive: false } });
    expect(full.status).toBe(402);
    expect(full.body.message).toBe('The maximum number of contacts or users allowed on the account has been reached');
    expect((await call('POST', `/contacts/${a.body.id}/archive`, { token: owner.token, body: { archive: true } })).body.archivedReason).toBe('manual');
    const freed = await call('POST', `/contacts/${c.body.id}/archive`, { token: owner.token, body: { archive: false } });
    expect(freed.status).toBe(200);
    expect(freed.body.archivedAt).toBeNull();
  });

  it('only admins archive and unarchive', async () => {
    const { member, contact } = await inboxTeam();
    expect((await call('POST', `/contacts/${contact.id}/archive`, { token: member.token, body: { archive: true } })).status).toBe(403);
  });

  it('lists with filters, like search on name or e-mail, order and paging', async () => {
    const { owner, serviceId } = await withService();
    const tg = await call('POST', '/services', { token: owner.token, body: { name: 'Bot', type: 'telegram', token: uniqueBotToken() } });
    const names = ['João Silva', 'Maria Souza', 'Ana Paula', 'Joana Prado'];
    for (const [i, name] of names.entries()) {
      await call('POST', '/contacts', {
        token: owner.token,
        body: {
          name,
          serviceId,
          data: {
            phoneNumber: `55119777700${i}0`,
            phoneCountry: 'BR',
            email: `${name
              .split(' ')[0]!
              .normalize('NFD')
              .replace(/[^A-Za-z]/g, '')
              .toLowerCase()}@loja.com`,
          },
        },
      });
    }
    await call('POST', '/contacts', { token: owner.token, body: { name: 'Telegrâmico', serviceId: tg.body.id, idFromService: '42' } });

    const search = (text: string) =>
      call(
        'GET',
        `/contacts${listQueryString({ where: { or: [{ name: { like: containsPattern(text) } }, { 'data.email': { like: containsPattern(text) } }] }, order: [['name', 'ASC']] })}`,
        { token: owner.token },
      );
    expect((await search('JOAO')).body.data.map((c: any) => c.name)).toEqual(['João Silva']);
    expect((await search('jo')).body.data.map((c: any) => c.name)).toEqual(['Joana Prado', 'João Silva']);
    expect((await search('maria@')).body.totalCount).toBe(1);

    const telegramOnly = await call('GET', `/contacts${listQueryString({ where: { 'service.type': 'telegram' } })}`, { token: owner.token });
    expect(telegramOnly.body.data.map((c: any) => c.name)).toEqual(['Telegrâmico']);
    const byService = await call(
      'GET',
      `/contacts${listQueryString({ where: { serviceId, archivedAt: null }, order: [['name', 'DESC']], page: 1, perPage: 3 })}`,
      { token: owner.token },
    );
    expect(byService.body.totalCount).toBe(4);
    expect(byService.body.data.map((c: any) => c.name)).toEqual(['Ana Paula']);
  });

  it('pages by cursor: every contact exactly once and in order, with equal names and with writes between pages', async () => {
    const { owner, serviceId } = await withService('telegram');
    let next = 0;
    const create = async (name: string) =>
      (await call('POST', '/contacts', { token: owner.token, body: { name, serviceId, idFromService: String(1000 + next++) } })).body.id as string;
    for (const name of ['Igual', 'Igual', 'Igual', 'Igual', 'Igual', 'Bruno', 'Bruno', 'Bruno', 'Carla', 'Carla', 'Zilda']) await create(name);
    const list = (query: object) => call('GET', `/contacts${listQueryString(query)}`, { token: owner.token });
    // Each pass starts over on what the previous one left (its additions shown again, its deletion gone).
    for (const order of [[['name', 'ASC']], [['name', 'DESC']], []] as [string, 'ASC' | 'DESC'][][]) {
      const seen: string[] = [];
      let after: string | undefined;
      let added: string | undefined;
      let removed: string | undefined;
      for (let round = 0; round < 20; round++) {
        const page = await list({ order, perPage: 3, ...(after ? { after } : {}) });
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((c: any) => c.id));
        after = page.body.nextCursor ?? undefined;
        if (!after) break;
        if (round === 1) {
          // Between pages: one contact sorting before what was shown, one after it, and one not shown yet deleted.
          const descending = order[0]?.[1] === 'DESC';
          await create(descending ? 'Zzz antes' : 'Aaa antes');
          added = await create(descending ? 'Aaa depois' : 'Zzz depois');
          const all: string[] = (await list({ order, perPage: 100 })).body.data.map((c: any) => c.id as string);
          removed = all.filter((id) => !seen.includes(id) && id !== added).at(-1)!;
          expect((await call('DELETE', `/contacts/${removed}`, { token: owner.token })).status).toBe(204);
        }
      }
      const final: string[] = (await list({ order, perPage: 100 })).body.data.map((c: any) => c.id as string);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain(added);
      expect(seen).not.toContain(removed);
      // In the list's own order, and missing only the contacts added before the rows already shown.
      expect(final.filter((id) => seen.includes(id))).toEqual(seen);
      expect(final.filter((id) => !seen.includes(id))).toHaveLength(1);
    }
  }, 90_000);

  it('refuses deep page numbers, and cursors of another order or beside a page number, with the catalogue error', async () => {
    const { owner } = await withService();
    const list = (query: object) => call('GET', `/contacts${listQueryString(query)}`, { token: owner.token });
    const deep = await list({ page: 501, perPage: 20 });
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe('Invalid params');
    expect(deep.body.details).toEqual([{ path: 'query.page', message: expect.stringContaining('cursor') }]);
    expect((await list({ page: 500, perPage: 20 })).status).toBe(200);
    const byName = Buffer.from(
      JSON.stringify({
        o: [
          ['name', 'ASC'],
          ['id', 'ASC'],
        ],
        k: ['ana', 'X'],
      }),
    ).toString('base64url');
    expect((await list({ order: [['name', 'ASC']], after: byName })).status).toBe(200);
    const otherOrder = await list({ order: [['name', 'DESC']], after: byName });
    expect(otherOrder.status).toBe(400);
    expect(otherOrder.body.details).toEqual([{ path: 'query.after', message: expect.any(String) }]);
    expect((await list({ after: 'não é um cursor' })).body.details).toEqual([{ path: 'query.after', message: expect.any(String) }]);
    expect((await list({ order: [['name', 'ASC']], after: byName, page: 1 })).body.details).toEqual([{ path: 'query.page', message: expect.any(String) }]);
    expect((await call('GET', `/tags${listQueryString({ after: byName })}`, { token: owner.token })).body.details).toEqual([
      { path: 'query.after', message: expect.any(String) },
    ]);
  });

  it('the list reflects creations, edits and deletions at once', async () => {
    const { owner, contact } = await inboxTeam();
    const before = await call('GET', '/contacts', { token: owner.token });
    expect(before.body.totalCount).toBe(1);
    await call('PUT', `/contacts/${contact.id}`, { token: owner.token, body: { name: 'Renomeado', serviceId: contact.serviceId } });
    expect((await call('GET', '/contacts', { token: owner.token })).body.data[0].name).toBe('Renomeado');
    expect((await call('DELETE', `/contacts/${contact.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', '/contacts', { token: owner.token })).body.totalCount).toBe(0);
    expect((await call('GET', `/contacts/${contact.id}`, { token: owner.token })).status).toBe(404);
    expect((await call('GET', `/accounts/${owner.accountId}/usage`, { token: owner.token })).body.contacts).toBe(0);
  });

  it('another account gets 404 for every contact id and sees none in its list', async () => {
    const a = await inboxTeam();
    const b = await proTeam();
    for (const [method, path, body] of [
      ['GET', `/contacts/${a.contact.id}`],
      ['PUT', `/contacts/${a.contact.id}`, { name: 'X', serviceId: a.contact.serviceId }],
      ['DELETE', `/contacts/${a.contact.id}`],
      ['POST', `/contacts/${a.contact.id}/archive`, { archive: true }],
      ['POST', `/contacts/${a.contact.id}/read`],
    ] as const) {
      expect((await call(method, path, { token: b.owner.token, body })).status, `${method} ${path}`).toBe(404);
    }
    expect((await call('GET', '/contacts', { token: b.owner.token })).body.totalCount).toBe(0);
    const crossService = await call('POST', '/contacts', {
      token: b.owner.token,
      body: { name: 'X', serviceId: a.contact.serviceId, data: { phoneNumber: '5511987650000', phoneCountry: 'BR' } },
    });
    expect(crossService.status).toBe(400);
  });

  it('the Free plan limit is 1,000 contacts', async () => {
    const owner = await newOwner();
    const usage = await call('GET', `/accounts/${owner.accountId}`, { token: owner.token });
    expect(usage.body.plan.contacts).toBe(1000);
  });
});
