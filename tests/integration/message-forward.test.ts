/**
 * Forwarding (ADR-0218): a message goes to up to 10 contacts as new messages of the
 * caller marked `forwarded`, each reaching its channel (the double gets `forwarded: true`, the text,
 * and a file's bytes from a copy of their own); a conversation the caller may not see answers 404;
 * targets that cannot be sent to answer the catalogue's texts per target and nothing is sent.
 */
import { describe, expect, it } from 'vitest';
import { errorTexts } from '#contracts/errors.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { call, proTeam } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { eventually, fakeChannel, setServiceStatus } from './worker.ts';

async function sentTo(idFromService: string) {
  return (await fakeChannel.sent()).filter((s) => s.message.to === idFromService);
}
const messagesOf = (token: string, contactId: string) => call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token });

let phones = 0;
async function anotherContact(token: string, serviceId: string, name: string) {
  const phone = `55118${String((Date.now() + ++phones * 7919) % 100000000).padStart(8, '0')}`;
  const made = await call('POST', '/contacts', { token, body: { name, serviceId, data: { phoneNumber: phone, phoneCountry: 'BR' } } });
  expect(made.status).toBe(201);
  return made.body as { id: string; serviceId: string; idFromService: string };
}

describe('forwarding a message', () => {
  it('sends the text to each contact as a new forwarded message of the caller; the channel gets it marked forwarded', async () => {
    const { owner, contact } = await inboxTeam();
    const b = await anotherContact(owner.token, contact.serviceId, 'Bruna');
    const c = await anotherContact(owner.token, contact.serviceId, 'Caio');
    const source = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Promoção de hoje' },
    });
    expect(source.status).toBe(201);
    const answer = await call('POST', `/messages/${source.body.id}/forward`, {
      token: owner.token,
      body: { contactId: contact.id, toContactIds: [b.id, c.id, b.id] },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toHaveLength(2);
    expect(answer.body.data.map((m: any) => m.contactId)).toEqual([b.id, c.id]);
    for (const m of answer.body.data) {
      expect(m).toMatchObject({ text: 'Promoção de hoje', forwarded: true, isFromMe: true, ack: 0, user: { id: owner.user.id } });
      expect(m.id).not.toBe(source.body.id);
    }
    for (const target of [b, c]) {
      const out = await eventually(async () => (await sentTo(target.idFromService))[0]);
      expect(out.message).toMatchObject({ text: 'Promoção de hoje', forwarded: true, type: 'text' });
      await eventually(async () => (await messagesOf(owner.token, target.id)).body.data[0]?.ack === 1);
    }
    // The source message stays as it was, and is not marked.
    const original = (await messagesOf(owner.token, contact.id)).body.data.find((m: any) => m.id === source.body.id);
    expect(original.forwarded).toBeUndefined();
  });

  it('a file goes as a copy of its own: the same bytes and name, another file id', async () => {
    const { owner, contact } = await inboxTeam();
    const b = await anotherContact(owner.token, contact.serviceId, 'Bruna');
    const bytes = Buffer.from('%PDF-1.4\n% orçamento encaminhado\n');
    const request = await call('POST', '/files/generate-url-to-upload', {
      token: owner.token,
      body: { name: 'orçamento.pdf', mimetype: 'application/pdf', serviceId: contact.serviceId, length: bytes.length, isPtt: false },
    });
    expect((await fetch(request.body.urlToUpload, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes })).status).toBe(200);
    const source = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Segue', type: 'document', fileId: request.body.file.id },
    });
    const answer = await call('POST', `/messages/${source.body.id}/forward`, { token: owner.token, body: { contactId: contact.id, toContactIds: [b.id] } });
    expect(answer.status).toBe(201);
    const [copy] = answer.body.data;
    expect(copy).toMatchObject({
      type: 'document',
      text: 'Segue',
      forwarded: true,
      file: { name: 'orçamento.pdf', mimetype: 'application/pdf', size: bytes.length },
    });
    expect(copy.fileId).not.toBe(source.body.fileId);
    const out = await eventually(async () => (await sentTo(b.idFromService))[0]);
    expect(out.message).toMatchObject({ type: 'document', text: 'Segue', forwarded: true });
    expect(Buffer.from(out.message.file.base64, 'base64')).toEqual(bytes);
    const download = await fetch(copy.file.url);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  it('archived and disconnected targets answer the catalogue per target, and nothing is sent', async () => {
    const { owner, contact } = await inboxTeam();
    const fine = await anotherContact(owner.token, contact.serviceId, 'Bruna');
    const archived = await anotherContact(owner.token, contact.serviceId, 'Arquivada');
    expect((await call('POST', `/contacts/${archived.id}/archive`, { token: owner.token, body: { archive: true } })).status).toBe(200);
    const other = await call('POST', '/services', { token: owner.token, body: { name: 'Outro WhatsApp', type: 'whatsapp' } });
    await setServiceStatus(owner.accountId, other.body.id, 'disconnected');
    const offline = await anotherContact(owner.token, other.body.id, 'Sem conexão');
    const source = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Oi' } });
    const answer = await call('POST', `/messages/${source.body.id}/forward`, {
      token: owner.token,
      body: { contactId: contact.id, toContactIds: [fine.id, archived.id, offline.id] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(errorTexts.invalidParams);
    expect(answer.body.details).toEqual([
      { path: 'toContactIds.1', message: errorTexts.contactArchived },
      { path: 'toContactIds.2', message: errorTexts.serviceDisconnected },
    ]);
    expect((await messagesOf(owner.token, fine.id)).body.totalCount).toBe(0);
  });

  it('the Cloud API target whose 24-hour window is closed is refused with the window’s text', async () => {
    const { owner, contact } = await inboxTeam();
    const cloud = await call('POST', '/services', {
      token: owner.token,
      body: {
        name: 'Oficial',
        type: 'whatsapp_cloud',
        phoneNumberId: `${Date.now()}`,
        wabaId: '1029384756',
        accessToken: `EAAGfwd${Date.now()}`,
        appSecret: 'abcdef0123456789abcdef0123456789',
      },
    });
    expect(cloud.status).toBe(201);
    await setServiceStatus(owner.accountId, cloud.body.id, 'connected');
    const neverWrote = await anotherContact(owner.token, cloud.body.id, 'Nunca escreveu');
    const source = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Oi' } });
    const answer = await call('POST', `/messages/${source.body.id}/forward`, {
      token: owner.token,
      body: { contactId: contact.id, toContactIds: [neverWrote.id] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([{ path: 'toContactIds.0', message: errorTexts.customerWindowClosed }]);
  });

  it('a conversation the caller may not see answers 404, the source’s or a target’s; a note is not forwarded', async () => {
    const { owner, admin, member, contact } = await inboxTeam();
    const hidden = await anotherContact(owner.token, contact.serviceId, 'Da Ana');
    // Assigned to the admin: the member no longer sees it.
    expect((await call('POST', `/contacts/${hidden.id}/transfer`, { token: owner.token, body: { userId: admin.id } })).status).toBe(200);
    const source = await call('POST', '/messages/send', { token: member.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Oi' } });
    expect(source.status).toBe(201);
    const toHidden = await call('POST', `/messages/${source.body.id}/forward`, {
      token: member.token,
      body: { contactId: contact.id, toContactIds: [hidden.id] },
    });
    expect(toHidden.status).toBe(404);
    const fromHidden = await call('POST', `/messages/${source.body.id}/forward`, {
      token: member.token,
      body: { contactId: hidden.id, toContactIds: [contact.id] },
    });
    expect(fromHidden.status).toBe(404);
    const stranger = (await proTeam()).owner;
    const foreign = await call('POST', `/messages/${source.body.id}/forward`, {
      token: stranger.token,
      body: { contactId: contact.id, toContactIds: [contact.id] },
    });
    expect(foreign.status).toBe(404);
    // Only the transfer's system line there.
    expect((await messagesOf(owner.token, hidden.id)).body.data.filter((m: any) => m.kind === 'message')).toEqual([]);

    const note = await call('POST', '/messages/notes', { token: owner.token, body: { contactId: contact.id, text: 'Só para a equipe' } });
    const refused = await call('POST', `/messages/${note.body.id}/forward`, {
      token: owner.token,
      body: { contactId: contact.id, toContactIds: [contact.id] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ path: 'id', message: 'Notas internas e avisos do sistema não podem ser encaminhados' }]);
  });
});
