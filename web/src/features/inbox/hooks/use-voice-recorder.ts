import { useCallback, useEffect, useRef, useState } from 'react';
import { startVoiceCapture, type VoiceCapture } from './voice-capture.ts';

export type RecorderState = 'idle' | 'recording' | 'paused';

/**
 * Voice recording: idle → recording ⇄ paused, then either cancelled (back to idle, nothing kept) or
 * finished (the recording as a Blob). WebM/Opus from MediaRecorder in 200 ms chunks where the
 * browser records it, else OGG/Opus encoded in the browser (voice-capture.ts); never AAC.
 */
export function useVoiceRecorder() {
  const [state, setState] = useState<RecorderState>('idle');
  const [elapsed, setElapsed] = useState(0);
  const capture = useRef<VoiceCapture | null>(null);
  const starting = useRef(false);
  const clock = useRef({ startedAt: 0, carried: 0 });
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  // Touches only refs and a state setter, so it is made once and never changes.
  const tick = useCallback(() => setElapsed(clock.current.carried + (Date.now() - clock.current.startedAt)), []);

  useEffect(
    () => () => {
      capture.current?.cancel();
      capture.current = null;
      clearInterval(timer.current);
    },
    [],
  );

  const start = useCallback(async () => {
    if (capture.current || starting.current) return;
    starting.current = true;
    try {
      capture.current = await startVoiceCapture();
      clock.current = { startedAt: Date.now(), carried: 0 };
      setElapsed(0);
      timer.current = setInterval(tick, 250);
      setState('recording');
    } catch (error) {
      // docs/product.md#error-catalogue: a recording failure is only logged.
      console.warn('Voice recording failed', error);
      capture.current = null;
      setState('idle');
    } finally {
      starting.current = false;
    }
  }, [tick]);

  const togglePause = useCallback(() => {
    const rec = capture.current;
    if (!rec) return;
    if (state === 'recording') {
      rec.pause();
      clock.current.carried += Date.now() - clock.current.startedAt;
      clearInterval(timer.current);
      setElapsed(clock.current.carried);
      setState('paused');
    } else if (state === 'paused') {
      rec.resume();
      clock.current.startedAt = Date.now();
      timer.current = setInterval(tick, 250);
      setState('recording');
    }
  }, [state, tick]);

  const cancel = useCallback(() => {
    capture.current?.cancel();
    capture.current = null;
    clearInterval(timer.current);
    setElapsed(0);
    setState('idle');
  }, []);

  /** Stops and answers the recording (null when nothing was recorded). */
  const finish = useCallback(async (): Promise<{ blob: Blob; mimetype: string } | null> => {
    const rec = capture.current;
    if (!rec) return null;
    capture.current = null;
    clearInterval(timer.current);
    const blob = await rec.finish();
    setElapsed(0);
    setState('idle');
    return blob.size > 0 ? { blob, mimetype: rec.mimetype } : null;
  }, []);

  return { state, elapsed, start, togglePause, cancel, finish };
}
