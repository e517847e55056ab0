/** WhatsApp times are whole seconds since the epoch, as a number or a protobuf Long. */
export type WhatsAppSeconds = number | { toNumber(): number } | null | undefined;

/** A WhatsApp time as ISO; `fallback` (now) when there is none. */
export function isoTime(seconds: WhatsAppSeconds, fallback = new Date()): string {
  const value = typeof seconds === 'object' && seconds !== null ? seconds.toNumber() : Number(seconds ?? 0);
  return value > 0 ? new Date(value * 1000).toISOString() : fallback.toISOString();
}
