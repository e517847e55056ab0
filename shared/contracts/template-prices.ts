/**
 * What Meta charges for a delivered template message of the WhatsApp (API oficial), in USD, by the
 * template's category and the recipient's country (the country calling code of its number), as
 * the deployment configures it (ADR-0227, "Cost estimate"): context
 * `whatsappTemplatePrices` in the cloud (the functions' `WHATSAPP_TEMPLATE_PRICES`), the same JSON
 * in the local runtime's environment, else `defaultTemplatePrices`. Meta changes its rate card every
 * few months: the operator updates the configuration, no code change.
 */
import { z } from 'zod';

const price = z.number().min(0).max(10);
const categoryPrices = z.object({ marketing: price, utility: price, authentication: price }).strict();

export const templatePricesSchema = z
  .object({
    /** Where the figures come from and when they took effect (shown to nobody; for the operator). */
    source: z.string().optional(),
    /** Countries without a row of their own (Meta's "Other" market). */
    default: categoryPrices,
    /** ISO 3166-1 alpha-2 code → prices. */
    countries: z.record(z.string().regex(/^[A-Z]{2}$/), categoryPrices),
  })
  .strict();
export type TemplatePrices = z.infer<typeof templatePricesSchema>;

/**
 * The default rate card, USD per delivered template (Meta's per-message pricing, in effect since
 * 1 July 2025). Meta's own rate-card page could not be read here; the figures come from public
 * copies of it, and where no copy was found they are EXAMPLE VALUES the operator must check
 * against Meta's current rate card (developers.facebook.com/docs/whatsapp/pricing) and set:
 * - BR: 0.0625 / 0.0068 / 0.0068, TalkAll's copy of Meta's Brazil rates effective 1 January 2026
 *   (talkall.com.br/en/novidades/tarifas-whatsapp-2026).
 * - AR: 0.0618 / 0.0289 / 0.0289; PT (Meta's "Rest of Western Europe", as Andorra and Austria):
 *   0.0592 / 0.0171 / 0.0171; default (Meta's "Other" market, as American Samoa): 0.0604 / 0.0077 /
 *   0.0077. From sent.dm's copy of Meta's table effective 1 July 2025
 *   (docs.sent.dm/docs/guides/whatsapp-pricing).
 * - CO utility 0.0008: formbeep's copy of the rates effective 1 April 2026 (formbeep.pages.dev/whatsapp-api-pricing).
 * - US (0.0250 / 0.0034 / 0.0034), MX (0.0305 / 0.0085 / 0.0085) and CO's marketing (0.0125) and
 *   authentication (0.0008): not confirmed from any stored copy; example values.
 * Utility and authentication have lower volume tiers at Meta; a utility template delivered inside
 * an open 24-hour window is free. The estimate does not take either into account (an upper bound).
 */
export const defaultTemplatePrices: TemplatePrices = {
  source: "Meta's per-message rate card (USD), July 2025 / January 2026 copies; US, MX and part of CO are example values",
  default: { marketing: 0.0604, utility: 0.0077, authentication: 0.0077 },
  countries: {
    BR: { marketing: 0.0625, utility: 0.0068, authentication: 0.0068 },
    US: { marketing: 0.025, utility: 0.0034, authentication: 0.0034 },
    MX: { marketing: 0.0305, utility: 0.0085, authentication: 0.0085 },
    AR: { marketing: 0.0618, utility: 0.0289, authentication: 0.0289 },
    CO: { marketing: 0.0125, utility: 0.0008, authentication: 0.0008 },
    PT: { marketing: 0.0592, utility: 0.0171, authentication: 0.0171 },
  },
};

/** The deployment's table from its JSON (the environment variable's value); the default when none is given. */
export function templatePricesFrom(json: string | undefined): TemplatePrices {
  if (!json?.trim()) return defaultTemplatePrices;
  const parsed = templatePricesSchema.safeParse(JSON.parse(json));
  if (!parsed.success) throw new Error(`WHATSAPP_TEMPLATE_PRICES is not a template price table: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
