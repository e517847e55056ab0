/**
 * Scheduled messages (docs/product.md#scheduled-messages, ADR-0224): a text (and
 * optionally one uploaded file) sent to a contact at a date and time of the account's zone, once or
 * repeating. One schema for the composer's form and the route.
 */
import { z } from 'zod';
import { idField, requiredText } from './fields.ts';
import { maxTextLength } from './messages.ts';

export const scheduleRepeats = ['once', 'daily', 'weekly', 'monthly'] as const;
export type ScheduleRepeat = (typeof scheduleRepeats)[number];

export const scheduleRepeatLabels: Record<ScheduleRepeat, string> = {
  once: 'Uma vez',
  daily: 'Diariamente',
  weekly: 'Semanalmente',
  monthly: 'Mensalmente',
};

export const scheduleTexts = {
  empty: 'A mensagem está vazia',
  tooLong: `A mensagem pode ter no máximo ${maxTextLength} caracteres`,
  invalidDate: 'Data inválida',
  invalidTime: 'Horário inválido',
  past: 'Escolha uma data e um horário que ainda não passaram',
  notPending: 'Esta mensagem agendada já foi enviada ou cancelada',
} as const;

/** Whether 'YYYY-MM-DD' names a real calendar day (no 31/02). */
function isCalendarDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** `POST /scheduled-messages` and `PUT /scheduled-messages/{id}`: when (the account's wall clock) and what. */
export const scheduleMessagePayload = z
  .object({
    contactId: idField,
    text: z.string().max(maxTextLength, { error: scheduleTexts.tooLong }).default(''),
    fileId: z.string().min(1).max(64).nullish(),
    date: z
      .string({ error: requiredText })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: scheduleTexts.invalidDate })
      .refine(isCalendarDate, { error: scheduleTexts.invalidDate }),
    time: z.string({ error: requiredText }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: scheduleTexts.invalidTime }),
    repeat: z.enum(scheduleRepeats, { error: requiredText }).default('once'),
  })
  .superRefine((v, ctx) => {
    if (!v.fileId && !v.text.trim()) ctx.addIssue({ code: 'custom', path: ['text'], message: scheduleTexts.empty });
  });
export type ScheduleMessagePayload = z.infer<typeof scheduleMessagePayload>;

/** `POST /scheduled-messages/{id}/cancel`: the conversation it belongs to. */
export const cancelScheduledMessagePayload = z.object({ contactId: idField });

export type ScheduledMessageStatus = 'scheduled' | 'sent' | 'cancelled';

/** A scheduled message as the API and the realtime events answer it. */
export interface ScheduledMessage {
  id: string;
  contactId: string;
  serviceId: string;
  text: string;
  file: { id: string; name: string; mimetype: string } | null;
  repeat: ScheduleRepeat;
  /** The next occurrence (the last one once sent or cancelled) on the account's wall clock ('YYYY-MM-DD', 'HH:mm'). */
  date: string;
  time: string;
  timeZone: string;
  status: ScheduledMessageStatus;
  /** The next occurrence (null once sent or cancelled), as an instant and as 'dd/MM/yyyy HH:mm' in the account's zone. */
  nextAt: string | null;
  nextAtText: string | null;
  /** Occurrences sent so far. */
  sentCount: number;
  user: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
}
