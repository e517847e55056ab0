/** Payments (docs/product.md#entities-and-states and docs/product.md#lists-and-calls): the product and its prices, checkout and the billing portal. */
import { z } from 'zod';

/** A price of the paid product, as `GET /payments/products` answers it. */
export interface ProductPrice {
  id: string;
  /** Cents. */
  unit_amount: number;
  currency: string;
  interval: 'month' | 'year';
}

/** The paid product; its first price is the one checkout uses. */
export interface PaymentProduct {
  id: string;
  name: string;
  prices: ProductPrice[];
}

/** `POST /payments/create-checkout-session`: the price to subscribe to (the product's first when absent). */
export const checkoutPayload = z.object({ priceId: z.string().trim().min(1).max(255).optional() });

/** `GET /payments/checkout-session?sessionId=` (or `session_id`, as the checkout's return URL carries it). */
export const checkoutSessionQuery = z
  .object({ sessionId: z.string().min(1).max(255).optional(), session_id: z.string().min(1).max(255).optional() })
  .refine((q) => q.sessionId ?? q.session_id, { message: 'Campo obrigatório', path: ['sessionId'] })
  .transform((q) => ({ sessionId: (q.sessionId ?? q.session_id)! }));

/** A checkout session as the API answers it: only what the account's own page needs. */
export interface CheckoutSessionAnswer {
  id: string;
  /** open, complete or expired. */
  status: string;
  /** paid, unpaid or no_payment_required. */
  payment_status: string;
  subscriptionId: string | null;
}

/** Answer of the checkout and portal calls: where the browser goes next. */
export interface RedirectAnswer {
  url: string;
}
