/**
 * What a socket's close means, by its status code. Baileys closes with a Boom whose
 * `output.statusCode` is WhatsApp's own code: a `<failure reason="…">` from the server becomes
 * that number (node_modules/baileys/lib/Socket/socket.js, `CB:failure`, any number at all), a
 * `<stream:error code="…">` its code, or 500 when it names none (Utils/generics.js,
 * `getErrorCodeFromStreamError`). Baileys' `DisconnectReason` names only some of them; the rest
 * are known from WhatsApp Web's own codes (whatsmeow's `ConnectFailureReason`: 402 TempBanned, 403
 * MainDeviceGone / "locked", 405 ClientOutdated, 406 UnknownLogout / "banned", 409 BadUserAgent).
 *
 * Each of these ends the session with its own pt-BR reason instead of retrying every 30 s for good;
 * 500 ends it only after several in a row. `clearsAuth`: the device is gone on WhatsApp's side
 * (whatsmeow deletes its store on 401, 403 and 406), so the next start pairs afresh; a temporary
 * ban keeps the device, so the connection resumes without a QR once the ban is over.
 */
import { whatsappStopReasons } from '#contracts/services.ts';

/** The label a close is counted under (the `reason` dimension of the `WhatsAppDisconnects` metric). */
export type DisconnectKind = 'tempBanned' | 'locked' | 'banned' | 'clientOutdated' | 'badUserAgent' | 'multideviceMismatch' | 'badSession';

export interface FinalClose {
  kind: DisconnectKind;
  /** The pt-BR reason shown on the connection. */
  text: string;
  /** Whether the auth state is deleted (the device no longer exists on WhatsApp). */
  clearsAuth: boolean;
}

/** WhatsApp's close codes this module knows (beside Baileys' `DisconnectReason`). */
export const closeCodes = {
  tempBanned: 402,
  locked: 403,
  clientOutdated: 405,
  banned: 406,
  badUserAgent: 409,
  multideviceMismatch: 411,
  badSession: 500,
} as const;

/** A Baileys close error's status code and the attributes of WhatsApp's failure node (Boom `data`). */
export function closeOf(error: unknown): { code: number | undefined; data: Record<string, unknown> } {
  const boom = error as { output?: { statusCode?: number }; data?: unknown } | undefined;
  const data = boom?.data && typeof boom.data === 'object' ? (boom.data as Record<string, unknown>) : {};
  return { code: boom?.output?.statusCode, data };
}

/** When a temporary ban ends: the failure node's `expire` (seconds from now), if WhatsApp said. */
function banEnd(data: Record<string, unknown>, now: number): Date | null {
  const seconds = Number(data.expire);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(now + seconds * 1000) : null;
}

/** The close codes that end the session at once (405 is decided by the session: a newer version may cure it). */
export function finalClose(code: number | undefined, data: Record<string, unknown>, now = Date.now()): FinalClose | null {
  switch (code) {
    case closeCodes.tempBanned:
      return { kind: 'tempBanned', text: whatsappStopReasons.tempBanned(banEnd(data, now)), clearsAuth: false };
    case closeCodes.locked:
      return { kind: 'locked', text: whatsappStopReasons.locked, clearsAuth: true };
    case closeCodes.banned:
      return { kind: 'banned', text: whatsappStopReasons.banned, clearsAuth: true };
    case closeCodes.clientOutdated:
      return { kind: 'clientOutdated', text: whatsappStopReasons.clientOutdated, clearsAuth: false };
    case closeCodes.badUserAgent:
      return { kind: 'badUserAgent', text: whatsappStopReasons.badUserAgent, clearsAuth: false };
    case closeCodes.multideviceMismatch:
      return { kind: 'multideviceMismatch', text: whatsappStopReasons.multideviceMismatch, clearsAuth: true };
    default:
      return null;
  }
}

/** The stop after too many 500 closes in a row (the device is kept: a restart may well work). */
export const badSessionStop: FinalClose = { kind: 'badSession', text: whatsappStopReasons.badSession, clearsAuth: false };
