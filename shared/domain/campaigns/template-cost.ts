/**
 * What a template campaign should cost at Meta (ADR-0227, "Cost estimate"): one
 * delivered template per recipient of a WhatsApp (API oficial) lane, priced by the template's
 * category and the country of the recipient's number (libphonenumber-js reads it from the digits),
 * the countries the table does not list at its default. Every recipient is counted as delivered:
 * an upper bound (skips, failures, Meta's volume tiers and free utility templates inside an open
 * window all lower it).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { TemplatePrices } from '#contracts/template-prices.ts';
import type { TemplateCategory } from '#contracts/templates.ts';

export interface CountryCost {
  /** ISO 3166-1 alpha-2 of the numbers; null for contacts without a number it can place. */
  country: string | null;
  recipients: number;
  /** USD per delivered template. */
  unitPrice: number;
  total: number;
  /** Priced at the table's default (a country without a row of its own). */
  defaultRate: boolean;
}

export interface CampaignCost {
  currency: 'USD';
  category: TemplateCategory;
  total: number;
  /** Most expensive first. */
  byCountry: CountryCost[];
}

/** The country of a number stored as digits with its dial code; null when it cannot be placed. */
export function countryOfPhone(phone: string | null | undefined): string | null {
  const digits = phone?.replace(/\D+/g, '');
  if (!digits) return null;
  return parsePhoneNumberFromString(`+${digits}`)?.country ?? null;
}

// Sums in millionths of a dollar: Meta's prices have four decimals, and floats would drift over thousands.
const micro = (usd: number) => Math.round(usd * 1_000_000);
const usd = (micros: number) => micros / 1_000_000;

export function templateCampaignCost(phones: readonly (string | null | undefined)[], category: TemplateCategory, prices: TemplatePrices): CampaignCost {
  const key = category.toLowerCase() as Lowercase<TemplateCategory>;
  const counts = new Map<string | null, number>();
  for (const phone of phones) {
    const country = countryOfPhone(phone);
    counts.set(country, (counts.get(country) ?? 0) + 1);
  }
  const byCountry = [...counts].map(([country, recipients]) => {
    const row = country ? prices.countries[country] : undefined;
    const unit = micro((row ?? prices.default)[key]);
    return { country, recipients, unit, defaultRate: !row };
  });
  byCountry.sort(
    (a, b) =>
      b.unit * b.recipients - a.unit * a.recipients ||
      Number(a.country === null) - Number(b.country === null) ||
      (a.country ?? '').localeCompare(b.country ?? ''),
  );
  return {
    currency: 'USD',
    category,
    total: usd(byCountry.reduce((sum, c) => sum + c.unit * c.recipients, 0)),
    byCountry: byCountry.map((c) => ({
      country: c.country,
      recipients: c.recipients,
      unitPrice: usd(c.unit),
      total: usd(c.unit * c.recipients),
      defaultRate: c.defaultRate,
    })),
  };
}
