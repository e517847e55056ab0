import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';
import { inboxSettingsKeys } from '#web/api/keys.ts';

interface InboxSettings {
  membersSeeAll: boolean;
}

/** GET /inbox/settings. */
export function useInboxSettings() {
  return useQuery({ queryKey: inboxSettingsKeys.all, queryFn: ({ signal }) => api.get<InboxSettings>('/inbox/settings', { signal }) });
}

/** PUT /inbox/settings (admins). */
export function useSaveInboxSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...inboxSettingsKeys.all, 'save'],
    mutationFn: (settings: InboxSettings) => api.put<InboxSettings>('/inbox/settings', settings),
    onSuccess: (answer) => client.setQueryData(inboxSettingsKeys.all, answer),
  });
}
