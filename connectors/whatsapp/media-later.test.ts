/**
 * Large and slow media (ADR-0176), with the medium delivered as Baileys' download
 * stream delivers it (`mediaStream`: lazily produced, no abort signal honoured, only a destroy
 * stops it): a message is stored before its file, a stalled download holds no other message of the
 * chat and `stop()` does not wait for it, a file declared over the cap is never fetched, and one
 * that turns out larger than declared is cut at the cap. Each ends as a message, never dropped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { proto, type WAMessage } from 'baileys';
import { memoryLedger, mediaStream, until } from '../../tests/support/whatsapp-double.ts';
import { connectedSession } from '../../tests/support/whatsapp-session-harness.ts';
import { maxInboundBytes, readWithin, type DownloadLimits } from './media.ts';
import type { WhatsAppSession, SessionOptions } from './session.ts';

const customer = '5511912345678@s.whatsapp.net';
const MB = 1024 * 1024;
const sessions: WhatsAppSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop()));
});

const document = (id: string, fileLength: number, fileName = 'relatorio.pdf') =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: customer, id, fromMe: false },
    messageTimestamp: 1_767_000_000,
    pushName: 'Maria',
    message: { documentMessage: { mimetype: 'application/pdf', fileName, fileLength, url: 'https://mmg.whatsapp.net/d', directPath: '/d' } },
  }) as WAMessage;
const text = (id: string, body: string) =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: customer, id, fromMe: false },
    messageTimestamp: 1_767_000_000,
    message: { conversation: body },
  }) as WAMessage;

async function openSession(mediaDownload: SessionOptions['mediaDownload']) {
  const ledger = memoryLedger();
  return { ...(await connectedSession(sessions, { ledger: () => ledger, mediaDownload })), ledger };
}

describe('media that are large or slow', () => {
  it('a stalled download holds no other message of the chat, and stop() neither waits for it nor loses it', async () => {
    const streams: ReturnType<typeof mediaStream>[] = [];
    const h = await openSession(() => async (_message: WAMessage, limits: DownloadLimits) => {
      const stream = mediaStream(8 * MB, { stallAfter: MB });
      streams.push(stream);
      return readWithin(stream, limits);
    });
    h.socket.deliver([document('DOC1', 8 * MB), text('TXT1', 'Chegou o arquivo?')]);

    // Both stored at once; the document shows that its file is coming.
    await until(() => h.calls.filter((c) => c.kind === 'message').length === 2);
    const [doc, later] = h.calls.filter((c) => c.kind === 'message');
    expect(doc!.input).toMatchObject({ channelMessageId: 'DOC1', type: 'document', media: { pendingText: 'Recebendo arquivo…' } });
    expect(later!.input).toMatchObject({ channelMessageId: 'TXT1', text: 'Chegou o arquivo?' });
    await until(() => streams[0]?.produced === MB);

    const asked = Date.now();
    await h.session.stop();
    expect(Date.now() - asked).toBeLessThan(500);
    expect(streams[0]!.destroyed).toBe(true);
    // Not attached, not forgotten: the next open (this worker's or another's) fetches it.
    expect(h.calls.some((c) => c.kind === 'attach')).toBe(false);
    expect([...h.ledger.records.keys()]).toEqual([`${h.context.run.serviceId}#DOC1`]);
  });

  it('a file declared over the cap is never fetched: the message says, in pt-BR, that it was too large', async () => {
    let downloads = 0;
    const h = await openSession(() => async () => {
      downloads++;
      return new Uint8Array(0);
    });
    h.socket.deliver([document('BIG1', 1024 * MB, 'backup.zip')]);
    await until(() => h.calls.length === 1);
    await until(() => h.ledger.records.size === 0);
    expect(downloads).toBe(0);
    expect(h.calls[0]!.input).toMatchObject({
      channelMessageId: 'BIG1',
      type: 'text',
      text: 'Arquivo muito grande (máximo 50 MB): backup.zip. Peça ao contato que envie de outra forma.',
      media: null,
    });
  });

  it('a medium larger than it declared is cut at the cap, without holding more than the cap', async () => {
    const streams: ReturnType<typeof mediaStream>[] = [];
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const h = await openSession(() => async (_message: WAMessage, limits: DownloadLimits) => {
      const stream = mediaStream(500 * MB, { chunkBytes: MB });
      streams.push(stream);
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
      }, 5);
      try {
        return await readWithin(stream, limits);
      } finally {
        clearInterval(sampler);
      }
    });
    h.socket.deliver([document('LIAR1', 2 * MB, 'contrato.pdf')]);
    await until(() => h.calls.some((c) => c.kind === 'attach'), 20_000);
    const attach = h.calls.find((c) => c.kind === 'attach')!;
    expect(attach).toMatchObject({ loaded: null, input: { channelMessageId: 'LIAR1' } });
    if (attach.kind === 'attach')
      expect(attach.input.media.unavailableText).toBe('Arquivo muito grande (máximo 50 MB): contrato.pdf. Peça ao contato que envie de outra forma.');
    expect(streams[0]!.produced).toBeLessThanOrEqual(maxInboundBytes('document') + 2 * MB);
    expect(streams[0]!.destroyed).toBe(true);
    expect(peak).toBeLessThan(maxInboundBytes('document') + 16 * MB);
    await until(() => h.ledger.records.size === 0);
  }, 30_000);
});
