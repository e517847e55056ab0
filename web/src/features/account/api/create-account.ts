import { useMutation } from '@tanstack/react-query';
import type { AccountPayload } from '#contracts/accounts.ts';
import type { SessionAnswer } from '#contracts/auth.ts';
import type { Account } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { accountKeys } from '#web/api/keys.ts';

/** The new account; the API also answers the session moved into it (the old token stops working). */
export type CreatedAccount = Account & Partial<SessionAnswer>;

/** POST /accounts. */
export function createAccount(payload: AccountPayload): Promise<CreatedAccount> {
  return api.post<CreatedAccount>('/accounts', payload);
}

export function useCreateAccount() {
  return useMutation({ mutationKey: [...accountKeys.all, 'create'], mutationFn: createAccount });
}
