import { useEffect, useRef } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CampaignOutcome, CampaignPayload, CampaignRecipientsPage, CampaignStatus } from '#contracts/campaigns.ts';
import type { TemplateCategory } from '#contracts/templates.ts';
import { api } from '#web/lib/api-client.ts';
import { campaignKeys } from '#web/api/keys.ts';

/**
 * What Meta should charge for a template campaign (shared/domain/campaigns/template-cost.ts): USD,
 * an upper bound from the deployment's price table, by the country of each number (null: not
 * placed), most expensive first; `defaultRate` when the table has no row of that country.
 */
export interface CampaignCost {
  currency: 'USD';
  category: TemplateCategory;
  total: number;
  byCountry: { country: string | null; recipients: number; unitPrice: number; total: number; defaultRate: boolean }[];
}

/**
 * POST /campaigns/plan's answer (shared/domain/campaigns/plan-campaign.ts): who would receive it,
 * who is left out, how many first messages, when the last would go (null: some never could), and
 * the templates' cost (null without a template; absent from a server that predates it).
 */
export interface CampaignPlan {
  recipients: number;
  leftOut: number;
  firstMessages: number;
  estimatedFinishAt: string | null;
  startAt: string;
  cost?: CampaignCost | null;
}

/** A campaign still moving: its counts change, so its screens poll. */
export const isActive = (status: CampaignStatus) => status !== 'finished' && status !== 'cancelled';

/** How often a screen asks again while a campaign moves (polling: no realtime event carries campaigns). */
const pollMs = 3000;

/** GET /campaigns: newest first; asked again every few seconds while one of them moves. */
export function useCampaigns() {
  return useQuery({
    queryKey: campaignKeys.list(),
    queryFn: ({ signal }) => api.get<Campaign[]>('/campaigns', { signal }),
    refetchInterval: (query) => (query.state.data?.some((c) => isActive(c.status)) ? pollMs : false),
  });
}

/** GET /campaigns/{id}: asked again every few seconds until it is finished or cancelled. */
export function useCampaign(id: string) {
  return useQuery({
    queryKey: campaignKeys.detail(id),
    queryFn: ({ signal }) => api.get<Campaign>(`/campaigns/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data.status) ? false : pollMs),
  });
}

/**
 * GET /campaigns/{id}/recipients: who did not get the message, `outcome` skipped or failed, a page
 * at a time ('Carregar mais'). Not polled: asked again, every page loaded, when the campaign's count
 * of them moves (the campaign itself is polled while it runs).
 */
export function useCampaignRecipients(id: string, outcome: CampaignOutcome, count: number) {
  const query = useInfiniteQuery({
    queryKey: campaignKeys.recipients(id, outcome),
    queryFn: async ({ signal, pageParam }) => {
      // A page reads a bounded share of a large campaign's recipients and may come back empty with
      // a cursor: read on (a few rounds at most) rather than show an empty page with 'Carregar mais'.
      let after = pageParam;
      for (let round = 0; ; round++) {
        const page = await api.get<CampaignRecipientsPage>(
          `/campaigns/${encodeURIComponent(id)}/recipients?outcome=${outcome}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
          { signal },
        );
        if (page.data.length || !page.nextCursor || round === 9) return page;
        after = page.nextCursor;
      }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: count > 0,
  });
  const counted = useRef(count);
  const { refetch } = query;
  useEffect(() => {
    if (counted.current === count) return;
    // From none, the query was off: turned on, it fetches by itself.
    const had = counted.current > 0;
    counted.current = count;
    if (had) void refetch();
  }, [count, refetch]);
  return query;
}

/** POST /campaigns/plan: nothing is written. Silent: the form puts a refusal's messages on its fields. */
export function usePlanCampaign() {
  return useMutation({
    meta: { silent: true },
    mutationFn: (payload: CampaignPayload) => api.post<CampaignPlan>('/campaigns/plan', payload),
  });
}

/** POST /campaigns (admins): creates and starts (or schedules) it. Silent, as the plan. */
export function useCreateCampaign() {
  const client = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (payload: CampaignPayload) => api.post<Campaign>('/campaigns', payload),
    onSuccess: (campaign) => {
      client.setQueryData(campaignKeys.detail(campaign.id), campaign);
      return client.invalidateQueries({ queryKey: campaignKeys.list() });
    },
  });
}

/** POST /campaigns/{id}/status (admins): pause, resume or cancel. */
export function useMoveCampaign(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: 'pause' | 'resume' | 'cancel') => api.post<Campaign>(`/campaigns/${encodeURIComponent(id)}/status`, { action }),
    onSuccess: (campaign) => {
      client.setQueryData(campaignKeys.detail(id), campaign);
      return client.invalidateQueries({ queryKey: campaignKeys.list() });
    },
  });
}
