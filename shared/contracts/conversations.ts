/**
 * The conversation with each contact (issue 14): its status, who handles it, internal notes, the
 * inbox's tabs and counts, and the account's inbox setting.
 */
import { z } from 'zod';
import { idField, requiredText } from './fields.ts';
import { maxTextLength } from './messages.ts';

export const conversationStatuses = ['open', 'pending', 'resolved'] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];

/** @public labels for the web's status filter */
export const conversationStatusLabels: Record<ConversationStatus, string> = {
  open: 'Aberta',
  pending: 'Pendente',
  resolved: 'Resolvida',
};

export const conversationStatusPayload = z.object({
  status: z.enum(conversationStatuses, { error: 'Escolha aberta, pendente ou resolvida' }),
});

export const transferPayload = z
  .object({
    userId: idField.nullish().transform((v) => v ?? null),
    departmentId: idField.nullish().transform((v) => v ?? null),
    note: z
      .string()
      .max(1000, { error: 'Use no máximo 1000 caracteres' })
      .nullish()
      .transform((v) => v?.trim() || null),
  })
  .superRefine((v, ctx) => {
    if (!v.userId && !v.departmentId) ctx.addIssue({ code: 'custom', path: ['userId'], message: 'Escolha um usuário ou um departamento' });
  });
export type TransferPayload = z.infer<typeof transferPayload>;

export const notePayload = z.object({
  contactId: idField,
  text: z
    .string({ error: requiredText })
    .trim()
    .min(1, { error: 'A nota está vazia' })
    .max(maxTextLength, { error: `A nota pode ter no máximo ${maxTextLength} caracteres` }),
});
export type NotePayload = z.infer<typeof notePayload>;

/** The inbox's tabs: 'Meus' (assigned to me), 'Não atribuídos' (nobody's), 'Todos' (everything I may see). */
export const inboxTabs = ['mine', 'unassigned', 'all'] as const;
export type InboxTab = (typeof inboxTabs)[number];

/** @public labels for the web's tabs */
export const inboxTabLabels: Record<InboxTab, string> = { mine: 'Meus', unassigned: 'Não atribuídos', all: 'Todos' };

/** For each tab, how many conversations in total and in each status. */
export type InboxCounts = Record<InboxTab, { total: number } & Record<ConversationStatus, number>>;

export interface InboxSettings {
  /** Members see every conversation of the account, not only theirs and their departments' unassigned ones. */
  membersSeeAll: boolean;
}

export const inboxSettingsPayload = z.object({ membersSeeAll: z.boolean({ error: requiredText }) });
