import { useMutation, useQuery } from '@tanstack/react-query';
import type { AccountExport } from '#contracts/accounts.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /accounts/{id}/exports: starts an export of the whole account's data (admins). */
export function useStartAccountExport(accountId: string) {
  return useMutation({
    mutationKey: ['accounts', accountId, 'export'],
    mutationFn: () => api.post<AccountExport>(`/accounts/${encodeURIComponent(accountId)}/exports`),
  });
}

/** GET /accounts/{id}/exports/{exportId}, read every 2 s while the export runs. */
export function useAccountExport(accountId: string, exportId: string | null) {
  return useQuery({
    queryKey: ['accounts', accountId, 'exports', exportId],
    queryFn: ({ signal }) => api.get<AccountExport>(`/accounts/${encodeURIComponent(accountId)}/exports/${encodeURIComponent(exportId!)}`, { signal }),
    enabled: Boolean(exportId),
    refetchInterval: (query) => (query.state.data?.status === 'done' ? false : 2000),
  });
}
