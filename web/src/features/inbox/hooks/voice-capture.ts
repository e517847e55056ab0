/**
 * The two ways the composer records a voice note, behind one small interface: MediaRecorder's
 * WebM/Opus where the browser records it (Chrome, Firefox: the server repackages it as OGG/Opus), else
 * PCM from the microphone encoded as OGG/Opus in the browser by `opus-recorder` (libopus compiled to
 * WASM, in an AudioWorklet; Safari), never MediaRecorder's AAC/MP4, which WhatsApp may not play as a
 * voice note (ADR-0079).
 */

export interface VoiceCapture {
  /** What the recording will be: `audio/webm` or `audio/ogg`. */
  readonly mimetype: 'audio/webm' | 'audio/ogg';
  pause(): void;
  resume(): void;
  /** Stops and answers the recording (empty when nothing was recorded). */
  finish(): Promise<Blob>;
  /** Stops and throws the recording away. */
  cancel(): void;
}

export const webmOpus = 'audio/webm;codecs=opus';

/** MediaRecorder's chunks (200 ms, docs/product.md#screens). */
export const chunkMs = 200;

/** Whether MediaRecorder records WebM/Opus here (false on Safari, which records AAC/MP4). */
export function recordsWebmOpus(isSupported: (type: string) => boolean = (t) => globalThis.MediaRecorder?.isTypeSupported?.(t) ?? false): boolean {
  return isSupported(webmOpus);
}

/** Starts recording from the microphone; throws when there is no microphone or it is refused. */
export async function startVoiceCapture(): Promise<VoiceCapture> {
  return recordsWebmOpus() ? startWebmCapture() : startOggOpusCapture();
}

async function startWebmCapture(): Promise<VoiceCapture> {
  const media = await navigator.mediaDevices.getUserMedia({ audio: true });
  const stopTracks = () => {
    for (const track of media.getTracks()) track.stop();
  };
  let rec: MediaRecorder;
  try {
    rec = new MediaRecorder(media, { mimeType: webmOpus });
  } catch (error) {
    stopTracks();
    throw error;
  }
  const chunks: Blob[] = [];
  rec.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  rec.start(chunkMs);
  return {
    mimetype: 'audio/webm',
    pause: () => rec.state === 'recording' && rec.pause(),
    resume: () => rec.state === 'paused' && rec.resume(),
    async finish() {
      await new Promise<void>((resolve) => {
        rec.onstop = () => resolve();
        if (rec.state === 'inactive') resolve();
        else rec.stop();
      });
      stopTracks();
      return new Blob(chunks, { type: 'audio/webm' });
    },
    cancel() {
      rec.ondataavailable = null;
      if (rec.state !== 'inactive') rec.stop();
      stopTracks();
    },
  };
}

/** The part of opus-recorder's Recorder this module uses (the package has no types). */
interface OpusRecorder {
  start(): Promise<void>;
  pause(): Promise<void>;
  resume(): void;
  stop(): Promise<void>;
  close(): Promise<void>;
  ondataavailable: (data: Uint8Array) => void;
}
type OpusRecorderClass = new (config: Record<string, unknown>) => OpusRecorder;

async function startOggOpusCapture(): Promise<VoiceCapture> {
  // Loaded only here: most browsers never need the encoder (about 300 kB with its WASM).
  const [recorderModule, encoder] = await Promise.all([import('opus-recorder'), import('opus-recorder/dist/encoderWorker.min.js?url')]);
  const Recorder = ((recorderModule as { default?: unknown }).default ?? recorderModule) as OpusRecorderClass;
  const rec = new Recorder({
    encoderPath: encoder.default,
    // Mono, 48 kHz, OPUS_APPLICATION_VOIP (2048), one Ogg page a second at most: what a voice note is.
    numberOfChannels: 1,
    encoderSampleRate: 48_000,
    encoderApplication: 2048,
    maxFramesPerPage: 50,
    streamPages: false,
    mediaTrackConstraints: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
  let recording: Uint8Array = new Uint8Array(0);
  rec.ondataavailable = (data) => {
    recording = data;
  };
  try {
    await rec.start();
  } catch (error) {
    void rec.close().catch(() => undefined);
    throw error;
  }
  return {
    mimetype: 'audio/ogg',
    pause: () => void rec.pause(),
    resume: () => rec.resume(),
    async finish() {
      await rec.stop();
      void rec.close().catch(() => undefined);
      return new Blob([recording as Uint8Array<ArrayBuffer>], { type: 'audio/ogg' });
    },
    cancel() {
      rec.ondataavailable = () => undefined;
      void rec
        .stop()
        .then(() => rec.close())
        .catch(() => undefined);
    },
  };
}
