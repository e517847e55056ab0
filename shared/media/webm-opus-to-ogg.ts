/**
 * Repackaging a WebM/Opus recording (what Chrome and Firefox's MediaRecorder make) as OGG/Opus
 * (RFC 7845), what WhatsApp plays as a voice note and Telegram's sendVoice expects. The Opus packets
 * are copied as they are: no decoding, no re-encoding, no native code. Server-only, pure functions.
 *
 * The WebM side reads just enough Matroska (EBML) to find the first `A_OPUS` track (its
 * CodecPrivate is the OpusHead, else one is built from the channel count and CodecDelay) and to
 * walk Clusters, SimpleBlocks and BlockGroups (no, Xiph, fixed-size and EBML lacing), including the
 * unknown-size Segment and Clusters a live recorder writes. The Ogg side writes the OpusHead page
 * (BOS), the OpusTags page, then audio pages of whole packets (≤ 255 lacing values a page, about a
 * second of audio at most), granule positions counted in 48 kHz samples from each packet's TOC byte
 * (RFC 6716 §3.1) with the pre-skip included as RFC 7845 §4 asks, the end trimmed by the last
 * block's DiscardPadding when there is one, and EOS on the last page.
 *
 * Anything that is not WebM with an Opus track answers null, never throws: callers send the
 * original bytes instead.
 */

/** An OGG/Opus stream made from a WebM recording. */
export interface OggOpus {
  bytes: Uint8Array;
  /** Playable length: samples after the pre-skip and before the end trim, in seconds. */
  durationSeconds: number;
  /** Opus packets copied (one a Matroska frame). */
  packetCount: number;
}

// ─── EBML ──────────────────────────────────────────────────────────────────────────────────────

const ids = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  codecDelay: 0x56aa,
  audio: 0xe1,
  channels: 0x9f,
  cluster: 0x1f43b675,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  discardPadding: 0x75a2,
} as const;

/** Master elements entered rather than skipped while walking for blocks (they may have an unknown size). */
const entered = new Set<number>([ids.segment, ids.cluster]);

class NotWebmOpus extends Error {}

interface Element {
  id: number;
  /** Start of the data. */
  start: number;
  /** End of the data; the end of the input for an unknown size. */
  end: number;
  unknownSize: boolean;
  /** The input ends before the data the size announces. */
  truncated: boolean;
}

/** A variable-length integer at `pos`: its length and value (marker bit removed unless `keepMarker`). */
function vint(bytes: Uint8Array, pos: number, keepMarker = false): { length: number; value: number; allOnes: boolean } {
  const first = bytes[pos];
  if (first === undefined || first === 0) throw new NotWebmOpus('bad vint');
  const length = Math.clz32(first) - 23;
  if (pos + length > bytes.length) throw new NotWebmOpus('truncated vint');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = bytes[pos + i] as number;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { length, value, allOnes };
}

function elementAt(bytes: Uint8Array, pos: number, limit: number): Element {
  const id = vint(bytes, pos, true);
  if (id.length > 4) throw new NotWebmOpus('bad element id');
  const size = vint(bytes, pos + id.length);
  const start = pos + id.length + size.length;
  if (size.allOnes) return { id: id.value, start, end: limit, unknownSize: true, truncated: false };
  return { id: id.value, start, end: Math.min(start + size.value, limit), unknownSize: false, truncated: start + size.value > limit };
}

/** The direct children of a master element's data. */
function* children(bytes: Uint8Array, start: number, end: number): Generator<Element> {
  let pos = start;
  while (pos < end) {
    const element = elementAt(bytes, pos, end);
    if (element.unknownSize) throw new NotWebmOpus('unknown size where none is expected');
    yield element;
    pos = element.end;
  }
}

function uint(bytes: Uint8Array, element: Element): number {
  let value = 0;
  for (let i = element.start; i < element.end; i++) value = value * 256 + (bytes[i] as number);
  return value;
}

function text(bytes: Uint8Array, element: Element): string {
  return String.fromCharCode(...bytes.subarray(element.start, element.end)).replace(/\0+$/, '');
}

/** The signed integer a block's DiscardPadding holds (nanoseconds). */
function int(bytes: Uint8Array, element: Element): number {
  const unsigned = uint(bytes, element);
  const bits = (element.end - element.start) * 8;
  return bits > 0 && unsigned >= 2 ** (bits - 1) ? unsigned - 2 ** bits : unsigned;
}

interface OpusTrack {
  number: number;
  head: Uint8Array;
}

function opusTrackOf(bytes: Uint8Array, tracks: Element): OpusTrack | null {
  for (const entry of children(bytes, tracks.start, tracks.end)) {
    if (entry.id !== ids.trackEntry) continue;
    let number = 0;
    let codec = '';
    let codecPrivate: Uint8Array | null = null;
    let codecDelayNs = 0;
    let channels = 1;
    for (const field of children(bytes, entry.start, entry.end)) {
      if (field.id === ids.trackNumber) number = uint(bytes, field);
      else if (field.id === ids.codecId) codec = text(bytes, field);
      else if (field.id === ids.codecPrivate) codecPrivate = bytes.slice(field.start, field.end);
      else if (field.id === ids.codecDelay) codecDelayNs = uint(bytes, field);
      else if (field.id === ids.audio) {
        for (const setting of children(bytes, field.start, field.end)) if (setting.id === ids.channels) channels = uint(bytes, setting);
      }
    }
    if (codec !== 'A_OPUS' || number === 0) continue;
    if (codecPrivate && isOpusHead(codecPrivate)) return { number, head: codecPrivate };
    // Without a mapping table only mono and stereo can be described (channel mapping family 0).
    if (channels < 1 || channels > 2) return null;
    return { number, head: opusHead(channels, Math.round((codecDelayNs * 48_000) / 1e9)) };
  }
  return null;
}

const asciiBytes = (value: string) => Uint8Array.from(value, (c) => c.charCodeAt(0));
const opusHeadMagic = asciiBytes('OpusHead');
const opusTagsMagic = asciiBytes('OpusTags');

function isOpusHead(bytes: Uint8Array): boolean {
  return bytes.length >= 19 && opusHeadMagic.every((b, i) => bytes[i] === b);
}

/** An identification header per RFC 7845 §5.1 (version 1, 48 kHz input, gain 0, mapping family 0). */
function opusHead(channels: number, preSkip: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(opusHeadMagic, 0);
  head[8] = 1;
  head[9] = channels;
  view.setUint16(10, preSkip, true);
  view.setUint32(12, 48_000, true);
  return head;
}

/** A comment header per RFC 7845 §5.2: vendor 'Conversa', no comments. */
function opusTags(): Uint8Array {
  const vendor = asciiBytes('Conversa');
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(opusTagsMagic, 0);
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true);
  return tags;
}

/** The frames of a Matroska block (SimpleBlock or Block) of the given track, or null for another track. */
function framesOf(bytes: Uint8Array, block: Element, track: number): Uint8Array[] | null {
  const number = vint(bytes, block.start);
  if (number.value !== track) return null;
  let pos = block.start + number.length + 2; // the 16-bit relative timecode
  const flags = bytes[pos++];
  if (flags === undefined || pos > block.end) throw new NotWebmOpus('truncated block');
  const lacing = (flags >> 1) & 3;
  if (lacing === 0) return [bytes.subarray(pos, block.end)];

  const count = (bytes[pos++] as number) + 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    // Xiph: each size but the last as a run of 255s and a final byte below 255.
    for (let i = 0; i < count - 1; i++) {
      let size = 0;
      let byte: number;
      do {
        byte = bytes[pos++] as number;
        if (pos > block.end) throw new NotWebmOpus('truncated lacing');
        size += byte;
      } while (byte === 255);
      sizes.push(size);
    }
  } else if (lacing === 3) {
    // EBML: the first size as a vint, the others as signed differences from the one before.
    const first = vint(bytes, pos);
    pos += first.length;
    sizes.push(first.value);
    for (let i = 1; i < count - 1; i++) {
      const delta = vint(bytes, pos);
      pos += delta.length;
      const size = (sizes[i - 1] as number) + delta.value - (2 ** (7 * delta.length - 1) - 1);
      sizes.push(size);
    }
  } else {
    const each = (block.end - pos) / count;
    if (!Number.isInteger(each)) throw new NotWebmOpus('bad fixed lacing');
    for (let i = 0; i < count - 1; i++) sizes.push(each);
  }
  const laced = sizes.reduce((sum, size) => sum + size, 0);
  if (sizes.some((size) => size < 0) || pos + laced > block.end) throw new NotWebmOpus('bad lacing');
  sizes.push(block.end - pos - laced);
  return sizes.map((size) => {
    const frame = bytes.subarray(pos, pos + size);
    pos += size;
    return frame;
  });
}

interface Extracted {
  head: Uint8Array;
  packets: Uint8Array[];
  /** Samples (48 kHz) the last block asks to drop from the end. */
  endTrim: number;
}

function extract(bytes: Uint8Array): Extracted | null {
  const header = elementAt(bytes, 0, bytes.length);
  if (header.id !== ids.ebml || header.unknownSize) return null;
  const docType = [...children(bytes, header.start, header.end)].find((e) => e.id === ids.docType);
  if (!docType || !['webm', 'matroska'].includes(text(bytes, docType))) return null;

  let track: OpusTrack | null = null;
  const packets: Uint8Array[] = [];
  let endTrim = 0;
  let pos = header.end;
  // A flat walk: Segment and Clusters are entered (their size may be unknown), everything else is
  // read whole or skipped, so the end of an unknown-size Cluster needs no special care.
  while (pos < bytes.length) {
    const element = elementAt(bytes, pos, bytes.length);
    if (entered.has(element.id)) {
      pos = element.start;
      continue;
    }
    if (element.unknownSize) return null;
    if (element.id === ids.tracks && !track) {
      track = opusTrackOf(bytes, element);
      if (!track) return null;
    } else if (track && !element.truncated && (element.id === ids.simpleBlock || element.id === ids.blockGroup)) {
      // A recording cut short keeps its whole blocks; the cut one is dropped.
      let block: Element | undefined = element;
      let discardNs = 0;
      if (element.id === ids.blockGroup) {
        block = undefined;
        for (const child of children(bytes, element.start, element.end)) {
          if (child.id === ids.block) block = child;
          else if (child.id === ids.discardPadding) discardNs = int(bytes, child);
        }
      }
      const frames = block ? framesOf(bytes, block, track.number) : null;
      if (frames) {
        packets.push(...frames);
        endTrim = Math.max(0, Math.round((discardNs * 48_000) / 1e9));
      }
    }
    pos = element.end;
  }
  return track ? { head: track.head, packets, endTrim } : null;
}

// ─── Opus ──────────────────────────────────────────────────────────────────────────────────────

/** 48 kHz samples of one frame per TOC configuration (RFC 6716 §3.1, table 2). */
function frameSamples(config: number): number {
  if (config < 12) return [480, 960, 1920, 2880][config % 4] as number; // SILK-only: 10, 20, 40, 60 ms
  if (config < 16) return [480, 960][config % 2] as number; // Hybrid: 10, 20 ms
  return [120, 240, 480, 960][config % 4] as number; // CELT-only: 2.5, 5, 10, 20 ms
}

/** The 48 kHz samples an Opus packet decodes to, from its TOC byte (and frame count byte, code 3). */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const code = toc & 3;
  let frames = code === 0 ? 1 : 2;
  if (code === 3) {
    const count = packet[1];
    if (count === undefined) throw new NotWebmOpus('code 3 packet without a frame count');
    frames = count & 0x3f;
  }
  const samples = frames * frameSamples(toc >> 3);
  if (samples > 5760) throw new NotWebmOpus('packet over 120 ms');
  return samples;
}

// ─── Ogg ───────────────────────────────────────────────────────────────────────────────────────

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg CRC-32: polynomial 0x04C11DB7, initial value 0, no reflection, no final xor. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (crcTable[((crc >>> 24) ^ byte) & 0xff] as number)) >>> 0;
  return crc;
}

const flag = { bos: 0x02, eos: 0x04 } as const;

function oggPage(packets: Uint8Array[], headerType: number, granule: bigint, serial: number, sequence: number): Uint8Array {
  const lacing: number[] = [];
  for (const packet of packets) {
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(left, 255));
      if (left < 255) break;
    }
  }
  const dataLength = packets.reduce((sum, p) => sum + p.length, 0);
  const page = new Uint8Array(27 + lacing.length + dataLength);
  const view = new DataView(page.buffer);
  page.set(asciiBytes('OggS'), 0);
  page[4] = 0; // stream structure version
  page[5] = headerType;
  view.setBigInt64(6, granule, true);
  view.setUint32(14, serial, true);
  view.setUint32(18, sequence, true);
  // bytes 22-25: the CRC, computed with them at zero
  page[26] = lacing.length;
  page.set(lacing, 27);
  let pos = 27 + lacing.length;
  for (const packet of packets) {
    page.set(packet, pos);
    pos += packet.length;
  }
  view.setUint32(22, oggCrc(page), true);
  return page;
}

const segmentsOf = (packet: Uint8Array) => Math.floor(packet.length / 255) + 1;
/** Audio pages are flushed at about a second (opusenc's default is similar). */
const pageSamples = 48_000;

/**
 * The Ogg/Opus stream of a WebM/Opus recording, or null when the input is not WebM with an Opus
 * track holding at least one packet. `serial` fixes the stream's serial number (tests); otherwise
 * it is random, one per stream.
 */
export function webmOpusToOgg(input: Uint8Array, options: { serial?: number } = {}): OggOpus | null {
  let extracted: Extracted | null;
  let sampleCounts: number[];
  try {
    extracted = extract(input);
    if (!extracted || extracted.packets.length === 0) return null;
    sampleCounts = extracted.packets.map(opusPacketSamples);
  } catch (error) {
    if (error instanceof NotWebmOpus) return null;
    throw error;
  }
  const { head, packets, endTrim } = extracted;
  // A packet needing more than 255 lacing values would have to span pages; no Opus packet is that big.
  if (packets.some((p) => segmentsOf(p) > 255)) return null;

  const serial = options.serial ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
  const preSkip = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint16(10, true);
  const total = sampleCounts.reduce((sum, n) => sum + n, 0);
  // RFC 7845 §4.5: the last page's granule may be short of the total to trim the end, never below the pre-skip.
  const finalGranule = Math.max(preSkip, total - endTrim);

  const pages: Uint8Array[] = [oggPage([head], flag.bos, 0n, serial, 0), oggPage([opusTags()], 0, 0n, serial, 1)];
  let page: Uint8Array[] = [];
  let segments = 0;
  let granule = 0;
  let samplesInPage = 0;
  const flush = (last: boolean) => {
    pages.push(oggPage(page, last ? flag.eos : 0, BigInt(last ? finalGranule : granule), serial, pages.length));
    page = [];
    segments = 0;
    samplesInPage = 0;
  };
  packets.forEach((packet, i) => {
    if (page.length > 0 && (segments + segmentsOf(packet) > 255 || samplesInPage >= pageSamples)) flush(false);
    page.push(packet);
    segments += segmentsOf(packet);
    granule += sampleCounts[i] as number;
    samplesInPage += sampleCounts[i] as number;
  });
  flush(true);

  const bytes = new Uint8Array(pages.reduce((sum, p) => sum + p.length, 0));
  let pos = 0;
  for (const p of pages) {
    bytes.set(p, pos);
    pos += p.length;
  }
  return { bytes, durationSeconds: Math.max(0, finalGranule - preSkip) / 48_000, packetCount: packets.length };
}
