/**
 * The conversation's statuses and the inbox's tabs, with their pt-BR labels: plain values without
 * zod, so the inbox screen's first load does not fetch and build the schemas (conversations.ts
 * holds those, and re-exports these for the API).
 */
export const conversationStatuses = ['open', 'pending', 'resolved'] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];

/** @public labels for the web's status filter */
export const conversationStatusLabels: Record<ConversationStatus, string> = {
  open: 'Aberta',
  pending: 'Pendente',
  resolved: 'Resolvida',
};

/** The inbox's tabs: 'Meus' (assigned to me), 'Não atribuídos' (nobody's), 'Todos' (everything I may see). */
export const inboxTabs = ['mine', 'unassigned', 'all'] as const;
export type InboxTab = (typeof inboxTabs)[number];

/** @public labels for the web's tabs */
export const inboxTabLabels: Record<InboxTab, string> = { mine: 'Meus', unassigned: 'Não atribuídos', all: 'Todos' };

/** For each tab, how many conversations in total and in each status. */
export type InboxCounts = Record<InboxTab, { total: number } & Record<ConversationStatus, number>>;
