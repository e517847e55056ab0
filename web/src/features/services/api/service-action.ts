import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';

export type ServiceAction = 'start' | 'restart' | 'shutdown' | 'logout';

export const serviceActionLabels: Record<ServiceAction, string> = {
  start: 'Iniciar',
  shutdown: 'Desligar',
  restart: 'Reiniciar',
  logout: 'Logout',
};

/** POST /services/{id}/start | restart | shutdown | logout (admins). */
export function runServiceAction(id: string, action: ServiceAction): Promise<Service | undefined> {
  return api.post<Service | undefined>(`/services/${encodeURIComponent(id)}/${action}`);
}

export function useServiceAction() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...serviceKeys.all, 'action'],
    mutationFn: ({ id, action }: { id: string; action: ServiceAction }) => runServiceAction(id, action),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceKeys.all }),
  });
}
