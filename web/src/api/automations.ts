import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AutomationSettings, AutomationSettingsAnswer, ConnectionMenu, ConnectionMenuAnswer } from '#contracts/automations.ts';
import { api } from '#web/lib/api-client.ts';
import { automationKeys } from '#web/api/keys.ts';

/** GET /automations: the saved automations (or the defaults, all switched off). */
export function useAutomations() {
  return useQuery({ queryKey: automationKeys.settings(), queryFn: ({ signal }) => api.get<AutomationSettingsAnswer>('/automations', { signal }) });
}

/** PUT /automations (admins): saved whole. Silent: the screen puts a refusal's messages on their fields and reports the rest. */
export function useSaveAutomations() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...automationKeys.settings(), 'save'],
    meta: { silent: true },
    mutationFn: (settings: AutomationSettings) => api.put<AutomationSettingsAnswer>('/automations', settings),
    onSuccess: (answer) => client.setQueryData(automationKeys.settings(), answer),
  });
}

/** GET /services/{id}/menu: the connection's menu, null until one is saved. */
export function useConnectionMenu(serviceId: string) {
  return useQuery({
    queryKey: automationKeys.menu(serviceId),
    queryFn: ({ signal }) => api.get<ConnectionMenuAnswer>(`/services/${encodeURIComponent(serviceId)}/menu`, { signal }),
  });
}

/** PUT /services/{id}/menu (admins): saved whole. Silent, as the automations' save. */
export function useSaveConnectionMenu(serviceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...automationKeys.menu(serviceId), 'save'],
    meta: { silent: true },
    mutationFn: (menu: ConnectionMenu) => api.put<ConnectionMenuAnswer>(`/services/${encodeURIComponent(serviceId)}/menu`, menu),
    onSuccess: (answer) => client.setQueryData(automationKeys.menu(serviceId), answer),
  });
}
