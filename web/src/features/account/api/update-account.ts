import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountPayload } from '#contracts/accounts.ts';
import type { Account } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { accountKeys } from '#web/api/keys.ts';

/** PUT /accounts/{id} (admins). */
export function updateAccount(id: string, payload: AccountPayload): Promise<Account> {
  return api.put<Account>(`/accounts/${encodeURIComponent(id)}`, payload);
}

export function useUpdateAccount(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...accountKeys.all, 'update', id],
    mutationFn: (payload: AccountPayload) => updateAccount(id, payload),
    onSuccess: (account) => client.setQueryData(accountKeys.detail(id), account),
  });
}
