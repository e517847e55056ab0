/**
 * Campaign audiences over the shared runtime (ADR-0225 and ADR-0226): a customer's message
 * that is only an opt-out word records the opt-out on the contact (with a system line and, while
 * switched on, the confirmation sent through the channel double) and an opt-in word clears it;
 * admins clear it too; segments are saved filters of the contacts list, counted live; 'Exportar CSV'
 * writes the filtered list to the bucket and answers its signed link.
 */
import { describe, expect, it } from 'vitest';
import { defaultAutomationSettings } from '#contracts/automations.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { defaultOptOutSettings } from '#contracts/opt-out.ts';
import { receiveMessage } from '#domain/messages/inbound.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { eventually, fakeChannel, workerPorts } from './worker.ts';

type Team = Awaited<ReturnType<typeof inboxTeam>>;

let seq = 0;
/** The team's contact writes, as the WhatsApp adapter reports it. */
function customerWrites(team: Team, text: string, choice?: string) {
  return receiveMessage(
    workerPorts(),
    { accountId: team.owner.accountId, serviceId: team.service.id },
    {
      channelMessageId: `wamid-optout-${Date.now()}-${++seq}`,
      chat: { idFromService: team.contact.idFromService, name: 'Cliente Zap', isGroup: false },
      isFromMe: false,
      type: 'text',
      text,
      ...(choice ? { choice } : {}),
      timestamp: new Date().toISOString(),
    },
  );
}

const contactOf = async (team: Team) => (await call('GET', `/contacts/${team.contact.id}`, { token: team.owner.token })).body;
const thread = async (team: Team) =>
  ((await call('GET', `/messages${listQueryString({ where: { contactId: team.contact.id }, perPage: 100 })}`, { token: team.owner.token })).body.data as any[])
    .slice()
    .reverse();

describe('opting out of campaigns', () => {
  it('records the word on the contact with a confirmation, clears it with VOLTAR or by an admin, and leaves the conversation alone', async () => {
    const team = await inboxTeam();
    const optOut = {
      ...defaultOptOutSettings,
      confirmation: { ...defaultOptOutSettings.confirmation, enabled: true, optOutText: 'Tudo certo, {{primeiro_nome}}: sem campanhas a partir de agora.' },
    };
    const confirmed = 'Tudo certo, Cliente: sem campanhas a partir de agora.';
    expect((await call('PUT', '/automations', { token: team.admin.token, body: { ...defaultAutomationSettings, optOut } })).status).toBe(200);
    const before = Date.now();

    await customerWrites(team, ' Sáir ');
    const out = await contactOf(team);
    expect(out).toMatchObject({ optedOutWord: 'SAIR', unread: 1, status: 'open' });
    expect(Date.parse(out.optedOutAt)).toBeGreaterThanOrEqual(before - 1000);
    const messages = await thread(team);
    expect(messages.map((m) => [m.kind ?? 'message', m.text])).toEqual([
      ['message', ' Sáir '],
      ['system', 'Contato descadastrado de campanhas (enviou "SAIR")'],
      ['message', confirmed],
    ]);
    expect(messages[2].automated).toBe(true);
    await eventually(async () => (await fakeChannel.sent()).find((s) => s.message.to === team.contact.idFromService)?.message.text === confirmed);

    // Segments find them; a message that only contains the word changes nothing; the team still answers.
    const optedOut = await call('GET', `/contacts${listQueryString({ where: { id: team.contact.id, optedOutAt: { ne: null } } })}`, {
      token: team.owner.token,
    });
    expect(optedOut.body.totalCount).toBe(1);
    await customerWrites(team, 'não quero sair, quero comprar');
    expect((await contactOf(team)).optedOutAt).toBe(out.optedOutAt);
    const reply = await call('POST', '/messages/send', {
      token: team.member.token,
      body: { contactId: team.contact.id, serviceId: team.service.id, text: 'Claro!' },
    });
    expect(reply.status).toBe(201);

    await customerWrites(team, 'VOLTAR');
    expect(await contactOf(team)).toMatchObject({ optedOutAt: null, optedOutWord: null });
    expect((await thread(team)).slice(-2).map((m) => m.text)).toEqual([
      'Contato voltou a receber campanhas (enviou "VOLTAR")',
      defaultOptOutSettings.confirmation.optInText,
    ]);

    await customerWrites(team, 'parar');
    expect((await contactOf(team)).optedOutWord).toBe('PARAR');
    expect((await call('DELETE', `/contacts/${team.contact.id}/opt-out`, { token: team.member.token })).status).toBe(403);
    const cleared = await call('DELETE', `/contacts/${team.contact.id}/opt-out`, { token: team.admin.token });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ optedOutAt: null, optedOutWord: null });
  });

  it('sends no confirmation while it is off (the default); VOLTAR from someone not opted out and a tapped option reading Sair do nothing', async () => {
    const team = await inboxTeam();
    await customerWrites(team, 'voltar');
    await customerWrites(team, 'Sair', '9');
    expect((await contactOf(team)).optedOutAt).toBeNull();
    expect((await thread(team)).map((m) => m.text)).toEqual(['voltar', 'Sair']);
    await customerWrites(team, 'PARAR');
    expect((await contactOf(team)).optedOutWord).toBe('PARAR');
    expect((await thread(team)).map((m) => m.text)).toEqual(['voltar', 'Sair', 'PARAR', 'Contato descadastrado de campanhas (enviou "PARAR")']);
  });
});

describe('segments', () => {
  it('admins save filters in the list query language, everyone reads them with live counts', async () => {
    const team = await inboxTeam();
    const { owner, admin, member, service } = team;
    const vip = (await call('POST', '/tags', { token: owner.token, body: { name: 'VIP', color: '#047857' } })).body;
    const made: string[] = [];
    for (const name of ['Ana', 'Bruno', 'Carla']) {
      // The team's contact's number with other last digits: a number from the clock, as that one's,
      // could be the same one (refused on this connection) when both fell in the same 100 ms.
      const ownPhone = team.contact.data.phoneNumber as string;
      const phone = ownPhone.slice(0, -2) + String((Number(ownPhone.slice(-2)) + 1 + made.length) % 100).padStart(2, '0');
      const c = await call('POST', '/contacts', {
        token: owner.token,
        body: { name, serviceId: service.id, data: { phoneNumber: phone, phoneCountry: 'BR' } },
      });
      expect(c.status).toBe(201);
      made.push(c.body.id);
    }
    for (const id of made.slice(0, 2)) expect((await call('PUT', `/contacts/${id}/tags`, { token: owner.token, body: { tagIds: [vip.id] } })).status).toBe(200);

    const where = { tags: vip.id, optedOutAt: null };
    expect((await call('POST', '/segments', { token: member.token, body: { name: 'Clientes VIP', where } })).status).toBe(403);
    const created = await call('POST', '/segments', { token: admin.token, body: { name: 'Clientes VIP', where } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Clientes VIP', where, count: 2 });

    // The count follows the contacts: one more tagged.
    await call('PUT', `/contacts/${made[2]}/tags`, { token: owner.token, body: { tagIds: [vip.id] } });
    const listed = await call('GET', '/segments', { token: member.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((s: any) => [s.name, s.count])).toEqual([['Clientes VIP', 3]]);

    const bad = await call('POST', '/segments', { token: admin.token, body: { name: 'Outro', where: { senha: 'x' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'where.senha', message: 'Campo desconhecido: senha' }]);
    const taken = await call('POST', '/segments', { token: admin.token, body: { name: 'clientes vip', where: {} } });
    expect(taken.body.details).toEqual([{ path: 'name', message: 'Já existe um segmento com este nome' }]);

    const edited = await call('PUT', `/segments/${created.body.id}`, {
      token: admin.token,
      body: { name: 'VIP com A', where: { ...where, name: { like: '%a%' }, archivedAt: null, lastMessageAt: null } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'VIP com A', count: 2 });
    expect((await call('GET', `/segments/${created.body.id}`, { token: member.token })).body.count).toBe(2);

    expect((await call('DELETE', `/segments/${created.body.id}`, { token: member.token })).status).toBe(403);
    expect((await call('DELETE', `/segments/${created.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await call('GET', `/segments/${created.body.id}`, { token: admin.token })).status).toBe(404);
  });
});

describe('exporting the contact list as CSV', () => {
  it('writes the filtered contacts for Excel (BOM, ";", quoted, pt-BR headers) and answers a signed link', async () => {
    const team = await inboxTeam();
    const { owner, member, service } = team;
    const name = 'José "Zé" da Conceição';
    const phone = `55219${String(Date.now() % 100000000).padStart(8, '0')}`;
    expect(
      (
        await call('POST', '/contacts', {
          token: owner.token,
          body: { name, serviceId: service.id, data: { phoneNumber: phone, phoneCountry: 'BR', email: 'ze@example.com' } },
        })
      ).status,
    ).toBe(201);
    const query = listQueryString({ where: { serviceId: service.id }, order: [['name', 'ASC']] });

    expect((await call('POST', `/contacts/csv-export${query}`, { token: member.token })).status).toBe(403);
    const answer = await call('POST', `/contacts/csv-export${query}`, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ rows: 2, filename: expect.stringMatching(/^contatos-\d{4}-\d{2}-\d{2}\.csv$/) });
    const file = await fetch(answer.body.url);
    expect(file.status).toBe(200);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.length).toBe(answer.body.bytes);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    expect(lines[0]).toBe(
      '"Nome";"Telefone";"Email";"Conexão";"Tipo de conexão";"Etiquetas";"Departamento";"Atendente";"Status";"Última mensagem em";"Criado em";"Arquivado em";"Descadastrado de campanhas em"',
    );
    expect(lines.slice(1, -1)).toHaveLength(2);
    expect(lines.at(-1)).toBe('');
    const [first, second] = lines.slice(1, 3).map((l) => l.split(';'));
    expect(first!.slice(0, 5)).toEqual(['"Cliente Zap"', expect.stringMatching(/^"55119\d+"$/), '""', '"WhatsApp da loja"', '"WhatsApp"']);
    expect(second!.slice(0, 5)).toEqual(['"José ""Zé"" da Conceição"', `"${phone}"`, '"ze@example.com"', '"WhatsApp da loja"', '"WhatsApp"']);
    expect(second![8]).toBe('"Aberta"');
  });
});
