/**
 * Meta's Embedded Signup session messages (`WA_EMBEDDED_SIGNUP`), posted by Meta's window to the
 * page that opened it, as Meta's "Embedded Signup Implementation" page describes them: a JSON string
 * `{ type: 'WA_EMBEDDED_SIGNUP', event, data }`. The finish events carry the asset ids (FINISH with
 * `phone_number_id` and `waba_id`; FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING, coexistence, only
 * `waba_id`; FINISH_ONLY_WABA, no number); CANCEL carries `current_step` when the business left,
 * or `error_message` and `error_code` when it reported an error. Only Meta's own origins are read:
 * any other page could post a look-alike (Meta's sample checks `endsWith('facebook.com')`, which
 * `evilfacebook.com` passes; this checks the host).
 */

export type SignupMessage =
  | { kind: 'finish'; wabaId: string; phoneNumberId: string | null; coexistence: boolean }
  | { kind: 'no-number' }
  | { kind: 'cancel'; step: string }
  | { kind: 'error'; message: string; code: string };

/** https://facebook.com or any https subdomain of it (www., web., staticxx.): Meta's windows and frames. */
export function isMetaOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'https:' && url.port === '' && (url.hostname === 'facebook.com' || url.hostname.endsWith('.facebook.com'));
  } catch {
    return false;
  }
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** What a `message` event says about the flow, or null when it is not Meta's Embedded Signup message. */
export function readSignupMessage(origin: string, data: unknown): SignupMessage | null {
  if (!isMetaOrigin(origin)) return null;
  let parsed: unknown = data;
  if (typeof data === 'string') {
    try {
      parsed = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const message = parsed as { type?: unknown; event?: unknown; data?: Record<string, unknown> };
  if (message.type !== 'WA_EMBEDDED_SIGNUP') return null;
  const fields = message.data ?? {};
  const wabaId = text(fields.waba_id);
  const phoneNumberId = text(fields.phone_number_id) || null;
  switch (message.event) {
    case 'FINISH':
      return wabaId && phoneNumberId ? { kind: 'finish', wabaId, phoneNumberId, coexistence: false } : null;
    case 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING':
      return wabaId ? { kind: 'finish', wabaId, phoneNumberId, coexistence: true } : null;
    case 'FINISH_ONLY_WABA':
      return { kind: 'no-number' };
    case 'CANCEL':
      if (fields.error_message || fields.error_code) return { kind: 'error', message: text(fields.error_message), code: text(fields.error_code) };
      return { kind: 'cancel', step: text(fields.current_step) || '?' };
    default:
      return null;
  }
}
