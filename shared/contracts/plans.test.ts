import { describe, expect, it } from 'vitest';
import { effectiveLimits, freePlan, paidPlan, proPlanDefaults, statusGrantsPlan } from '#contracts/plans.ts';

describe('the limits module', () => {
  it('gives Free limits (1 user, 1 connection, 1,000 contacts) to an account without a plan', () => {
    expect(effectiveLimits(null)).toEqual({ productName: 'Free', users: 1, connections: 1, contacts: 1000 });
    expect(effectiveLimits({})).toEqual(freePlan);
  });

  it('gives Pro its defaults (10, 5, 25,000), overridden by what the account’s plan sets', () => {
    expect(effectiveLimits({ productName: 'Pro' })).toEqual({ productName: 'Pro', users: 10, connections: 5, contacts: 25000 });
    expect(effectiveLimits({ productName: 'Pro', users: 3 })).toEqual({ ...proPlanDefaults, users: 3 });
  });

  it('reads a paid plan’s limits from metadata, whole positive numbers only, else the Pro defaults', () => {
    expect(paidPlan('Pro', {})).toEqual(proPlanDefaults);
    expect(paidPlan('Pro', { users: '4', connections: '0', contacts: 'many' })).toEqual({ ...proPlanDefaults, users: 4 });
    expect(paidPlan('Pro Anual', { contacts: '50000', connections: '2.5' })).toEqual({ productName: 'Pro Anual', users: 10, connections: 5, contacts: 50000 });
    expect(paidPlan('', {}).productName).toBe('Pro');
  });

  it('keeps the paid plan while a subscription is active, in trial or in payment retries, and not otherwise', () => {
    for (const status of ['active', 'trialing', 'past_due']) expect(statusGrantsPlan(status), status).toBe(true);
    for (const status of ['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused']) expect(statusGrantsPlan(status), status).toBe(false);
  });
});
