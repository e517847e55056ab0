/** Plans and their limits (SPEC section 9). The one place these numbers live. */

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
