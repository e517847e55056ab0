import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountPayload } from '#contracts/accounts.ts';
import type { Account } from '#contracts/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { accountsQueryOptions } from './get-accounts.ts';

/** POST /accounts. */
export function createAccount(payload: AccountPayload): Promise<Account> {
  return api.post<Account>('/accounts', payload);
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['accounts', 'create'],
    mutationFn: createAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsQueryOptions().queryKey }),
  });
}
