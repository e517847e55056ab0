import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessHours, BusinessHoursAnswer } from '#contracts/business-hours.ts';
import { api } from '#web/lib/api-client.ts';
import { businessHoursKeys } from '#web/api/keys.ts';

/** GET /business-hours: the saved hours (or the default ones) and whether the account is open now. */
export function useBusinessHours() {
  return useQuery({ queryKey: businessHoursKeys.all, queryFn: ({ signal }) => api.get<BusinessHoursAnswer>('/business-hours', { signal }) });
}

/** PUT /business-hours (admins): saved whole. Silent: the screen puts a refusal's messages on their rows and reports the rest. */
export function useSaveBusinessHours() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...businessHoursKeys.all, 'save'],
    meta: { silent: true },
    mutationFn: (hours: BusinessHours) => api.put<BusinessHoursAnswer>('/business-hours', hours),
    onSuccess: (answer) => client.setQueryData(businessHoursKeys.all, answer),
  });
}
