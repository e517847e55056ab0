/**
 * The new-message alert of SPEC section 4: a browser notification titled 'Nova mensagem' with the
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

export function playNotificationSound(): void {
  try {
    const audio = new Audio(chimeUrl());
    audio.volume = notificationVolume;
    void audio.play()?.catch(() => undefined);
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
