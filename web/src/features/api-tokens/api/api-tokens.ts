import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiToken, ApiTokenCall, ApiTokenCreated, ApiTokenPayload } from '#contracts/api-tokens.ts';
import { api } from '#web/lib/api-client.ts';

/** The screen's cache entries: the list, and each token's latest calls. */
const apiTokenKeys = {
  all: ['api-tokens'] as const,
  list: () => [...apiTokenKeys.all, 'list'] as const,
  calls: (id: string) => [...apiTokenKeys.all, 'calls', id] as const,
};

/** GET /api-tokens (admins). */
export function useApiTokens(enabled: boolean) {
  return useQuery({ queryKey: apiTokenKeys.list(), queryFn: ({ signal }) => api.get<ApiToken[]>('/api-tokens', { signal }), enabled });
}

/** GET /api-tokens/{id}/calls (admins): the token's last 20 calls. */
export function useApiTokenCalls(id: string) {
  return useQuery({
    queryKey: apiTokenKeys.calls(id),
    queryFn: ({ signal }) => api.get<ApiTokenCall[]>(`/api-tokens/${encodeURIComponent(id)}/calls`, { signal }),
  });
}

/** POST /api-tokens (admins): answers the secret, once. */
export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...apiTokenKeys.all, 'create'],
    mutationFn: (payload: ApiTokenPayload) => api.post<ApiTokenCreated>('/api-tokens', payload),
    onSuccess: () => client.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

/** DELETE /api-tokens/{id} (admins): revokes it. */
export function useRevokeApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...apiTokenKeys.all, 'revoke'],
    mutationFn: (id: string) => api.delete<ApiToken>(`/api-tokens/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
