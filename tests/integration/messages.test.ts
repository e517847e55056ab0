import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { realtimeEvent } from '#contracts/realtime.ts';
import { receiveAck, receiveMessage } from '#domain/messages/inbound.ts';
import { webmOpusToOgg } from '#media/webm-opus-to-ogg.ts';
import { call, proTeam } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { listen } from './realtime-client.ts';
import { eventually, fakeChannel, setServiceStatus, workerPorts } from './worker.ts';

const messagesOf = (token: string, contactId: string, extra: object = {}) =>
  call('GET', `/messages${listQueryString({ where: { contactId }, ...extra })}`, { token });

async function sentTo(idFromService: string) {
  return (await fakeChannel.sent()).filter((s) => s.message.to === idFromService);
}

describe('sending', () => {
  it('stores the message at once with ack 0 and the sender, then the channel moves it to ack 1', async () => {
    const { owner, contact } = await inboxTeam();
    const answer = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Olá! Como posso ajudar?' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      text: 'Olá! Como posso ajudar?',
      type: 'text',
      isFromMe: true,
      ack: 0,
      user: { id: owner.user.id, name: owner.user.name },
    });
    const delivered = await eventually(async () => (await sentTo(contact.idFromService))[0]);
    expect(delivered.message).toMatchObject({ text: 'Olá! Como posso ajudar?', type: 'text', to: contact.idFromService, replyTo: null });
    const sent = await eventually(async () => {
      const page = await messagesOf(owner.token, contact.id);
      return page.body.data[0].ack === 1 && page.body;
    });
    expect(sent.totalCount).toBe(1);
    const updated = await call('GET', `/contacts/${contact.id}`, { token: owner.token });
    expect(updated.body.lastMessage).toMatchObject({ id: answer.body.id, text: 'Olá! Como posso ajudar?', isFromMe: true });
    expect(updated.body.unread).toBe(0);
  });

  it('a refusal moves the message to ack -2 with the reason, and it can be sent again', async () => {
    const { owner, contact } = await inboxTeam();
    await fakeChannel.script([{ to: contact.idFromService, reason: 'O cliente bloqueou o bot', permanent: true }]);
    const answer = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Oi' } });
    const failed = await eventually(async () => {
      const m = (await messagesOf(owner.token, contact.id)).body.data[0];
      return m.ack === -2 && m;
    });
    expect(failed.error).toBe('O cliente bloqueou o bot');
    const retried = await call('POST', `/messages/${answer.body.id}/retry`, { token: owner.token, body: { contactId: contact.id } });
    expect(retried.status).toBe(200);
    expect(retried.body.ack).toBe(0);
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data[0].ack === 1);
    expect(await sentTo(contact.idFromService)).toHaveLength(2);
    const again = await call('POST', `/messages/${answer.body.id}/retry`, { token: owner.token, body: { contactId: contact.id } });
    expect(again.body.message).toBe('Only failed messages can be sent again');
    const unknown = await call('POST', '/messages/01JZZZZZZZZZZZZZZZZZZZZZZZ/retry', { token: owner.token, body: { contactId: contact.id } });
    expect(unknown.status).toBe(404);
  });

  it('waits as long as the channel asks and tries again (flood wait)', async () => {
    const { owner, contact } = await inboxTeam();
    await fakeChannel.script([{ to: contact.idFromService, reason: 'Muitas mensagens', retryAfterSeconds: 1 }]);
    await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Calma' } });
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data[0].ack === 1, 8000);
    const tries = await sentTo(contact.idFromService);
    expect(tries).toHaveLength(2);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(950);
  });

  it('refuses empty text, an archived contact and a disconnected connection', async () => {
    const { owner, contact, service } = await inboxTeam();
    const empty = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: '   \n ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Invalid params');

    await setServiceStatus(owner.accountId, service.id, 'disconnected');
    const offline = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Oi' } });
    expect(offline.body.message).toBe('The connection is not connected');
    await setServiceStatus(owner.accountId, service.id, 'connected');

    await call('POST', `/contacts/${contact.id}/archive`, { token: owner.token, body: { archive: true } });
    const archived = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Oi' } });
    expect(archived.body.message).toBe('The contact is archived');
    expect((await messagesOf(owner.token, contact.id)).body.totalCount).toBe(0);
  });

  it('replies carry the quoted message and the channel id to reply to', async () => {
    const { owner, contact } = await inboxTeam();
    const ports = workerPorts();
    const incoming = await receiveMessage(
      ports,
      { accountId: owner.accountId, serviceId: contact.serviceId },
      {
        channelMessageId: `in-${Date.now()}`,
        chat: { idFromService: contact.idFromService, name: contact.name, isGroup: false },
        isFromMe: false,
        type: 'text',
        text: 'Qual o preço?',
        timestamp: new Date().toISOString(),
      },
    );
    const reply = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: 'R$ 10', replyMessageId: incoming!.id },
    });
    expect(reply.body.quotedMessage).toMatchObject({ id: incoming!.id, text: 'Qual o preço?', isFromMe: false });
    const out = await eventually(async () => (await sentTo(contact.idFromService)).find((s) => s.message.text === 'R$ 10'));
    expect(out.message.replyTo).toBe(incoming!.channelMessageId);
  });
});

describe('receiving', () => {
  it('stores an inbound message once, creates an unknown sender, counts unread; reading clears it', async () => {
    const { owner, service } = await inboxTeam();
    const ports = workerPorts();
    const from = { accountId: owner.accountId, serviceId: service.id };
    const input = {
      channelMessageId: `wamid-${Date.now()}`,
      chat: { idFromService: '5521999990000@s.whatsapp.net', name: 'Cliente Novo', isGroup: false, phoneNumber: '5521999990000' },
      isFromMe: false,
      type: 'text' as const,
      text: 'Bom dia!',
      timestamp: new Date().toISOString(),
    };
    const first = await receiveMessage(ports, from, input);
    expect(first).toBeTruthy();
    expect(await receiveMessage(ports, from, input)).toBeNull();
    const contacts = await call('GET', `/contacts${listQueryString({ where: { idFromService: input.chat.idFromService } })}`, { token: owner.token });
    expect(contacts.body.totalCount).toBe(1);
    const contact = contacts.body.data[0];
    expect(contact).toMatchObject({ name: 'Cliente Novo', unread: 1, lastMessage: { text: 'Bom dia!', isFromMe: false } });
    expect((await messagesOf(owner.token, contact.id)).body.totalCount).toBe(1);
    await receiveMessage(ports, from, { ...input, channelMessageId: `${input.channelMessageId}-2`, text: 'Tem alguém aí?' });
    expect((await call('GET', `/contacts/${contact.id}`, { token: owner.token })).body.unread).toBe(2);
    const read = await call('POST', `/contacts/${contact.id}/read`, { token: owner.token });
    expect(read.body.unread).toBe(0);
  });

  it('acks move forward only, except to deleted', async () => {
    const { owner, contact } = await inboxTeam();
    await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Pedido enviado' } });
    const sent = await eventually(async () => {
      const m = (await messagesOf(owner.token, contact.id)).body.data[0];
      return m.ack === 1 && m;
    });
    const channelMessageId =
      (await sentTo(contact.idFromService)).length &&
      (await eventually(async () => {
        const { getMessageItem } = await import('#db/messages.ts');
        return (await getMessageItem(workerPorts().table, owner.accountId, contact.id, sent.id))?.channelMessageId;
      }));
    const ports = workerPorts();
    const ackTo = (ack: number) =>
      receiveAck(ports, { accountId: owner.accountId, serviceId: contact.serviceId }, { channelMessageId: channelMessageId as string, ack });
    expect((await ackTo(3))?.ack).toBe(3);
    expect((await ackTo(2))?.ack).toBe(3);
    expect((await ackTo(4))?.ack).toBe(4);
    expect((await ackTo(-1))?.ack).toBe(-1);
    expect((await ackTo(3))?.ack).toBe(-1);
    const contactNow = await call('GET', `/contacts/${contact.id}`, { token: owner.token });
    expect(contactNow.body.lastMessage.ack).toBe(-1);
  });
});

describe('message pages', () => {
  it('come newest first, 10 a page, by page number or by cursor', async () => {
    const { owner, contact } = await inboxTeam();
    const ports = workerPorts();
    const base = Date.now() - 60_000;
    for (let i = 0; i < 23; i++) {
      await receiveMessage(
        ports,
        { accountId: owner.accountId, serviceId: contact.serviceId },
        {
          channelMessageId: `m-${base}-${i}`,
          chat: { idFromService: contact.idFromService, name: contact.name, isGroup: false },
          isFromMe: false,
          type: 'text',
          text: `msg ${i}`,
          timestamp: new Date(base + i * 1000).toISOString(),
        },
      );
    }
    const first = await messagesOf(owner.token, contact.id);
    expect(first.body.totalCount).toBe(23);
    expect(first.body.data.map((m: any) => m.text)).toEqual(Array.from({ length: 10 }, (_, i) => `msg ${22 - i}`));
    const third = await messagesOf(owner.token, contact.id, { page: 2 });
    expect(third.body.data.map((m: any) => m.text)).toEqual(['msg 2', 'msg 1', 'msg 0']);
    const cursor = await call('GET', `/messages${listQueryString({ where: { contactId: contact.id, id: { lt: first.body.data[9].id } } })}`, {
      token: owner.token,
    });
    expect(cursor.body.data[0].text).toBe('msg 12');
    // Deep page numbers are refused with the catalogue's 400; the cursor reaches any depth.
    const deep = await messagesOf(owner.token, contact.id, { page: 101 });
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe('Invalid params');
    expect(deep.body.details).toEqual([{ path: 'query.page', message: expect.stringContaining('cursor') }]);
    expect((await messagesOf(owner.token, contact.id, { page: 100 })).status).toBe(200);
  });

  it('need a contact of the caller', async () => {
    const { contact } = await inboxTeam();
    const other = await proTeam();
    expect((await messagesOf(other.owner.token, contact.id)).status).toBe(404);
    expect((await call('GET', '/messages', { token: other.owner.token })).status).toBe(400);
  });
});

describe('uploads', () => {
  it('round-trips a file: presigned PUT, send with fileId, the channel gets the bytes, the list gives a download URL', async () => {
    const { owner, contact } = await inboxTeam();
    const bytes = Buffer.from('%PDF-1.4\n% a tiny test document\n');
    const request = await call('POST', '/files/generate-url-to-upload', {
      token: owner.token,
      body: { name: 'orçamento.pdf', mimetype: 'application/pdf', serviceId: contact.serviceId, length: bytes.length, isPtt: false },
    });
    expect(request.status).toBe(200);
    expect(request.body.file).toMatchObject({ type: 'document', mimetype: 'application/pdf' });
    const put = await fetch(request.body.urlToUpload, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
    expect(put.status).toBe(200);
    const sent = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Segue o orçamento', type: 'document', fileId: request.body.file.id },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ type: 'document', file: { name: 'orçamento.pdf', mimetype: 'application/pdf', size: bytes.length } });
    const out = await eventually(async () => (await sentTo(contact.idFromService))[0]);
    expect(Buffer.from(out.message.file.base64, 'base64')).toEqual(bytes);
    const listed = (await messagesOf(owner.token, contact.id)).body.data[0];
    const download = await fetch(listed.file.url);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  it('voice notes may come inline as base64 and go out as voice', async () => {
    const { owner, contact } = await inboxTeam();
    // An OGG/Opus recording (what the web app records where the browser has no WebM): the upload checks its header.
    const audio = Buffer.from(webmOpusToOgg(readFileSync(new URL('../fixtures/voice.webm', import.meta.url)))!.bytes);
    const request = await call('POST', '/files/generate-url-to-upload', {
      token: owner.token,
      body: { name: 'gravacao.ogg', mimetype: 'audio/ogg', serviceId: contact.serviceId, length: audio.length, isPtt: true, base64: audio.toString('base64') },
    });
    expect(request.body.file.type).toBe('voice');
    const sent = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: '', type: 'voice', fileId: request.body.file.id },
    });
    expect(sent.body.type).toBe('voice');
    const out = await eventually(async () => (await sentTo(contact.idFromService))[0]);
    expect(out.message.type).toBe('voice');
  });

  it('a voice note recorded as WebM/Opus reaches the channel as OGG/Opus, while the stored file stays as recorded', async () => {
    const { owner, contact } = await inboxTeam();
    const webm = readFileSync(new URL('../fixtures/voice.webm', import.meta.url));
    const request = await call('POST', '/files/generate-url-to-upload', {
      token: owner.token,
      body: {
        name: 'gravacao.webm',
        mimetype: 'audio/webm;codecs=opus',
        serviceId: contact.serviceId,
        length: webm.length,
        isPtt: true,
        base64: webm.toString('base64'),
      },
    });
    expect(request.body.file.type).toBe('voice');
    await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: '', type: 'voice', fileId: request.body.file.id },
    });
    const out = await eventually(async () => (await sentTo(contact.idFromService))[0]);
    const bytes = Buffer.from(out.message.file.base64, 'base64');
    expect(out.message.type).toBe('voice');
    expect(out.message.file).toMatchObject({ name: 'gravacao.ogg', mimetype: 'audio/ogg; codecs=opus', size: bytes.length });
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(bytes.includes('OpusHead')).toBe(true);
    const listed = (await messagesOf(owner.token, contact.id)).body.data[0];
    const download = await fetch(listed.file.url);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(webm);
  });

  it('refuses types off the list, files too big, and sending a file never uploaded', async () => {
    const { owner, contact } = await inboxTeam();
    const ask = (body: object) =>
      call('POST', '/files/generate-url-to-upload', { token: owner.token, body: { serviceId: contact.serviceId, isPtt: false, ...body } });
    const exe = await ask({ name: 'virus.exe', mimetype: 'application/x-msdownload', length: 10 });
    expect(exe.body.details).toEqual([{ path: 'mimetype', message: 'Tipo de arquivo não permitido' }]);
    const huge = await ask({ name: 'foto.jpg', mimetype: 'image/jpeg', length: 6 * 1024 * 1024 });
    expect(huge.body.details).toEqual([{ path: 'length', message: 'Arquivo muito grande (máximo 5 MB)' }]);
    const never = await ask({ name: 'foto.jpg', mimetype: 'image/jpeg', length: 100 });
    const send = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.id, serviceId: contact.serviceId, text: '', fileId: never.body.file.id },
    });
    expect(send.body.message).toBe('The file was not uploaded');
  });

  it("keeps each account's files to itself", async () => {
    const a = await inboxTeam();
    const b = await inboxTeam();
    const request = await call('POST', '/files/generate-url-to-upload', {
      token: a.owner.token,
      body: { name: 'a.pdf', mimetype: 'application/pdf', serviceId: a.contact.serviceId, length: 4, isPtt: false },
    });
    expect(request.body.urlToUpload).toContain(`accounts/${a.owner.accountId}/`);
    const stolen = await call('POST', '/messages/send', {
      token: b.owner.token,
      body: { contactId: b.contact.id, serviceId: b.contact.serviceId, text: '', fileId: request.body.file.id },
    });
    expect(stolen.status).toBe(400);
    const foreign = await call('POST', '/files/generate-url-to-upload', {
      token: b.owner.token,
      body: { name: 'a.pdf', mimetype: 'application/pdf', serviceId: a.contact.serviceId, length: 4, isPtt: false },
    });
    expect(foreign.status).toBe(400);
  });
});

describe('realtime events', () => {
  it('a send reaches the WebSocket clients of the same account only, as CREATED then UPDATED', async () => {
    const { owner, member, contact } = await inboxTeam();
    const stranger = await inboxTeam();
    const [mine, colleague, theirs] = await Promise.all([listen(owner.token), listen(member.token), listen(stranger.owner.token)]);
    try {
      const sent = await call('POST', '/messages/send', {
        token: owner.token,
        body: { contactId: contact.id, serviceId: contact.serviceId, text: 'Tempo real' },
      });
      const created = await mine.waitFor((e) => e.event === 'message.CREATED' && e.data.id === sent.body.id);
      expect(created.data).toMatchObject({ text: 'Tempo real', ack: 0, contactId: contact.id });
      await colleague.waitFor((e) => e.event === 'message.CREATED' && e.data.id === sent.body.id);
      await mine.waitFor((e) => e.event === 'message.UPDATED' && e.data.id === sent.body.id && e.data.ack === 1);
      await mine.waitFor((e) => e.event === 'contact.UPDATED' && e.data.id === contact.id && e.data.lastMessage?.id === sent.body.id);
      await new Promise((r) => setTimeout(r, 200));
      expect(theirs.events.filter((e) => JSON.stringify(e).includes(sent.body.id))).toEqual([]);
      expect(theirs.events.filter((e) => e.event.startsWith('message.') || e.event.startsWith('contact.'))).toEqual([]);
      expect(mine.events.filter((e) => !realtimeEvent.safeParse(e).success)).toEqual([]);
    } finally {
      mine.close();
      colleague.close();
      theirs.close();
    }
  });

  it('inbound messages, new contacts, connection and user changes become events', async () => {
    const { owner, service, member } = await inboxTeam();
    const log = await listen(owner.token);
    try {
      await receiveMessage(
        workerPorts(),
        { accountId: owner.accountId, serviceId: service.id },
        {
          channelMessageId: `rt-${Date.now()}`,
          chat: { idFromService: '5531988887777@s.whatsapp.net', name: 'Alguém', isGroup: false },
          isFromMe: false,
          type: 'text',
          text: 'Oi!',
          timestamp: new Date().toISOString(),
        },
      );
      await log.waitFor((e) => e.event === 'contact.CREATED' && e.data.name === 'Alguém');
      await log.waitFor((e) => e.event === 'message.CREATED' && e.data.text === 'Oi!' && e.data.isFromMe === false);
      await log.waitFor((e) => e.event === 'contact.UPDATED' && e.data.unread === 1);
      await call('PUT', `/services/${service.id}`, { token: owner.token, body: { name: 'Renomeada' } });
      await log.waitFor((e) => e.event === 'service.UPDATED' && e.data.name === 'Renomeada' && !JSON.stringify(e.data).includes('tokenSealed'));
      await call('PUT', `/users/${member.id}`, { token: member.token, body: { name: 'Membro Renomeado', email: member.email } });
      const userEvent = await log.waitFor((e) => e.event === 'user.UPDATED' && e.data.id === member.id);
      expect(JSON.stringify(userEvent)).not.toContain('passwordHash');
      await call('PUT', `/accounts/${owner.accountId}`, { token: owner.token, body: { name: 'Nova Razão' } });
      await log.waitFor((e) => e.event === 'account.UPDATED' && e.data.name === 'Nova Razão');
      // Every event the browser gets reads with the shared contract (otherwise the app ignores it).
      expect(log.events.filter((e) => !realtimeEvent.safeParse(e).success)).toEqual([]);
    } finally {
      log.close();
    }
  });
});
