/**
 * The conversation with each contact (docs/product.md#team-inbox): its status, who handles it, internal notes, the
 * inbox's tabs and counts, and the account's inbox setting.
 */
import { z } from 'zod';
import { idField, requiredText } from './fields.ts';
import { conversationStatuses } from './conversation-labels.ts';
import { maxTextLength } from './messages.ts';

export {
  type ConversationStatus,
  conversationStatuses,
  conversationStatusLabels,
  type InboxCounts,
  type InboxTab,
  inboxTabs,
} from './conversation-labels.ts';

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

export interface InboxSettings {
  /** Members see every conversation of the account, not only theirs and their departments' unassigned ones. */
  membersSeeAll: boolean;
}

export const inboxSettingsPayload = z.object({ membersSeeAll: z.boolean({ error: requiredText }) });
