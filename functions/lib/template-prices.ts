/**
 * The deployment's price table of WhatsApp (API oficial) templates (ADR-0227, "Cost
 * estimate"), read when first used:
 *   WHATSAPP_TEMPLATE_PRICES   the table as JSON (context `whatsappTemplatePrices` in the cloud;
 *                              unset: the default table of shared/contracts/template-prices.ts)
 */
import { type TemplatePrices, templatePricesFrom } from '#contracts/template-prices.ts';

let read: { json: string | undefined; prices: TemplatePrices } | undefined;

export function templatePrices(): TemplatePrices {
  const json = process.env.WHATSAPP_TEMPLATE_PRICES;
  const seen = read;
  if (seen && seen.json === json) return seen.prices;
  const prices = templatePricesFrom(json);
  read = { json, prices };
  return prices;
}
