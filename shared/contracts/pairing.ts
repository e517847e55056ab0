/**
 * Pairing a WhatsApp connection by phone number instead of a QR ("Conectar com número de
 * telefone"): the payload of POST /services/{id}/pairing-code, shared by the QR modal's form and
 * the handler, and how the 8-character code is shown. Its own file, so the phone rules
 * (libphonenumber) load only with the screens that pair.
 */
import { z } from 'zod';
import { parsePhoneNumberWithError } from 'libphonenumber-js/min';
import { requiredText } from './fields.ts';
import { digitsOnly, phoneError, phoneTexts } from './phone.ts';

/**
 * The number as WhatsApp takes it (digits with the country code, no '+'), or the spec's phone text
 * for what is not a valid number. Brazil is the default country: '(11) 91234-5678',
 * '11 91234-5678', '5511912345678' and '+55 11 91234-5678' are the same number; a number of
 * another country needs its '+'.
 */
export function pairingPhoneOf(input: string): { phone: string } | { error: string } {
  const value = input.trim();
  if (/[A-Za-z]/.test(value) || !digitsOnly(value)) return { error: phoneTexts.notANumber };
  const digits = digitsOnly(value);
  let international = value.startsWith('+') ? digits : null;
  if (!international) {
    try {
      const national = parsePhoneNumberWithError(value, { defaultCountry: 'BR' });
      international = national.isValid() ? `${national.countryCallingCode}${national.nationalNumber}` : null;
    } catch {
      international = null;
    }
  }
  // Typed with the country code but without '+' ('5511912345678').
  international ??= digits.startsWith('55') ? digits : `55${digits}`;
  const error = phoneError(international, undefined);
  return error ? { error } : { phone: international };
}

export const servicePairingPayload = z
  .object({ phoneNumber: z.string({ error: requiredText }).trim().min(1, { error: requiredText }).max(40, { error: phoneTexts.tooLong }) })
  .transform((v, ctx) => {
    const found = pairingPhoneOf(v.phoneNumber);
    if ('error' in found) {
      ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: found.error });
      return z.NEVER;
    }
    return { phoneNumber: found.phone };
  });
export type ServicePairingPayload = z.input<typeof servicePairingPayload>;
/** The payload once checked: the number as WhatsApp takes it. */
export type ServicePairing = z.output<typeof servicePairingPayload>;

/** WhatsApp's code as the phone asks for it: 'ABCD-EFGH'. */
export function formatPairingCode(code: string): string {
  const plain = code.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  return plain.length === 8 ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
}
