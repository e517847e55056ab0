/** WhatsApp times are whole seconds since the epoch, as a number or a protobuf Long. */
export type WhatsAppSeconds = number | { toNumber(): number } | null | undefined;

/** Seconds since the epoch as a plain number (0 when there is none). */
export function secondsOf(seconds: WhatsAppSeconds): number {
  return typeof seconds === 'object' && seconds !== null ? seconds.toNumber() : Number(seconds ?? 0);
}

/** A WhatsApp time as ISO; `fallback` (now) when there is none. */
export function isoTime(seconds: WhatsAppSeconds, fallback = new Date()): string {
  const value = secondsOf(seconds);
  return value > 0 ? new Date(value * 1000).toISOString() : fallback.toISOString();
}

/**
 * A received message's time. Within its second a message takes the moment it was handed over
 * (never outside that second), so a burst of one second keeps its order in the inbox (message ids
 * are stamped with this time) and a customer's answer sorts after a reply sent earlier in that
 * second. As Telegram's adapter does.
 */
export function messageTime(seconds: WhatsAppSeconds, now = Date.now()): string {
  const start = secondsOf(seconds) * 1000;
  if (start <= 0) return new Date(now).toISOString();
  return new Date(Math.min(Math.max(now, start), start + 999)).toISOString();
}
