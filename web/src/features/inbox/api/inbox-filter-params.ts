import { conversationStatuses, inboxTabs, type ConversationStatus, type InboxTab } from '#contracts/conversation-labels.ts';
import { serviceTypes, type ServiceType } from '#contracts/service-labels.ts';
import { emptyInboxFilters, type InboxFilters } from './get-inbox-contacts.ts';

/** The status a list opens with: the conversations still waiting for someone (ADR-0144). */
export const defaultInboxStatus: ConversationStatus = 'open';

const isTab = (v: string | null): v is InboxTab => (inboxTabs as readonly string[]).includes(v ?? '');
const isServiceType = (v: string | null): v is ServiceType => (serviceTypes as readonly string[]).includes(v ?? '');
const isStatus = (v: string | null): v is ConversationStatus => (conversationStatuses as readonly string[]).includes(v ?? '');

/**
 * The inbox's filters read from the address: `tab`, `status` (`all` for every status; absent for
 * the default), `q`, `connection`, `type`, `department`, `tag`, `archived=1`. Unknown values fall
 * back to the defaults. `me` is the signed-in user, whom 'Meus' means.
 */
export function inboxFiltersFromParams(params: URLSearchParams, me: string): InboxFilters {
  const tab = params.get('tab');
  const status = params.get('status');
  const type = params.get('type');
  return {
    ...emptyInboxFilters,
    tab: isTab(tab) ? tab : emptyInboxFilters.tab,
    status: status === 'all' ? '' : isStatus(status) ? status : defaultInboxStatus,
    search: params.get('q') ?? '',
    serviceId: params.get('connection') ?? '',
    serviceType: isServiceType(type) ? type : '',
    departmentId: params.get('department') ?? '',
    tagId: params.get('tag') ?? '',
    archived: params.get('archived') === '1',
    me,
  };
}

/** The address's search params for these filters, defaults left out. */
export function inboxFiltersToParams(filters: InboxFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.tab !== emptyInboxFilters.tab) params.set('tab', filters.tab);
  if (filters.status !== defaultInboxStatus) params.set('status', filters.status || 'all');
  if (filters.search) params.set('q', filters.search);
  if (filters.serviceId) params.set('connection', filters.serviceId);
  if (filters.serviceType) params.set('type', filters.serviceType);
  if (filters.departmentId) params.set('department', filters.departmentId);
  if (filters.tagId) params.set('tag', filters.tagId);
  if (filters.archived) params.set('archived', '1');
  return params;
}
