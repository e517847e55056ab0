/**
 * A WhatsApp (API oficial) connection's message templates, read by more than one feature (the
 * 'Modelos de mensagem' screen and the inbox's template send once the 24-hour window closed), so
 * the query lives outside them like the query keys.
 */
import { useQuery } from '@tanstack/react-query';
import type { MessageTemplate } from '#contracts/templates.ts';
import { api } from '#web/lib/api-client.ts';
import { templateKeys } from './keys.ts';

export const templatesPath = (serviceId: string) => `/services/${encodeURIComponent(serviceId)}/templates`;

/** GET /services/{id}/templates: the connection's templates, by name (members may read them). */
export function useTemplates(serviceId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: templateKeys.ofService(serviceId),
    queryFn: ({ signal }) => api.get<{ data: MessageTemplate[] }>(templatesPath(serviceId), { signal }),
    enabled: options.enabled ?? true,
  });
}
