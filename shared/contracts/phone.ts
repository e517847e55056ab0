/**
 * Phone validation (docs/product.md#validation) with libphonenumber-js: the numbers are digits only, with the
 * country's dial code first; the messages are the spec's.
 */
import {
  parsePhoneNumberWithError,
  ParseError,
  getCountryCallingCode,
  isSupportedCountry,
  validatePhoneNumberLength,
  type CountryCode,
} from 'libphonenumber-js/min';

export const phoneTexts = {
  invalid: 'Número de telefone inválido',
  notANumber: 'Não tem formato de número',
  invalidCountry: 'Código do país inválido',
  tooShort: 'Número muito pequeno inválido',
  tooLong: 'Número muito grande inválido',
} as const;

export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}

export function dialCode(country: string): string | null {
  return isSupportedCountry(country) ? getCountryCallingCode(country as CountryCode) : null;
}

/** The error text for a phone (digits with dial code) in a country, or null when it is valid. */
export function phoneError(phone: string, country: string | undefined): string | null {
  const digits = digitsOnly(phone);
  if (!digits || /[A-Za-z]/.test(phone)) return phoneTexts.notANumber;
  if (country && !isSupportedCountry(country)) return phoneTexts.invalidCountry;
  try {
    const parsed = parsePhoneNumberWithError(`+${digits}`, country ? { defaultCountry: country as CountryCode } : undefined);
    if (country && parsed.country && parsed.country !== country && parsed.countryCallingCode !== dialCode(country)) {
      return phoneTexts.invalidCountry;
    }
    if (parsed.isValid()) return null;
    const length = validatePhoneNumberLength(`+${digits}`);
    return length === 'TOO_LONG' ? phoneTexts.tooLong : length === 'TOO_SHORT' ? phoneTexts.tooShort : phoneTexts.invalid;
  } catch (error) {
    if (error instanceof ParseError) {
      switch (error.message) {
        case 'INVALID_COUNTRY':
          return phoneTexts.invalidCountry;
        case 'NOT_A_NUMBER':
          return phoneTexts.notANumber;
        case 'TOO_SHORT':
          return phoneTexts.tooShort;
        case 'TOO_LONG':
          return phoneTexts.tooLong;
      }
    }
    return phoneTexts.invalid;
  }
}
