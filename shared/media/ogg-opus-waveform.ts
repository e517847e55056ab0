/**
 * What WhatsApp shows of a voice note before it is played: its length and its waveform, read from
 * an OGG/Opus stream (RFC 7845). The waveform is the one Baileys would make with its optional
 * `audio-decode` package (`getAudioWaveform` in baileys/lib/Utils/messages-media.js): 64 bars, the
 * mean absolute amplitude of the first channel over 64 equal blocks of the decoded audio, scaled so
 * the loudest bar is 100 (values 0–100, one byte each). The audio is decoded with `opus-decoder`
 * (libopus compiled to WASM, inlined in the package: no native binary, nothing fetched at run time).
 *
 * Anything that is not OGG/Opus answers null, never throws: callers send without a waveform.
 * Server-only.
 */
import { OpusDecoder } from 'opus-decoder';
import { opusPacketSamples } from './webm-opus-to-ogg.ts';

/** The number of bars WhatsApp's waveform has. */
export const waveformBars = 64;

export interface OggOpusPackets {
  /** The OpusHead packet's fields (RFC 7845 §5.1) that decoding needs. */
  head: { channels: number; preSkip: number; streamCount: number; coupledStreamCount: number; mapping: number[] };
  /** Audio packets, in order (the OpusHead and OpusTags packets left out). */
  packets: Uint8Array[];
  /** The last page's granule position (48 kHz samples, pre-skip included). */
  finalGranule: number;
}

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** True when the bytes start as an OGG/Opus stream: an `OggS` page whose first packet is `OpusHead`. */
export function isOggOpus(bytes: Uint8Array): boolean {
  if (bytes.length < 28 + 19 || ascii(bytes, 0, 4) !== 'OggS') return false;
  const segments = bytes[26]!;
  return ascii(bytes, 27 + segments, 8) === 'OpusHead';
}

/**
 * The packets of the first logical stream of an Ogg file (pages read in order, lacing values
 * joined, packets that continue across pages joined). Null when it is not OGG/Opus.
 */
export function readOggOpus(bytes: Uint8Array): OggOpusPackets | null {
  if (!isOggOpus(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const all: Uint8Array[] = [];
  let partial: Uint8Array[] = [];
  let serial: number | null = null;
  let finalGranule = 0;
  let at = 0;
  while (at + 27 <= bytes.length && ascii(bytes, at, 4) === 'OggS') {
    const segments = bytes[at + 26]!;
    const pageSerial = view.getUint32(at + 14, true);
    const granule = Number(view.getBigInt64(at + 6, true));
    let body = at + 27 + segments;
    if (body > bytes.length) break;
    const mine = serial === null || pageSerial === serial;
    serial ??= pageSerial;
    for (let i = 0; i < segments; i++) {
      const size = bytes[at + 27 + i]!;
      if (mine) partial.push(bytes.subarray(body, body + size));
      body += size;
      if (mine && size < 255) {
        const length = partial.reduce((n, p) => n + p.length, 0);
        const packet = new Uint8Array(length);
        let o = 0;
        for (const p of partial) {
          packet.set(p, o);
          o += p.length;
        }
        all.push(packet);
        partial = [];
      }
    }
    if (body > bytes.length) break;
    if (mine && granule >= 0) finalGranule = Math.max(finalGranule, granule);
    at = body;
  }
  const headPacket = all[0];
  if (!headPacket || headPacket.length < 19 || ascii(headPacket, 0, 8) !== 'OpusHead') return null;
  const channels = headPacket[9]!;
  const preSkip = headPacket[10]! | (headPacket[11]! << 8);
  const family = headPacket[18]!;
  const head =
    family !== 0 && headPacket.length >= 21 + channels
      ? { channels, preSkip, streamCount: headPacket[19]!, coupledStreamCount: headPacket[20]!, mapping: [...headPacket.subarray(21, 21 + channels)] }
      : { channels, preSkip, streamCount: 1, coupledStreamCount: channels > 1 ? 1 : 0, mapping: channels > 1 ? [0, 1] : [0] };
  const packets = all.slice(1).filter((p, i) => !(i === 0 && ascii(p, 0, 8) === 'OpusTags'));
  return { head, packets, finalGranule };
}

/**
 * Baileys' waveform of a mono signal (64 block means of |x|, scaled so the largest is 100), computed
 * as the samples come (decoded a few packets at a time), so memory stays
 * small whatever the length: `total` (the samples that will come) fixes the block size up front,
 * as Baileys' `Math.floor(length / 64)`; samples past the 64th block are left out as there.
 */
class WaveformBars {
  private readonly blockSize: number;
  private readonly sums = new Float64Array(waveformBars);
  private seen = 0;
  constructor(total: number) {
    this.blockSize = Math.floor(total / waveformBars);
  }
  add(samples: Float32Array): void {
    if (this.blockSize === 0) return;
    for (let i = 0; i < samples.length; i++, this.seen++) {
      const block = Math.floor(this.seen / this.blockSize);
      if (block >= waveformBars) return;
      this.sums[block]! += Math.abs(samples[i]!);
    }
  }
  result(): Uint8Array {
    return scaledBars([...this.sums].map((sum) => (this.blockSize > 0 ? sum / this.blockSize : 0)));
  }
}

/**
 * Block means scaled to 0–100 with the loudest at exactly 100. Floored with a hair of slack:
 * `100 * m / m` is 99.99… for some m in floating point (0.7258836419792158 is one), which
 * floored bare would leave a recording without a full bar and a half-loud bar at 49.
 */
export function scaledBars(means: readonly number[]): Uint8Array {
  const loudest = Math.max(0, ...means);
  if (loudest === 0) return new Uint8Array(means.length);
  return new Uint8Array(means.map((m) => Math.min(100, Math.floor((100 * m) / loudest + 1e-9))));
}

export interface VoiceNoteShape {
  /** Playable length in seconds: the last granule position less the pre-skip, at 48 kHz. */
  seconds: number;
  /** 64 bytes, 0–100. */
  waveform: Uint8Array;
}

/** Longer recordings get no waveform: decoding is synchronous WASM on the worker's thread (about 1 s for 10 minutes). */
export const maxWaveformSeconds = 20 * 60;

/** Packets decoded per call: about a second of audio. */
const packetsPerBatch = 50;

/**
 * The length and waveform of an OGG/Opus voice note, decoded with libopus (WASM) at 48 kHz; null
 * when it is not one, does not decode, or is longer than `maxWaveformSeconds`.
 */
export async function oggOpusVoiceShape(bytes: Uint8Array): Promise<VoiceNoteShape | null> {
  const ogg = readOggOpus(bytes);
  if (!ogg || ogg.packets.length === 0) return null;
  const { channels, preSkip, streamCount, coupledStreamCount, mapping } = ogg.head;
  let coded = 0;
  try {
    for (const packet of ogg.packets) coded += opusPacketSamples(packet);
  } catch {
    return null;
  }
  // What the decoder gives after dropping the pre-skip, trimmed to the last granule (the end padding).
  const playable = Math.max(0, (ogg.finalGranule > 0 ? Math.min(coded, ogg.finalGranule) : coded) - preSkip);
  if (playable === 0 || playable > maxWaveformSeconds * 48_000) return null;
  const decoder = new OpusDecoder({ channels, preSkip, streamCount, coupledStreamCount, channelMappingTable: mapping });
  try {
    await decoder.ready;
    const bars = new WaveformBars(playable);
    let decoded = 0;
    for (let i = 0; i < ogg.packets.length; i += packetsPerBatch) {
      const out = decoder.decodeFrames(ogg.packets.slice(i, i + packetsPerBatch));
      const first = out.channelData[0];
      if (first) bars.add(first.subarray(0, out.samplesDecoded));
      decoded += out.samplesDecoded;
    }
    if (decoded === 0) return null;
    return { seconds: playable / 48_000, waveform: bars.result() };
  } catch {
    return null;
  } finally {
    decoder.free();
  }
}
