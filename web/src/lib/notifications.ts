/**
 * The new-message alert of docs/product.md#entities-and-states: a browser notification titled 'Nova mensagem' with the
 * message text (permission asked for when not yet decided) and a short sound at volume 0.5.
 */
export const newMessageTitle = 'Nova mensagem';
export const notificationVolume = 0.5;

let soundUrl: string | null = null;

/** A 0.25 s two-tone chime as a WAV data URL, made once (no audio file to download). */
export function chimeUrl(): string {
  if (soundUrl) return soundUrl;
  const rate = 16000;
  const samples = Math.floor(rate * 0.25);
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(offset + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const freq = t < 0.12 ? 880 : 1320;
    const envelope = Math.min(1, (samples - i) / 800) * Math.min(1, i / 80);
    view.setInt16(44 + i * 2, Math.round(Math.sin(2 * Math.PI * freq * t) * 0.4 * envelope * 32767), true);
  }
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  soundUrl = `data:audio/wav;base64,${btoa(binary)}`;
  return soundUrl;
}

let chime: HTMLAudioElement | null = null;

/** Plays the chime; one audio element, made (and its sound decoded) once, replayed from the start. */
export function playNotificationSound(): void {
  try {
    chime ??= new Audio(chimeUrl());
    chime.volume = notificationVolume;
    chime.currentTime = 0;
    void chime.play()?.catch(() => undefined);
  } catch {
    /* no audio here */
  }
}

/** Shows 'Nova mensagem'; asks for permission first when it has not been decided. */
export async function showNewMessageNotification(body: string): Promise<void> {
  if (typeof Notification === 'undefined') return;
  try {
    let permission = Notification.permission;
    if (permission === 'default') permission = await Notification.requestPermission();
    if (permission !== 'granted') return;
    new Notification(newMessageTitle, { body, tag: undefined });
  } catch {
    /* notifications unavailable (e.g. some mobile browsers need a service worker) */
  }
}

/** Alerts closer together than this are one alert: the last message of the burst, at its end. */
export const alertQuietMs = 2000;
let lastAlertAt = Number.NEGATIVE_INFINITY;
let pendingBody: string | null = null;
let pendingTimer: ReturnType<typeof setTimeout> | undefined;

function ring(body: string): void {
  lastAlertAt = Date.now();
  void showNewMessageNotification(body);
  playNotificationSound();
}

/**
 * A new incoming message: the notification and the chime at once, unless one just rang; then the
 * burst's last message rings once when it has been quiet for `alertQuietMs`. Fifty messages a
 * second make one alert, not fifty notifications, sounds and permission checks on the main thread.
 */
export function alertNewMessage(body: string): void {
  const since = Date.now() - lastAlertAt;
  if (since >= alertQuietMs && pendingTimer === undefined) {
    ring(body);
    return;
  }
  pendingBody = body;
  pendingTimer ??= setTimeout(
    () => {
      pendingTimer = undefined;
      const latest = pendingBody;
      pendingBody = null;
      if (latest !== null) ring(latest);
    },
    Math.max(0, alertQuietMs - since),
  );
}
