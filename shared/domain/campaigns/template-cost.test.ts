/**
 * The cost of a template campaign (ADR-0227, "Cost estimate"): each number priced at its
 * country's rate of the template's category, countries without a row at the default, numbers that
 * cannot be placed at the default too; sums exact over many recipients; the deployment's table
 * read from its JSON and refused when malformed.
 */
import { describe, expect, it } from 'vitest';
import { defaultTemplatePrices, type TemplatePrices, templatePricesFrom, templatePricesSchema } from '#contracts/template-prices.ts';
import { countryOfPhone, templateCampaignCost } from './template-cost.ts';

const prices: TemplatePrices = {
  default: { marketing: 0.06, utility: 0.008, authentication: 0.007 },
  countries: {
    BR: { marketing: 0.0625, utility: 0.0068, authentication: 0.0068 },
    US: { marketing: 0.025, utility: 0.0034, authentication: 0.0034 },
  },
};

describe('the cost of a template campaign', () => {
  it('places numbers stored as digits with their dial code', () => {
    expect(countryOfPhone('5511944443333')).toBe('BR');
    expect(countryOfPhone('+1 650 253 0000')).toBe('US');
    expect(countryOfPhone('351912345678')).toBe('PT');
    expect(countryOfPhone(null)).toBeNull();
    expect(countryOfPhone('123')).toBeNull();
  });

  it('prices each country at its rate of the category, the others at the default, most expensive first', () => {
    const cost = templateCampaignCost(['5511944443333', '5521988887777', '16502530000', '4915112345678', null], 'MARKETING', prices);
    expect(cost).toEqual({
      currency: 'USD',
      category: 'MARKETING',
      total: 0.27,
      byCountry: [
        { country: 'BR', recipients: 2, unitPrice: 0.0625, total: 0.125, defaultRate: false },
        { country: 'DE', recipients: 1, unitPrice: 0.06, total: 0.06, defaultRate: true },
        { country: null, recipients: 1, unitPrice: 0.06, total: 0.06, defaultRate: true },
        { country: 'US', recipients: 1, unitPrice: 0.025, total: 0.025, defaultRate: false },
      ],
    });
    expect(templateCampaignCost(['5511944443333'], 'UTILITY', prices).total).toBe(0.0068);
    expect(templateCampaignCost(['5511944443333'], 'AUTHENTICATION', prices).byCountry[0]?.unitPrice).toBe(0.0068);
  });

  it('sums exactly over thousands of recipients', () => {
    const cost = templateCampaignCost(
      Array.from({ length: 10_000 }, () => '5511944443333'),
      'UTILITY',
      prices,
    );
    expect(cost.total).toBe(68);
    expect(templateCampaignCost([], 'MARKETING', prices)).toMatchObject({ total: 0, byCountry: [] });
  });

  it("reads the deployment's table from its JSON, the default when none is given", () => {
    expect(templatePricesFrom(undefined)).toBe(defaultTemplatePrices);
    expect(templatePricesFrom(' ')).toBe(defaultTemplatePrices);
    expect(templatePricesFrom(JSON.stringify(prices))).toEqual(prices);
    expect(() => templatePricesFrom(JSON.stringify({ ...prices, countries: { Brasil: prices.default } }))).toThrow(/WHATSAPP_TEMPLATE_PRICES/);
    expect(() => templatePricesFrom(JSON.stringify({ default: { marketing: 0.06 }, countries: {} }))).toThrow(/WHATSAPP_TEMPLATE_PRICES/);
    // The default covers the markets the product sells to, and is a valid table itself.
    expect(templatePricesSchema.parse(defaultTemplatePrices)).toEqual(defaultTemplatePrices);
    expect(Object.keys(defaultTemplatePrices.countries).sort()).toEqual(['AR', 'BR', 'CO', 'MX', 'PT', 'US']);
  });
});
