import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReportAnswer } from '#contracts/reports.ts';
import { reportKeys } from '#web/api/keys.ts';
import { api } from '#web/lib/api-client.ts';

/** GET /reports: the period's figures (an admin's: the account's; a member's: their own), the last answer kept while the next loads. */
export function useReport(from: string, to: string, compare: boolean, enabled: boolean) {
  const query = new URLSearchParams({ from, to, ...(compare ? { compare: 'previous' } : {}) });
  return useQuery({
    queryKey: reportKeys.period(from, to, compare),
    queryFn: ({ signal }) => api.get<ReportAnswer>(`/reports?${query}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
