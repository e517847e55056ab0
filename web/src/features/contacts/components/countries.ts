import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';

export interface Country {
  code: string;
  name: string;
  dial: string;
}

let cache: Country[] | null = null;

/** Every country libphonenumber knows, named in pt-BR, with its dial code; Brazil first. */
export function countries(): Country[] {
  if (cache) return cache;
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['pt-BR'], { type: 'region' }) : null;
  const list = getCountries().map((code) => ({ code, name: names?.of(code) ?? code, dial: getCountryCallingCode(code) }));
  list.sort((a, b) => (a.code === 'BR' ? -1 : b.code === 'BR' ? 1 : a.name.localeCompare(b.name, 'pt-BR')));
  cache = list;
  return list;
}
