/** Contacts (docs/product.md#entities-and-states and docs/product.md#validation): entity, payload and the form rules shared by the modal and the API. */
import { z } from 'zod';
import type { ConversationStatus } from './conversations.ts';
import { requiredString, requiredText } from './fields.ts';
import { genders, type Gender } from './genders.ts';
import type { MessageSummary } from './messages.ts';
import { digitsOnly, phoneError } from './phone.ts';
import type { ServiceType } from './services.ts';

export { genderLabels, genders, type Gender } from './genders.ts';

export interface Contact {
  id: string;
  name: string;
  type: 'user' | 'group';
  data: { email: string | null; phoneNumber: string | null; phoneCountry: string | null };
  idFromService: string;
  gender: Gender | null;
  serviceId: string;
  service: { id: string; name: string; type: ServiceType } | null;
  avatar: { url: string } | null;
  avatarUrl: string | null;
  isOnline: boolean;
  lastSeenAt: string | null;
  archivedAt: string | null;
  /** 'limit' when archived automatically at the account's contact limit. */
  archivedReason: 'limit' | 'manual' | null;
  lastMessage: MessageSummary | null;
  lastMessageAt: string | null;
  /**
   * When the person last wrote on this connection: the WhatsApp Cloud API's 24-hour window runs from
   * it (`customerWindow`, customer-window.ts). Null when they never wrote (or not since it was kept).
   */
  lastInboundAt: string | null;
  /**
   * When the person asked to receive no more campaigns (an opt-out word, LGPD), and the word they
   * sent; null while they receive them. Campaigns skip such contacts (ADR-0225).
   */
  optedOutAt: string | null;
  optedOutWord: string | null;
  unread: number;
  /** The conversation's status (docs/product.md#team-inbox). */
  status: ConversationStatus;
  /** Who handles the conversation, and the department it is routed to. */
  userId: string | null;
  departmentId: string | null;
  /** Ids of the account's tags (GET /tags has their names and colours). */
  tags: string[];
  user: { id: string; name: string } | null;
  department: { id: string; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .transform((v) => v.trim())
    .nullish()
    .transform((v) => (v ? v : null));

export const contactPayload = z.object({
  name: requiredString(120),
  serviceId: z.string({ error: requiredText }).min(1, { error: requiredText }).max(64),
  gender: z
    .enum(genders)
    .nullish()
    .transform((v) => v ?? null),
  idFromService: optionalText(128),
  data: z
    .object({
      email: z
        .string()
        .trim()
        .max(254)
        .nullish()
        .transform((v) => (v ? v.toLowerCase() : null))
        .pipe(z.email({ error: 'Email inválido' }).nullable()),
      phoneNumber: optionalText(32).transform((v) => (v ? digitsOnly(v) || v : null)),
      phoneCountry: optionalText(2).transform((v) => (v ? v.toUpperCase() : null)),
    })
    .default({ email: null, phoneNumber: null, phoneCountry: null }),
});
export type ContactPayload = z.infer<typeof contactPayload>;

export const contactArchivePayload = z.object({ archive: z.boolean({ error: requiredText }) });

export interface ContactRulesContext {
  mode: 'create' | 'edit';
  serviceType: ServiceType;
  /** The contact as stored, when editing. */
  original?: Pick<Contact, 'serviceId' | 'idFromService' | 'data'>;
}

/**
 * The rules of docs/product.md#validation that depend on the connection and on create versus edit. Answers
 * the problems as [path, pt-BR message] pairs; empty when the payload is acceptable.
 */
export function contactRuleProblems(payload: ContactPayload, ctx: ContactRulesContext): [string, string][] {
  const problems: [string, string][] = [];
  const telegram = ctx.serviceType === 'telegram';
  const phone = payload.data.phoneNumber;
  if (ctx.mode === 'edit' && ctx.original && payload.serviceId !== ctx.original.serviceId) {
    problems.push(['serviceId', 'A conexão não pode ser alterada']);
  }
  if (ctx.mode === 'create' && telegram && !payload.idFromService) problems.push(['idFromService', requiredText]);
  if (!telegram && !phone && !(ctx.mode === 'edit' && ctx.original?.data.phoneNumber)) problems.push(['data.phoneNumber', requiredText]);
  if (ctx.mode === 'edit' && !telegram && ctx.original) {
    const changed =
      (phone && phone !== ctx.original.data.phoneNumber) || (payload.data.phoneCountry && payload.data.phoneCountry !== ctx.original.data.phoneCountry);
    if (changed) problems.push(['data.phoneNumber', 'O telefone não pode ser alterado']);
  }
  const skipPhone =
    (ctx.serviceType !== 'telegram' && ctx.mode === 'edit') || (telegram && (!phone || (ctx.mode === 'edit' && phone === ctx.original?.data.phoneNumber)));
  if (!skipPhone && phone) {
    const error = phoneError(phone, payload.data.phoneCountry ?? undefined);
    if (error) problems.push(['data.phoneNumber', error]);
  }
  return problems;
}
