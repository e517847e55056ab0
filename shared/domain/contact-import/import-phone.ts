/**
 * A phone as a spreadsheet holds it, made into the product's form (docs/product.md#validation): the
 * digits with the country's dial code first ('5511987654321'), valid by `phoneError`
 * (shared/contracts/phone.ts, libphonenumber-js). Numbers without a dial code are of the import's
 * country. A Brazilian mobile written with the old eight digits (DDD + 6..9 + seven digits) gets its
 * ninth digit, as Anatel's rule made every mobile 9 + eight digits; WhatsApp's own spelling of a number
 * registered before it is learnt when the contact is checked or first written to (ADR-0200).
 */
import { parsePhoneNumberWithError } from 'libphonenumber-js/min';
import { dialCode, digitsOnly, phoneError } from '#contracts/phone.ts';

export interface ImportPhone {
  /** Digits with the dial code. */
  digits: string;
  country: string;
}

/** The national digits of a Brazilian number, with the ninth digit added to an eight-digit mobile. */
function brazilianNational(national: string): string {
  // A leading trunk zero and a carrier code (0 XX DDD number: '0 15 11 98765-4321').
  let digits = national.replace(/^0+/, '');
  if (digits.length >= 12 && national.startsWith('0')) digits = digits.slice(2);
  return /^[1-9]{2}[6-9]\d{7}$/.test(digits) ? `${digits.slice(0, 2)}9${digits.slice(2)}` : digits;
}

/** The phone in the product's form, or null when it is not a valid number of any country. */
export function normaliseImportPhone(raw: string, country: string): ImportPhone | null {
  const text = raw.trim();
  // A letter, or Excel's '5,51199E+12' (the number lost to scientific notation).
  if (!text || /[A-DF-Za-df-z]/.test(text) || /\d[.,]\d*E\+?\d+/i.test(text)) return null;
  const digits = digitsOnly(text);
  if (!digits) return null;
  const international = text.startsWith('+') || text.startsWith('00');
  const own = dialCode(country);
  const candidates: ImportPhone[] = [];
  if (international) {
    const full = text.startsWith('00') ? digits.slice(2) : digits;
    const brazilian = full.startsWith('55');
    const number = brazilian ? `55${brazilianNational(full.slice(2))}` : full;
    candidates.push({ digits: number, country: brazilian ? 'BR' : countryOf(number) });
  } else {
    const national = country === 'BR' ? brazilianNational(digits) : digits.replace(/^0+/, '');
    if (own) candidates.push({ digits: `${own}${national}`, country });
    // Already with the dial code but no '+' ('5511987654321').
    if (own && digits.startsWith(own)) {
      const rest = digits.slice(own.length);
      candidates.push({ digits: `${own}${country === 'BR' ? brazilianNational(rest) : rest}`, country });
    }
  }
  for (const candidate of candidates) {
    if (candidate.country && !phoneError(candidate.digits, candidate.country)) return candidate;
  }
  return null;
}

/** The country of an international number (its dial code's), or '' when libphonenumber cannot tell. */
function countryOf(digits: string): string {
  try {
    return parsePhoneNumberWithError(`+${digits}`).country ?? '';
  } catch {
    return '';
  }
}

/** The same Brazilian mobile without its ninth digit (how WhatsApp may keep a number registered before it), or null. */
export function withoutNinthDigit(digits: string): string | null {
  const match = /^55(\d{2})9([6-9]\d{7})$/.exec(digits);
  return match ? `55${match[1]}${match[2]}` : null;
}
