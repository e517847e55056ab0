/**
 * The upload contract and voice notes: a push-to-talk upload must be Opus (OGG or WebM), what every
 * channel plays as a voice note; Safari's AAC/MP4 is refused as a voice note with a pt-BR reason
 * (the web app records OGG/Opus there instead), and inline bytes must be what their label says.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webmOpusToOgg } from '#media/webm-opus-to-ogg.ts';
import { uploadRequestPayload, voiceNoteNotOpusText } from './files.ts';

const webm = new Uint8Array(readFileSync(new URL('../../tests/fixtures/voice.webm', import.meta.url)));
const ogg = webmOpusToOgg(webm)!.bytes;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const request = (mimetype: string, bytes: Uint8Array, isPtt = true) => ({
  name: 'gravacao',
  mimetype,
  serviceId: 'SVC1',
  length: bytes.length,
  isPtt,
  base64: b64(bytes),
});
const m4a = new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x4d, 0x34, 0x41, 0x20, 0, 0, 0, 0]);
const issues = (input: unknown) => uploadRequestPayload.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe('a voice note upload', () => {
  it('is accepted as OGG/Opus or WebM/Opus', () => {
    expect(issues(request('audio/ogg', ogg))).toEqual([]);
    expect(issues(request('audio/ogg; codecs=opus', ogg))).toEqual([]);
    expect(issues(request('audio/webm', webm))).toEqual([]);
    expect(issues(request('audio/webm;codecs=opus', webm))).toEqual([]);
  });

  it('in AAC/MP4 (Safari’s MediaRecorder) is refused as a voice note, with the reason in pt-BR', () => {
    expect(issues(request('audio/mp4', m4a))).toEqual([voiceNoteNotOpusText]);
    expect(issues(request('audio/aac', m4a))).toEqual([voiceNoteNotOpusText]);
    expect(voiceNoteNotOpusText).toBe('Mensagem de voz precisa ser OGG/Opus ou WebM/Opus');
  });

  it('labelled Opus but carrying other bytes inline is refused too', () => {
    expect(issues(request('audio/ogg', m4a))).toEqual([voiceNoteNotOpusText]);
    expect(issues(request('audio/webm', ogg))).toEqual([voiceNoteNotOpusText]);
  });

  it('the same AAC as a plain audio file (not push-to-talk) is still accepted', () => {
    expect(issues(request('audio/mp4', m4a, false))).toEqual([]);
  });
});
