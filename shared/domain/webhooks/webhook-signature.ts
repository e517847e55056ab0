/**
 * The signature of an outbound webhook delivery, as Stripe signs its own: the header
 * `Conversa-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Signing the timestamp with the body lets a receiver refuse a replayed delivery (older than the
 * tolerance) without keeping any state. A receiver may see several `v1` entries while a
 * subscription's secret is rotated; one matching entry is enough. docs/webhooks.md shows how to
 * verify it in Node.js and Python.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const webhookSignatureHeader = 'Conversa-Signature';

/** Five minutes: the default window a delivery's timestamp must fall in, either side of now. */
const defaultToleranceSeconds = 300;

const hexDigest = /^[0-9a-f]{64}$/;

function digest(secret: string, timestampSeconds: number, body: string): Buffer {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${body}`, 'utf8').digest();
}

/** The header's value for a delivery of `body` (the exact bytes sent) at `timestampSeconds`. */
export function signWebhookPayload(secret: string, timestampSeconds: number, body: string): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) throw new Error('The timestamp must be whole unix seconds');
  return `t=${timestampSeconds},v1=${digest(secret, timestampSeconds, body).toString('hex')}`;
}

/**
 * Whether `header` signs `body` with `secret` at a timestamp within `toleranceSeconds` of
 * `nowSeconds` (either side). Malformed headers, a missing or repeated `t`, and unknown schemes
 * alone are refusals, never errors; digests are compared in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
  toleranceSeconds: number = defaultToleranceSeconds,
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,15}$/.test(value)) return false;
      timestamp = Number(value);
    } else if (key === 'v1' && hexDigest.test(value)) {
      candidates.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = digest(secret, timestamp, body);
  // Every candidate is compared (no early exit), so the time taken says nothing about which matched.
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(candidate, expected) || matched;
  return matched;
}
