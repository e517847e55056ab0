/** An account and its usage as the API answers them. */
import type { Account, Usage } from '#contracts/entities.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import type { AccountItem } from '#db/accounts.ts';

export function toAccount(item: AccountItem): Account {
  return {
    id: item.id,
    name: item.name,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    plan: effectiveLimits(item.plan),
    subscription: item.subscription ?? null,
  };
}

export function toUsage(item: AccountItem): Usage {
  return { users: item.usersCount ?? 0, connections: item.servicesCount ?? 0, contacts: item.contactsCount ?? 0 };
}
