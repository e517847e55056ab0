import { useCallback, useEffect, useRef, useState } from 'react';

export type RecorderState = 'idle' | 'recording' | 'paused';

/** webm when the browser records it, else mp4 (SPEC section 4). */
export function recordingMimeType(isSupported: (type: string) => boolean = (t) => globalThis.MediaRecorder?.isTypeSupported?.(t) ?? false): string {
  return isSupported('audio/webm') ? 'audio/webm' : 'audio/mp4';
}

export const chunkMs = 200;

/**
 * Voice recording with MediaRecorder in 200 ms chunks: idle → recording ⇄ paused, then either
 * cancelled (back to idle, nothing kept) or finished (the recording as a Blob).
 */
export function useVoiceRecorder() {
  const [state, setState] = useState<RecorderState>('idle');
  const [elapsed, setElapsed] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const stream = useRef<MediaStream | null>(null);
  const clock = useRef({ startedAt: 0, carried: 0 });
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  // Both touch only refs and a state setter, so they are made once and never change.
  const stopTracks = useCallback(() => {
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    clearInterval(timer.current);
  }, []);
  const tick = useCallback(() => setElapsed(clock.current.carried + (Date.now() - clock.current.startedAt)), []);

  useEffect(
    () => () => {
      if (recorder.current && recorder.current.state !== 'inactive') recorder.current.stop();
      stopTracks();
    },
    [stopTracks],
  );

  const start = useCallback(async () => {
    if (recorder.current) return;
    try {
      const media = await navigator.mediaDevices.getUserMedia({ audio: true });
      stream.current = media;
      const mimeType = recordingMimeType();
      const rec = new MediaRecorder(media, { mimeType });
      chunks.current = [];
      rec.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.current.push(event.data);
      };
      rec.start(chunkMs);
      recorder.current = rec;
      clock.current = { startedAt: Date.now(), carried: 0 };
      setElapsed(0);
      timer.current = setInterval(tick, 250);
      setState('recording');
    } catch (error) {
      // SPEC section 8: a recording failure is only logged.
      console.warn('Voice recording failed', error);
      stopTracks();
      recorder.current = null;
      setState('idle');
    }
  }, [stopTracks, tick]);

  const togglePause = useCallback(() => {
    const rec = recorder.current;
    if (!rec) return;
    if (rec.state === 'recording') {
      rec.pause();
      clock.current.carried += Date.now() - clock.current.startedAt;
      clearInterval(timer.current);
      setElapsed(clock.current.carried);
      setState('paused');
    } else if (rec.state === 'paused') {
      rec.resume();
      clock.current.startedAt = Date.now();
      timer.current = setInterval(tick, 250);
      setState('recording');
    }
  }, [tick]);

  const cancel = useCallback(() => {
    const rec = recorder.current;
    recorder.current = null;
    if (rec && rec.state !== 'inactive') {
      rec.ondataavailable = null;
      rec.stop();
    }
    chunks.current = [];
    stopTracks();
    setElapsed(0);
    setState('idle');
  }, [stopTracks]);

  /** Stops and answers the recording (null when nothing was recorded). */
  const finish = useCallback(async (): Promise<{ blob: Blob; mimetype: string } | null> => {
    const rec = recorder.current;
    if (!rec) return null;
    recorder.current = null;
    const mimetype = (rec.mimeType || recordingMimeType()).split(';')[0]!;
    await new Promise<void>((resolve) => {
      rec.onstop = () => resolve();
      if (rec.state === 'inactive') resolve();
      else rec.stop();
    });
    stopTracks();
    setElapsed(0);
    setState('idle');
    const blob = new Blob(chunks.current, { type: mimetype });
    chunks.current = [];
    return blob.size > 0 ? { blob, mimetype } : null;
  }, [stopTracks]);

  return { state, elapsed, start, togglePause, cancel, finish };
}
