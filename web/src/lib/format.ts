/** Dates and times as the spec writes them (pt-BR, docs/product.md#who-it-is-for). */

const pad = (n: number) => String(n).padStart(2, '0');

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** dd/MM/yyyy. */
export function formatDate(value: string | number | Date): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** dd/MM/yyyy HH:mm. */
export function formatDateTime(value: string | number | Date): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A message time: 'Hoje as HH:mm:ss' today, otherwise dd/MM/yyyy HH:mm. */
export function formatMessageTime(value: string, now: Date = new Date()): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  if (sameDay(d, now)) return `Hoje as ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return formatDateTime(d);
}

/** HH:mm (a line under its day's separator, where the day is already said). */
export function formatClockTime(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The short time of a contact's last message in the list: HH:mm today, 'Ontem', else dd/MM/yyyy. */
export function formatListTime(value: string | null | undefined, now: Date = new Date()): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  if (sameDay(d, now)) return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(d, yesterday)) return 'Ontem';
  return formatDate(d);
}

/** The label of a day separator in a conversation. */
export function formatDayLabel(value: string, now: Date = new Date()): string {
  const d = new Date(value);
  if (sameDay(d, now)) return 'Hoje';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(d, yesterday)) return 'Ontem';
  return formatDate(d);
}

export function dayKey(value: string): string {
  const d = new Date(value);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/** Presence: 'Online'; under 1 hour 'Visto recentemente', then hours, then days. */
export function formatPresence(isOnline: boolean, lastSeenAt: string | null | undefined, now: Date = new Date()): string | null {
  if (isOnline) return 'Online';
  if (!lastSeenAt) return null;
  const ms = now.getTime() - new Date(lastSeenAt).getTime();
  if (Number.isNaN(ms)) return null;
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 1) return 'Visto recentemente';
  if (hours < 24) return `Visto há ${hours} ${hours === 1 ? 'hora' : 'horas'}`;
  const days = Math.floor(hours / 24);
  return `Visto há ${days} ${days === 1 ? 'dia' : 'dias'}`;
}

/** mm:ss for the voice recorder. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB`;
}

export function initials(name: string | undefined | null): string {
  return (
    (name ?? '?')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((p) => p[0]?.toUpperCase())
      .join('') || '?'
  );
}

/** Lower case without accents, for client-side matching of searches. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
