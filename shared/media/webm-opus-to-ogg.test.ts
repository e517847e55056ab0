/**
 * The WebM → OGG repackaging on a real recording: `tests/fixtures/voice.webm` is ~2 s that Chrome's
 * MediaRecorder made (`scripts/make-voice-fixture.ts`). The Ogg side is checked with a parser of its
 * own here (pages, CRC, flags, granules), and the WebM side with a tiny block counter of its own,
 * so neither check leans on the code under test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { opusPacketSamples, webmOpusToOgg } from './webm-opus-to-ogg.ts';

const fixture = new Uint8Array(readFileSync(new URL('../../tests/fixtures/voice.webm', import.meta.url)));

// ─── An independent Ogg reader ─────────────────────────────────────────────────────────────────

interface Page {
  headerType: number;
  granule: bigint;
  serial: number;
  sequence: number;
  crcOk: boolean;
  packets: Uint8Array[];
  /** Whether the page's last packet continues on the next page. */
  open: boolean;
}

/** The CRC the Ogg spec defines, bit by bit (no table), over the page with its CRC field zeroed. */
function referenceCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

function readPages(bytes: Uint8Array): Page[] {
  const pages: Page[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const view = new DataView(bytes.buffer, bytes.byteOffset + pos);
    expect(String.fromCharCode(...bytes.subarray(pos, pos + 4))).toBe('OggS');
    expect(bytes[pos + 4]).toBe(0);
    const count = bytes[pos + 26]!;
    const lacing = [...bytes.subarray(pos + 27, pos + 27 + count)];
    const length = 27 + count + lacing.reduce((a, b) => a + b, 0);
    const copy = bytes.slice(pos, pos + length);
    copy.fill(0, 22, 26);
    const packets: Uint8Array[] = [];
    let start = pos + 27 + count;
    let size = 0;
    for (const value of lacing) {
      size += value;
      if (value < 255) {
        packets.push(bytes.subarray(start, start + size));
        start += size;
        size = 0;
      }
    }
    pages.push({
      headerType: bytes[pos + 5]!,
      granule: view.getBigInt64(6, true),
      serial: view.getUint32(14, true),
      sequence: view.getUint32(18, true),
      crcOk: view.getUint32(22, true) === referenceCrc(copy),
      packets,
      open: lacing.at(-1) === 255,
    });
    pos += length;
  }
  return pages;
}

// ─── An independent WebM block counter ─────────────────────────────────────────────────────────

/** SimpleBlocks in a WebM file: a flat walk entering Segment and Cluster, skipping everything else. */
function countSimpleBlocks(bytes: Uint8Array): number {
  const readVint = (pos: number, mask: boolean) => {
    const length = Math.clz32(bytes[pos]!) - 23;
    let value = mask ? bytes[pos]! & (0xff >> length) : bytes[pos]!;
    for (let i = 1; i < length; i++) value = value * 256 + bytes[pos + i]!;
    return { length, value, unknown: mask && value === 2 ** (7 * length) - 1 };
  };
  let count = 0;
  let pos = 0;
  while (pos < bytes.length) {
    const id = readVint(pos, false);
    const size = readVint(pos + id.length, true);
    const data = pos + id.length + size.length;
    if (id.value === 0xa3) count++;
    pos = id.value === 0x18538067 || id.value === 0x1f43b675 ? data : data + size.value;
  }
  return count;
}

describe('webmOpusToOgg', () => {
  const result = webmOpusToOgg(fixture, { serial: 0x1234abcd });
  if (!result) throw new Error('the fixture did not convert');
  const pages = readPages(result.bytes);
  const audioPages = pages.slice(2);
  const audioPackets = audioPages.flatMap((p) => p.packets);

  it('writes pages whose CRCs verify, in one stream with increasing sequence numbers', () => {
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const [i, page] of pages.entries()) {
      expect(page.crcOk, `page ${i} CRC`).toBe(true);
      expect(page.serial).toBe(0x1234abcd);
      expect(page.sequence).toBe(i);
      expect(page.open).toBe(false);
    }
  });

  it('marks the first page BOS and the last EOS, and no other', () => {
    expect(pages.map((p) => p.headerType & 0x02)).toEqual(pages.map((_, i) => (i === 0 ? 0x02 : 0)));
    expect(pages.map((p) => p.headerType & 0x04)).toEqual(pages.map((_, i) => (i === pages.length - 1 ? 0x04 : 0)));
    expect(pages.every((p) => (p.headerType & 0x01) === 0)).toBe(true);
  });

  it('starts with OpusHead alone on page 1 and OpusTags (vendor Conversa) alone on page 2, at granule 0', () => {
    const [head, tags] = pages as [Page, Page];
    expect(head.packets).toHaveLength(1);
    expect(String.fromCharCode(...head.packets[0]!.subarray(0, 8))).toBe('OpusHead');
    expect(head.packets[0]![8]).toBe(1); // version
    expect(head.packets[0]![9]).toBe(1); // Chrome's fake microphone is mono
    expect(tags.packets).toHaveLength(1);
    const tagBytes = tags.packets[0]!;
    expect(String.fromCharCode(...tagBytes.subarray(0, 8))).toBe('OpusTags');
    const vendorLength = new DataView(tagBytes.buffer, tagBytes.byteOffset).getUint32(8, true);
    expect(String.fromCharCode(...tagBytes.subarray(12, 12 + vendorLength))).toBe('Conversa');
    expect([head.granule, tags.granule]).toEqual([0n, 0n]);
  });

  it('copies one packet per SimpleBlock, ≤ 255 lacing values a page', () => {
    const blocks = countSimpleBlocks(fixture);
    expect(blocks).toBeGreaterThan(20);
    expect(audioPackets).toHaveLength(blocks);
    expect(result.packetCount).toBe(blocks);
    for (const page of audioPages) expect(page.packets.reduce((n, p) => n + Math.floor(p.length / 255) + 1, 0)).toBeLessThanOrEqual(255);
  });

  it('gives each audio page the samples of the packets completed so far, the last page the total', () => {
    const head = pages[0]!.packets[0]!;
    const preSkip = new DataView(head.buffer, head.byteOffset).getUint16(10, true);
    let samples = 0;
    for (const page of audioPages) {
      // Samples from the TOC byte, computed here from RFC 6716's table, not by the code under test.
      for (const packet of page.packets) {
        const config = packet[0]! >> 3;
        const frame = config < 12 ? [480, 960, 1920, 2880][config % 4]! : config < 16 ? [480, 960][config % 2]! : [120, 240, 480, 960][config % 4]!;
        const code = packet[0]! & 3;
        const frames = code === 0 ? 1 : code === 3 ? packet[1]! & 0x3f : 2;
        expect(opusPacketSamples(packet)).toBe(frame * frames);
        samples += frame * frames;
      }
      expect(page.granule).toBe(BigInt(samples));
    }
    // Chrome's recordings carry no DiscardPadding, so nothing is trimmed from the end.
    expect(audioPages.at(-1)!.granule).toBe(BigInt(samples));
    expect(samples).toBeGreaterThan(preSkip);
    expect(result.durationSeconds).toBeCloseTo((samples - preSkip) / 48_000, 6);
  });

  it('lasts about the 2 s recorded', () => {
    expect(result.durationSeconds).toBeGreaterThan(1.7);
    expect(result.durationSeconds).toBeLessThan(2.3);
  });

  it('picks a random serial per stream unless told one', () => {
    const a = readPages(webmOpusToOgg(fixture)!.bytes);
    const b = readPages(webmOpusToOgg(fixture)!.bytes);
    expect(new Set(a.map((p) => p.serial)).size).toBe(1);
    expect(a[0]!.serial).not.toBe(b[0]!.serial);
  });

  it('keeps the whole blocks of a recording cut short and drops the cut one', () => {
    const cut = webmOpusToOgg(fixture.subarray(0, Math.floor(fixture.length / 2)), { serial: 7 });
    expect(cut).not.toBeNull();
    const read = readPages(cut!.bytes);
    expect(read.every((page) => page.crcOk)).toBe(true);
    const packets = read.slice(2).flatMap((page) => page.packets);
    expect(packets.length).toBeGreaterThan(5);
    expect(packets.length).toBeLessThan(result.packetCount);
    // Each packet is one whole packet of the full conversion.
    expect(packets.map((p) => [...p])).toEqual(audioPackets.slice(0, packets.length).map((p) => [...p]));
  });

  it('answers null for what is not WebM/Opus', () => {
    // The opening of an MP4 (ftyp box), as Safari records.
    const mp4 = Uint8Array.from([0, 0, 0, 0x1c, ...Buffer.from('ftypM4A '), 0, 0, 0, 0, ...Buffer.from('M4A isommp42'), 0, 0, 0, 8, ...Buffer.from('free')]);
    expect(webmOpusToOgg(mp4)).toBeNull();
    expect(webmOpusToOgg(new Uint8Array(0))).toBeNull();
    const random = new Uint8Array(4096);
    for (let i = 0; i < 20; i++) expect(webmOpusToOgg(crypto.getRandomValues(random))).toBeNull();
    // WebM cut before its first block, and WebM whose track is not Opus.
    expect(webmOpusToOgg(fixture.subarray(0, 0x90))).toBeNull();
    const vorbis = fixture.slice();
    vorbis.set(Buffer.from('A_VORB'), Buffer.from(fixture).indexOf('A_OPUS'));
    expect(webmOpusToOgg(vorbis)).toBeNull();
  });

  it('reads laced blocks (Xiph, fixed and EBML lacing give the packets of separate blocks) and the DiscardPadding of a BlockGroup', () => {
    const el = (id: number[], data: number[]) => [...id, 0x80 | data.length, ...data];
    const ascii = (s: string) => [...Buffer.from(s)];
    const header = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], ascii('webm')));
    const track = el([0x16, 0x54, 0xae, 0x6b], el([0xae], [...el([0xd7], [1]), ...el([0x86], ascii('A_OPUS')), ...el([0xe1], el([0x9f], [2]))]));
    // Three 20 ms CELT packets (config 31, code 0) of 3, 5 and 5 bytes.
    const p = [
      [0xf8, 1, 2],
      [0xf8, 3, 4, 5, 6],
      [0xf8, 7, 8, 9, 10],
    ];
    const block = (flags: number, lace: number[], frames: number[][]) => el([0xa3], [0x81, 0, 0, flags, ...lace, ...frames.flat()]);
    const cases = {
      none: p.flatMap((frame) => block(0x80, [], [frame])),
      xiph: block(0x82, [2, 3, 5], p),
      ebml: block(0x86, [2, 0x83, 0xc1], p), // sizes 3, then +2 (0xc1 is 65 − 63)
      fixed: [...block(0x80, [], [p[0]!]), ...block(0x84, [1], [p[1]!, p[2]!])],
    };
    // An unknown-size Segment and an unknown-size Cluster, as a live recorder writes them.
    const segment = [0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
    const cluster = [0x1f, 0x43, 0xb6, 0x75, 0xff];
    const webmOf = (blocks: number[]) => Uint8Array.from([...header, ...segment, ...track, ...cluster, ...blocks]);
    for (const [name, blocks] of Object.entries(cases)) {
      const webm = webmOf(blocks);
      const out = webmOpusToOgg(webm, { serial: 1 });
      expect(out, name).not.toBeNull();
      const read = readPages(out!.bytes);
      expect(read.every((page) => page.crcOk)).toBe(true);
      expect(
        read.slice(2).flatMap((page) => page.packets.map((packet) => [...packet])),
        name,
      ).toEqual(p);
      // No CodecPrivate: an OpusHead is built (stereo, no pre-skip), and 3 × 960 samples last 60 ms.
      expect(read[0]!.packets[0]![9]).toBe(2);
      expect(read.at(-1)!.granule).toBe(2880n);
      expect(out!.durationSeconds).toBeCloseTo(0.06, 6);
    }

    // A BlockGroup whose DiscardPadding (a signed integer) drops 10 ms (10,000,000 ns) from the end: the last granule is short by 480.
    const group = el([0xa0], [...el([0xa1], [0x81, 0, 0, 0, ...p[2]!]), ...el([0x75, 0xa2], [0, 0x98, 0x96, 0x80])]);
    const trimmed = webmOpusToOgg(webmOf([...block(0x80, [], [p[0]!]), ...block(0x80, [], [p[1]!]), ...group]), { serial: 1 });
    const read = readPages(trimmed!.bytes);
    expect(read.slice(2).flatMap((page) => page.packets.map((packet) => [...packet]))).toEqual(p);
    expect(read.at(-1)!.granule).toBe(2400n);
    expect(trimmed!.durationSeconds).toBeCloseTo(0.05, 6);
  });
});
