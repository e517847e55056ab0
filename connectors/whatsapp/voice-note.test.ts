/**
 * A voice note as WhatsApp gets it, on a real browser recording (tests/fixtures/voice.webm, Chrome's
 * fake microphone, repackaged as OGG/Opus as the dispatcher does): `ptt`, the OGG/Opus label, its
 * length and the 64-bar waveform WhatsApp draws (Baileys makes none without its optional
 * `audio-decode` package, so a phone showed a flat line). AAC never goes as a voice note.
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChannelConnection, OutboundMessage } from '#domain/channels/port.ts';
import { webmOpusToOgg } from '#media/webm-opus-to-ogg.ts';
import { SocketDouble } from '../../tests/support/whatsapp-double.ts';
import { liveConnections } from './live.ts';
import { sendThrough } from './send.ts';

const customer = '5511912345678@s.whatsapp.net';
const connection: ChannelConnection = { accountId: 'ACC1', serviceId: 'SVC-VOICE', type: 'whatsapp', token: null };
const recording = webmOpusToOgg(new Uint8Array(readFileSync(new URL('../../tests/fixtures/voice.webm', import.meta.url))), { serial: 7 })!;

const voice = (mimetype: string, bytes: Uint8Array, durationSeconds?: number): OutboundMessage => ({
  messageId: 'MSG-V',
  to: customer,
  type: 'voice',
  text: '',
  replyTo: null,
  file: {
    name: 'gravacao.ogg',
    mimetype,
    size: bytes.length,
    read: async () => bytes,
    url: 'http://bucket/v',
    ...(durationSeconds ? { durationSeconds } : {}),
  },
});

let socket: SocketDouble;
let send: ReturnType<typeof sendThrough>;
beforeEach(() => {
  const sockets = liveConnections();
  socket = new SocketDouble();
  sockets.hold(connection.serviceId, { socket, recent: () => undefined, remember: () => undefined });
  send = sendThrough(sockets);
});

const content = () => socket.sent.at(-1)!.content as { ptt?: boolean; mimetype?: string; seconds?: number; waveform?: Uint8Array; audio?: Buffer };

describe('a voice note on WhatsApp', () => {
  it('goes as ptt, labelled OGG/Opus, with its seconds and a 64-bar waveform (0–100) of its amplitude', async () => {
    await send(connection, voice('audio/ogg; codecs=opus', recording.bytes, recording.durationSeconds));
    const sent = content();
    expect(sent).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus', seconds: Math.max(1, Math.round(recording.durationSeconds)) });
    expect(sent.waveform).toBeInstanceOf(Uint8Array);
    const bars = [...sent.waveform!];
    expect(bars).toHaveLength(64);
    expect(bars.every((b) => Number.isInteger(b) && b >= 0 && b <= 100)).toBe(true);
    expect(Math.max(...bars)).toBe(100);
    // Chrome's fake microphone beeps: the bars follow the sound, not a flat line.
    expect(new Set(bars).size).toBeGreaterThan(4);
    expect(Math.min(...bars)).toBeLessThan(50);
  });

  it('recorded as OGG/Opus in the browser (no length from the dispatcher): seconds read from the stream, labelled for WhatsApp', async () => {
    await send(connection, voice('audio/ogg', recording.bytes));
    const sent = content();
    expect(sent).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus', seconds: Math.max(1, Math.round(recording.durationSeconds)) });
    expect(sent.waveform).toHaveLength(64);
  });

  it('in AAC/MP4 goes as a plain audio file, never as a voice note WhatsApp may not play', async () => {
    const aac = new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x4d, 0x34, 0x41, 0x20]);
    await send(connection, voice('audio/mp4', aac, 3));
    const sent = content();
    expect(sent.ptt).toBeUndefined();
    expect(sent).toMatchObject({ mimetype: 'audio/mp4' });
    expect(sent.waveform).toBeUndefined();
  });

  it('labelled OGG but not decodable: still a voice note, without a waveform rather than a made-up one', async () => {
    await send(connection, voice('audio/ogg; codecs=opus', new Uint8Array([1, 2, 3]), 1.98));
    expect(content()).toEqual({ audio: Buffer.from([1, 2, 3]), ptt: true, mimetype: 'audio/ogg; codecs=opus', seconds: 2 });
  });
});
