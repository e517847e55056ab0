/** Entities as the API answers them (docs/product.md#entities-and-states). */
import type { PlanLimits } from './plans.ts';

export interface User {
  id: string;
  name: string;
  email: string;
  accountId: string | null;
  account: { id: string; name: string } | null;
  avatar: { url: string } | null;
  isAdmin: boolean;
  isOwner: boolean;
  emailVerified: boolean;
  /**
   * A new address asked for and not yet confirmed: `email` stays the old one until the code sent to
   * this address is used (POST /auth/verify-email). Null when no change is waiting.
   */
  pendingEmail: string | null;
  archivedAt: string | null;
  /** Why the user is archived: by the plan's limit after a downgrade, or by an administrator. */
  archivedReason: 'limit' | 'manual' | null;
  /** 'Não assinar minhas mensagens': their messages go unsigned even when the account signs them. */
  skipSignature: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The user as kept in the persisted auth state. */
export type SessionUser = User;

export type SubscriptionStatus = 'active' | 'canceled' | 'past_due' | 'trialing' | string;

export interface Subscription {
  status: SubscriptionStatus;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: boolean;
  plan: { amount: number; interval: 'month' | 'year' };
}

export interface Account {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  plan: PlanLimits;
  subscription: Subscription | null;
}

export interface Usage {
  users: number;
  connections: number;
  contacts: number;
}

export interface ListAnswer<T> {
  data: T[];
  totalCount: number;
  /** Lists that page by cursor (the contacts): the query's `after` for the next page, null after the last. */
  nextCursor?: string | null;
}
