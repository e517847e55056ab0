/**
 * The checks of Meta's webhook calls for the Cloud API connection, before anything else reads them
 * (see ADR-0207):
 *
 * - `POST` deliveries carry `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body bytes,
 *   keyed with the app secret>`. The signature is checked on the bytes as they came, before the
 *   body is parsed: JSON parsing and re-serialising can change bytes (escapes, key order, number
 *   forms), and a body never parsed cannot hurt the parser.
 * - The `GET` handshake Meta sends when the callback URL is set: `hub.mode=subscribe`, the
 *   `hub.verify_token` we chose, and a `hub.challenge` to echo back.
 *
 * Both comparisons run in constant time. Pure: no network, no clock.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The header Meta signs deliveries with (HTTP header names arrive in any case). */
export const signatureHeaderName = 'x-hub-signature-256';

/** Why a delivery's signature was refused; counted by the caller. */
export type SignatureRefusal = 'missing' | 'malformed' | 'mismatch';

export type SignatureCheck = { ok: true } | { ok: false; reason: SignatureRefusal };

/** `sha256=` then exactly 64 hex digits (32 bytes); anything else is malformed. */
const signatureShape = /^sha256=([0-9a-fA-F]{64})$/;

/** The signature header of a delivery, whatever the case of its name. */
export function signatureHeader(headers: Record<string, string | undefined>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === signatureHeaderName) return value;
  }
  return undefined;
}

/**
 * Checks a delivery's signature against the raw body bytes. The caller passes the bytes exactly as
 * received (API Gateway's `body`, decoded from base64 when `isBase64Encoded`), never a body that
 * was parsed and serialised again.
 */
export function verifySignature(rawBody: Uint8Array, header: string | undefined, appSecret: string): SignatureCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  const match = signatureShape.exec(header.trim());
  if (!match) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  // Both are 32 bytes here (the shape is checked above); timingSafeEqual throws on unequal lengths.
  if (given.length !== expected.length) return { ok: false, reason: 'malformed' };
  return timingSafeEqual(given, expected) ? { ok: true } : { ok: false, reason: 'mismatch' };
}

/** The signature header Meta would send for a body: for our own tests and the fake Graph API. */
export function signBody(rawBody: Uint8Array | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Equal strings, compared in constant time whatever their lengths (both hashed to 32 bytes first). */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The `GET` verification handshake: answers the challenge to echo back (as the 200 body), or null
 * when the call is not Meta's subscription check with our verify token (answer 403).
 */
export function verifyHandshake(query: Record<string, string | undefined>, verifyToken: string): string | null {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || token === undefined || !challenge) return null;
  if (verifyToken === '' || !sameSecret(token, verifyToken)) return null;
  return challenge;
}
