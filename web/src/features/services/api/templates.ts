import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageTemplate, TemplatePayload, TemplateSyncResult } from '#contracts/templates.ts';
import { api } from '#web/lib/api-client.ts';
import { templateKeys } from '#web/api/keys.ts';
import { templatesPath as base } from '#web/api/message-templates.ts';

/** POST /services/{id}/templates/sync (admins): the list as Meta has it. */
export function useSyncTemplates(serviceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...templateKeys.ofService(serviceId), 'sync'],
    mutationFn: () => api.post<TemplateSyncResult>(`${base(serviceId)}/sync`),
    onSuccess: (result) => client.setQueryData(templateKeys.ofService(serviceId), { data: result.data }),
  });
}

/** POST /services/{id}/templates (admins): sent to Meta for review. */
export function useCreateTemplate(serviceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...templateKeys.ofService(serviceId), 'create'],
    mutationFn: (payload: TemplatePayload) => api.post<MessageTemplate>(base(serviceId), payload),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.ofService(serviceId) }),
  });
}

/** DELETE /services/{id}/templates/{templateId} (admins): every language of its name, at Meta too. */
export function useDeleteTemplate(serviceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...templateKeys.ofService(serviceId), 'delete'],
    mutationFn: (templateId: string) => api.delete<void>(`${base(serviceId)}/${encodeURIComponent(templateId)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.ofService(serviceId) }),
  });
}
