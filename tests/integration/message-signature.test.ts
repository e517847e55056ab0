/**
 * Signed messages (ADR-0219): with 'Assinar mensagens com o nome do atendente'
 * on, the channel double receives the author's name line before the text (bold on WhatsApp, plain
 * on Telegram), the conversation keeps the text as typed marked `signed`, a retry signs alike, and
 * a person who opted out ('Não assinar minhas mensagens') sends unsigned.
 */
import { describe, expect, it } from 'vitest';
import { defaultAutomationSettings } from '#contracts/automations.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { eventually, fakeChannel } from './worker.ts';

async function sentTo(idFromService: string) {
  return (await fakeChannel.sent()).filter((s) => s.message.to === idFromService);
}

async function signingTeam(type: 'whatsapp' | 'telegram') {
  const team = await inboxTeam(type);
  const saved = await call('PUT', '/automations', { token: team.admin.token, body: { ...defaultAutomationSettings, signMessages: true } });
  expect(saved.status).toBe(200);
  expect(saved.body.signMessages).toBe(true);
  return team;
}

const messagesOf = (token: string, contactId: string) => call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token });

const send = (token: string, contact: { id: string; serviceId: string }, text: string) =>
  call('POST', '/messages/send', { token, body: { contactId: contact.id, serviceId: contact.serviceId, text } });

describe('signed messages', () => {
  it('are off by default: the text goes as typed', async () => {
    const { owner, contact } = await inboxTeam();
    const answer = await send(owner.token, contact, 'Sem assinatura');
    expect(answer.body.signed).toBeUndefined();
    const out = await eventually(async () => (await sentTo(contact.idFromService))[0]);
    expect(out.message.text).toBe('Sem assinatura');
  });

  it('on WhatsApp the name goes bold on its own line; the conversation shows the text as typed, and a retry signs alike', async () => {
    const { owner, contact } = await signingTeam('whatsapp');
    await fakeChannel.script([{ to: contact.idFromService, reason: 'Falhou uma vez', permanent: true }]);
    const answer = await send(owner.token, contact, 'Olá! Posso ajudar?');
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ text: 'Olá! Posso ajudar?', signed: true, user: { name: 'Dona Teste' } });
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data[0].ack === -2);
    const retried = await call('POST', `/messages/${answer.body.id}/retry`, { token: owner.token, body: { contactId: contact.id } });
    expect(retried.status).toBe(200);
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data[0].ack === 1);
    const texts = (await sentTo(contact.idFromService)).map((s) => s.message.text);
    expect(texts).toEqual(['*Dona Teste:*\nOlá! Posso ajudar?', '*Dona Teste:*\nOlá! Posso ajudar?']);
    expect((await messagesOf(owner.token, contact.id)).body.data[0]).toMatchObject({ text: 'Olá! Posso ajudar?', signed: true });
  });

  it("a file's caption goes signed; a file with no caption goes as it is", async () => {
    const { owner, contact } = await signingTeam('whatsapp');
    const upload = async () => {
      const bytes = Buffer.from('%PDF-1.4\n% assinado\n');
      const request = await call('POST', '/files/generate-url-to-upload', {
        token: owner.token,
        body: { name: 'pedido.pdf', mimetype: 'application/pdf', serviceId: contact.serviceId, length: bytes.length, isPtt: false },
      });
      expect((await fetch(request.body.urlToUpload, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes })).status).toBe(200);
      return request.body.file.id as string;
    };
    const body = (text: string, fileId: string) => ({ contactId: contact.id, serviceId: contact.serviceId, text, type: 'document', fileId });
    const captioned = await call('POST', '/messages/send', { token: owner.token, body: body('Seu pedido', await upload()) });
    expect(captioned.body.signed).toBe(true);
    await eventually(async () => (await sentTo(contact.idFromService)).length === 1);
    const bare = await call('POST', '/messages/send', { token: owner.token, body: body('', await upload()) });
    expect(bare.body.signed).toBeUndefined();
    const out = await eventually(async () => {
      const all = await sentTo(contact.idFromService);
      return all.length === 2 && all;
    });
    expect(out.map((s) => [s.message.type, s.message.text])).toEqual([
      ['document', '*Dona Teste:*\nSeu pedido'],
      ['document', ''],
    ]);
  });

  it('on Telegram the name line is plain text', async () => {
    const { owner, contact } = await signingTeam('telegram');
    await send(owner.token, contact, 'Já te respondo');
    const out = await eventually(async () => (await sentTo(contact.idFromService))[0]);
    expect(out.message.text).toBe('Dona Teste:\nJá te respondo');
  });

  it("a person who chose 'Não assinar minhas mensagens' sends unsigned; only they may choose it", async () => {
    const { owner, admin, contact } = await signingTeam('whatsapp');
    const me = await call('GET', `/users/${admin.id}`, { token: admin.token });
    const byOwner = await call('PUT', `/users/${admin.id}`, { token: owner.token, body: { name: me.body.name, email: me.body.email, skipSignature: true } });
    expect(byOwner.status).toBe(403);
    const opted = await call('PUT', `/users/${admin.id}`, { token: admin.token, body: { name: me.body.name, email: me.body.email, skipSignature: true } });
    expect(opted.status).toBe(200);
    expect(opted.body.skipSignature).toBe(true);
    const answer = await send(admin.token, contact, 'Sem meu nome');
    expect(answer.body.signed).toBeUndefined();
    const out = await eventually(async () => (await sentTo(contact.idFromService))[0]);
    expect(out.message.text).toBe('Sem meu nome');
  });
});
