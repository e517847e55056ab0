import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';
import { paymentKeys } from '#web/api/keys.ts';

/** A product of the payment provider (docs/product.md#entities-and-states). */
export interface Product {
  name: string;
  prices: { id: string; unit_amount: number }[];
}

/**
 * GET /payments/products: the Pro price. Skipped when the subscription is active; silent, since
 * the page shows the fallback price (R$ 99,90) when it cannot load.
 */
export function getProducts(signal?: AbortSignal): Promise<Product[] | { data: Product[] }> {
  return api.get<Product[] | { data: Product[] }>('/payments/products', { signal });
}

export function productsQueryOptions() {
  return queryOptions({ queryKey: paymentKeys.products(), queryFn: ({ signal }) => getProducts(signal), meta: { silent: true }, retry: false });
}

export function useProducts(enabled: boolean) {
  return useQuery({ ...productsQueryOptions(), enabled });
}

export function proProduct(answer: Product[] | { data: Product[] } | undefined): Product | undefined {
  const list = Array.isArray(answer) ? answer : answer?.data;
  return list?.find((p) => p.name === 'Pro') ?? list?.[0];
}
