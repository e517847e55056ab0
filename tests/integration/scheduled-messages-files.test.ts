/**
 * A scheduled message with an attachment (ADR-0224), end to end over the shared runtime: the file
 * uploaded as the app does (a presigned PUT to the bucket), scheduled for a contact, fired by the
 * timers' poller on a moved clock; the channel double receives the file's bytes once with the text
 * as its caption, and a send the channel refuses shows its reason on the bubble.
 */
import { describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { wallClock } from '#domain/business-hours/zoned-time.ts';
import type { Ports } from '#domain/ports.ts';
import { fireDueScheduledMessages } from '#domain/scheduled-messages/fire-scheduled-messages.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { eventually, fakeChannel, workerPorts } from './worker.ts';

const MINUTE = 60_000;
const later = (ms: number): Ports => ({ ...workerPorts(), clock: () => new Date(Date.now() + ms) });

function inSaoPaulo(ms: number): { date: string; time: string } {
  const { date, minutes } = wallClock(Date.now() + ms, 'America/Sao_Paulo');
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date, time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` };
}

type Team = Awaited<ReturnType<typeof inboxTeam>>;
const thread = async (team: Team) =>
  (await call('GET', `/messages${listQueryString({ where: { contactId: team.contact.id } })}`, { token: team.owner.token })).body.data as any[];
const sentTo = async (team: Team) => (await fakeChannel.sent()).filter((s) => s.message.to === team.contact.idFromService);

/** Uploads `bytes` as the composer does: a presigned URL, then a PUT to the bucket. */
async function upload(team: Team, name: string, bytes: Buffer): Promise<string> {
  const request = await call('POST', '/files/generate-url-to-upload', {
    token: team.owner.token,
    body: { name, mimetype: 'application/pdf', serviceId: team.service.id, length: bytes.length, isPtt: false },
  });
  expect(request.status).toBe(200);
  expect((await fetch(request.body.urlToUpload, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(bytes) })).status).toBe(
    200,
  );
  return request.body.file.id as string;
}

async function schedule(team: Team, fileId: string, text: string) {
  const created = await call('POST', '/scheduled-messages', {
    token: team.owner.token,
    body: { contactId: team.contact.id, text, fileId, ...inSaoPaulo(10 * MINUTE), repeat: 'once' },
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe('a scheduled message with an attachment', () => {
  it('goes out once when due: the file with its caption reaches the channel', async () => {
    const team = await inboxTeam();
    const bytes = Buffer.from('%PDF-1.4\n% boleto de novembro\n');
    const fileId = await upload(team, 'boleto-novembro.pdf', bytes);
    const created = await schedule(team, fileId, 'Segue o seu boleto');
    expect(created.file).toMatchObject({ id: fileId, name: 'boleto-novembro.pdf', mimetype: 'application/pdf' });

    expect((await fireDueScheduledMessages(later(5 * MINUTE))).sent).toBe(0);
    const runs = await Promise.all([fireDueScheduledMessages(later(11 * MINUTE)), fireDueScheduledMessages(later(11 * MINUTE))]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect((await fireDueScheduledMessages(later(12 * MINUTE))).sent).toBe(0);

    await eventually(async () => (await thread(team))[0]?.ack === 1);
    const sent = await sentTo(team);
    expect(sent).toHaveLength(1);
    expect(sent[0].message).toMatchObject({
      text: 'Segue o seu boleto',
      file: { name: 'boleto-novembro.pdf', mimetype: 'application/pdf', size: bytes.length },
    });
    expect(Buffer.from(sent[0].message.file.base64, 'base64').equals(bytes)).toBe(true);
    const messages = await thread(team);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ type: 'document', text: 'Segue o seu boleto', error: null, file: { name: 'boleto-novembro.pdf', size: bytes.length } });
  });

  it('refused by the channel: the bubble says why, and it is not sent again', async () => {
    const team = await inboxTeam();
    const fileId = await upload(team, 'contrato.pdf', Buffer.from('%PDF-1.4\n% contrato\n'));
    await schedule(team, fileId, 'Contrato para assinar');
    await fakeChannel.script([{ to: team.contact.idFromService, reason: 'Arquivo recusado pelo canal', permanent: true }]);
    expect((await fireDueScheduledMessages(later(11 * MINUTE))).sent).toBe(1);

    const [failed] = await eventually(async () => {
      const list = await thread(team);
      return list[0]?.ack === -2 ? list : null;
    });
    expect(failed).toMatchObject({ type: 'document', text: 'Contrato para assinar', error: 'Arquivo recusado pelo canal' });
    expect((await fireDueScheduledMessages(later(20 * MINUTE))).sent).toBe(0);
    expect(await sentTo(team)).toHaveLength(1);
    expect(await thread(team)).toHaveLength(1);
  });
});
