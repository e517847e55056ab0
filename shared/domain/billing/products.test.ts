/** The product for sale kept in the table (ADR-0228): refreshed from the provider, answered from the table. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProduct } from '#contracts/payments.ts';
import { errorTexts } from '#contracts/errors.ts';
import { getBillingProducts } from '#db/billing-products.ts';
import { listProducts, refreshProducts } from '#domain/billing/billing.ts';
import { fail } from '#domain/errors.ts';
import type { Billing, Ports } from '#domain/ports.ts';
import { startLocalTable, type LocalTable } from '../../../tests/support/local-table.ts';

const pro = (amount: number): PaymentProduct[] => [
  { id: 'prod_1', name: 'Pro', prices: [{ id: 'price_1', unit_amount: amount, currency: 'brl', interval: 'month' }] },
];

let local: LocalTable;
beforeAll(async () => {
  local = await startLocalTable('billing-products');
});
afterAll(() => local?.close());

/** A provider whose answer the test sets: a product list, or an error to throw. */
function world(start: Date) {
  let answer: PaymentProduct[] | Error = pro(9990);
  let now = start;
  const asked: { fresh?: boolean }[] = [];
  const billing = {
    async products(options?: { fresh?: boolean }) {
      asked.push(options ?? {});
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as Billing;
  const ports = { ...local.ports, billing, clock: () => now } as unknown as Ports;
  return {
    ports,
    asked,
    answer: (next: PaymentProduct[] | Error) => {
      answer = next;
    },
    later: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

describe('the product for sale', () => {
  it('is not for sale before a refresh: listProducts answers that payments are not configured', async () => {
    await expect(listProducts(world(new Date('2026-11-28T00:00:00Z')).ports)).rejects.toMatchObject({
      kind: 'unavailable',
      text: errorTexts.paymentsNotConfigured,
    });
  });

  it('is read from the provider past its cache, stored, answered from the table, and rewritten only when it changed', async () => {
    const w = world(new Date('2026-11-28T01:00:00Z'));
    expect(await refreshProducts(w.ports)).toBe('written');
    expect(w.asked).toEqual([{ fresh: true }]);
    expect(await listProducts(w.ports)).toEqual(pro(9990));
    w.later(60_000);
    expect(await refreshProducts(w.ports)).toBe('unchanged');
    expect((await getBillingProducts(w.ports.table))?.refreshedAt).toBe('2026-11-28T01:00:00.000Z');
    w.answer(pro(12990));
    expect(await refreshProducts(w.ports)).toBe('written');
    expect(await listProducts(w.ports)).toEqual(pro(12990));
  });

  it('keeps the last copy when the provider fails, and never lets an older read replace a newer one', async () => {
    const w = world(new Date('2026-11-28T02:00:00Z'));
    w.answer(pro(15990));
    expect(await refreshProducts(w.ports)).toBe('written');
    w.answer(fail.unavailable(errorTexts.paymentProviderFailed));
    await expect(refreshProducts(w.ports)).rejects.toMatchObject({ text: errorTexts.paymentProviderFailed });
    expect(await listProducts(w.ports)).toEqual(pro(15990));
    // A run that read the provider earlier but writes last (a slow one) does not win.
    const slow = world(new Date('2026-11-28T01:59:00Z'));
    slow.answer(pro(1));
    expect(await refreshProducts(slow.ports)).toBe('stale');
    expect(await listProducts(w.ports)).toEqual(pro(15990));
  });

  it('is withdrawn once payments are no longer configured, so nothing is offered that checkout would refuse', async () => {
    const w = world(new Date('2026-11-28T03:00:00Z'));
    w.answer(fail.unavailable(errorTexts.paymentsNotConfigured));
    expect(await refreshProducts(w.ports)).toBe('not-configured');
    expect(await getBillingProducts(w.ports.table)).toBeNull();
    await expect(listProducts(w.ports)).rejects.toMatchObject({ text: errorTexts.paymentsNotConfigured });
  });
});
