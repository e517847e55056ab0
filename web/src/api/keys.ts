/**
 * Query keys: one factory per entity, the only place keys are written (ADR-0055). Every key starts with its entity (`all`), which is what lets the realtime layer find
 * every cached copy of an item by prefix without the features knowing each other. Shared by the
 * features, so it lives outside them.
 */
import type { ListQueryInput } from '#contracts/list-query.ts';

export const contactKeys = {
  all: ['contacts'] as const,
  list: (query: ListQueryInput) => [...contactKeys.all, 'list', query] as const,
  /** Every cached inbox list, whatever its filters. */
  inboxes: () => [...contactKeys.all, 'inbox'] as const,
  inbox: <Filters extends object>(filters: Filters) => [...contactKeys.inboxes(), filters] as const,
  detail: (id: string) => [...contactKeys.all, 'detail', id] as const,
};

export const messageKeys = {
  all: ['messages'] as const,
  /** Every cached copy of one conversation. */
  conversation: (contactId: string) => [...messageKeys.all, contactId] as const,
  list: (contactId: string, isGroup: boolean) => [...messageKeys.conversation(contactId), { group: isGroup }] as const,
};

export const serviceKeys = {
  all: ['services'] as const,
  list: (query: ListQueryInput) => [...serviceKeys.all, 'list', query] as const,
  /** Every connection of the account (the inbox's filters and headers). */
  everything: () => [...serviceKeys.all, 'all'] as const,
  search: (text: string) => [...serviceKeys.all, 'search', text] as const,
  detail: (id: string) => [...serviceKeys.all, 'detail', id] as const,
};

export const userKeys = {
  all: ['users'] as const,
  list: (query: ListQueryInput) => [...userKeys.all, 'list', query] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
};

export const departmentKeys = {
  all: ['departments'] as const,
  list: (query: ListQueryInput) => [...departmentKeys.all, 'list', query] as const,
  detail: (id: string) => [...departmentKeys.all, 'detail', id] as const,
};

export const tagKeys = {
  all: ['tags'] as const,
  list: (query: ListQueryInput) => [...tagKeys.all, 'list', query] as const,
};

export const quickReplyKeys = {
  all: ['quick-replies'] as const,
  list: (query: ListQueryInput) => [...quickReplyKeys.all, 'list', query] as const,
};

/** A WhatsApp (API oficial) connection's message templates (GET /services/{id}/templates). */
export const templateKeys = {
  all: ['templates'] as const,
  ofService: (serviceId: string) => [...templateKeys.all, serviceId] as const,
};

/** A conversation's scheduled messages still to send (GET /contacts/{id}/scheduled-messages). */
export const scheduledMessageKeys = {
  all: ['scheduled-messages'] as const,
  ofContact: (contactId: string) => [...scheduledMessageKeys.all, contactId] as const,
};

/** Saved contact filters ('Segmentos', GET /segments), with their counts. */
export const segmentKeys = {
  all: ['segments'] as const,
  list: () => [...segmentKeys.all, 'list'] as const,
  count: (where: unknown) => [...segmentKeys.all, 'count', where] as const,
};

/** The account's business hours ('Horário de atendimento'). */
export const businessHoursKeys = { all: ['business-hours'] as const };

/** The account's automations ('Automações') and each connection's menu ('Menu de atendimento'). */
export const automationKeys = {
  all: ['automations'] as const,
  settings: () => [...automationKeys.all, 'settings'] as const,
  menu: (serviceId: string) => [...automationKeys.all, 'menu', serviceId] as const,
};

/** The account's inbox settings (`membersSeeAll`). */
export const inboxSettingsKeys = {
  all: ['inbox-settings'] as const,
};

export const accountKeys = {
  all: ['accounts'] as const,
  detail: (id: string) => [...accountKeys.all, 'detail', id] as const,
  usage: (id: string) => [...accountKeys.all, 'usage', id] as const,
};

export const paymentKeys = {
  all: ['payments'] as const,
  products: () => [...paymentKeys.all, 'products'] as const,
};

/** The inbox tabs' counts (GET /inbox/counts), one entry per `where` of the shared filters. */
export const inboxCountKeys = {
  all: ['inbox-counts'] as const,
  counts: (where: object) => [...inboxCountKeys.all, where] as const,
};

/** Campaigns ('Campanhas', GET /campaigns and GET /campaigns/{id}). */
export const campaignKeys = {
  all: ['campaigns'] as const,
  list: () => [...campaignKeys.all, 'list'] as const,
  detail: (id: string) => [...campaignKeys.all, 'detail', id] as const,
  /** Who did not get it (GET /campaigns/{id}/recipients), by outcome. */
  recipients: (id: string, outcome: string) => [...campaignKeys.all, 'recipients', id, outcome] as const,
};

/** Reports ('Relatórios', GET /reports): one entry per period and comparison. */
export const reportKeys = {
  all: ['reports'] as const,
  period: (from: string, to: string, compare: boolean) => [...reportKeys.all, from, to, compare] as const,
};
