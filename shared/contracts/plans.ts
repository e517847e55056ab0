/** Plans and their limits (docs/product.md#plans-and-limits). The one place these numbers live. */

export interface PlanLimits {
  productName: string;
  users: number;
  connections: number;
  contacts: number;
}

export const freePlan: PlanLimits = { productName: 'Free', users: 1, connections: 1, contacts: 1000 };
export const proPlanDefaults: PlanLimits = { productName: 'Pro', users: 10, connections: 5, contacts: 25000 };

/** Pro price in cents, shown when the payment provider's price has not loaded. */
export const proFallbackPriceCents = 9990;

/** The limits that apply to an account: its own plan where set, else Free. */
export function effectiveLimits(plan: Partial<PlanLimits> | null | undefined): PlanLimits {
  if (!plan?.productName) return freePlan;
  const base = plan.productName === 'Pro' ? proPlanDefaults : freePlan;
  return {
    productName: plan.productName,
    users: plan.users ?? base.users,
    connections: plan.connections ?? base.connections,
    contacts: plan.contacts ?? base.contacts,
  };
}

export function formatBRL(cents: number): string {
  return new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100);
}

/** Subscription statuses that keep the paid plan: active, in trial, or in Stripe's payment retries. */
const statusesWithPlan = new Set(['active', 'trialing', 'past_due']);

export function statusGrantsPlan(status: string): boolean {
  return statusesWithPlan.has(status);
}

/**
 * The plan a paid product gives: its name, and limits from the metadata (`users`, `connections`,
 * `contacts`, whole positive numbers; the price's over the product's), else the Pro defaults.
 */
export function paidPlan(productName: string, metadata: Record<string, string | undefined>): PlanLimits {
  const limit = (key: 'users' | 'connections' | 'contacts') => {
    const value = Number(metadata[key]);
    return Number.isInteger(value) && value > 0 ? value : proPlanDefaults[key];
  };
  return { productName: productName || proPlanDefaults.productName, users: limit('users'), connections: limit('connections'), contacts: limit('contacts') };
}
