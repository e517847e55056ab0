/**
 * Campaigns ('Campanhas'): one message to each contact of an audience, sent from the contacts' own
 * connections at a rhythm that does not get a number banned (ADR-0227): a random gap
 * between two sends of a number, only inside a sending window, at most so many a day and so many
 * first messages to people who never wrote. Texts take the quick replies' variables.
 */
import { z } from 'zod';
import { minutesOf } from './business-hours.ts';
import { idField, requiredString, requiredText } from './fields.ts';
import { quickReplyVariables } from './quick-replies.ts';
import { templateSendSchema } from './templates.ts';

/** `preparing`: a segment's recipients are being written in the background; it then goes `scheduled` (start in the future) or `running`. */
export const campaignStatuses = ['preparing', 'scheduled', 'running', 'paused', 'cancelled', 'finished'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/** Why a recipient was left out when its turn came, in pt-BR (the progress screen lists them: GET /campaigns/{id}/recipients). */
export const campaignSkipReasons = {
  optedOut: 'O contato pediu para não receber campanhas',
  archived: 'O contato está arquivado',
  deleted: 'O contato foi excluído',
  otherConnection: 'O contato é de outra conexão',
  windowClosed: 'A janela de 24 horas do contato está fechada: na API oficial, só um modelo aprovado pode ser enviado',
  noNewChats: 'O contato nunca escreveu para este número e a campanha não inicia conversas novas',
  group: 'O contato é um grupo',
  templateUnavailable: 'O modelo da campanha não está mais aprovado nesta conexão',
  templateFill: 'Um valor do modelo ficou vazio para este contato (por exemplo, {{email}} de um contato sem e-mail)',
} as const;
export type CampaignSkipReason = keyof typeof campaignSkipReasons;

export const campaignTexts = {
  gapOrder: 'O intervalo máximo deve ser maior ou igual ao mínimo',
  windowOrder: 'O fim da janela deve ser depois do início',
  weekdays: 'Escolha pelo menos um dia da semana',
  noMessage: 'Escreva a mensagem ou anexe um arquivo',
  /** A campaign with a template that also sends from a QR or Telegram connection: they send the text. */
  textForOtherConnections: 'Escreva a mensagem das conexões que não são da API oficial (elas não enviam o modelo)',
  templateWithoutCloud: 'Modelos só podem ser enviados por conexões do WhatsApp (API oficial): escolha uma ou tire o modelo',
  startInPast: 'Escolha um horário de início no futuro',
  unknownVariable: (name: string) =>
    `Variável desconhecida: {{${name}}}. Use ${Object.keys(quickReplyVariables)
      .map((v) => `{{${v}}}`)
      .join(', ')}`,
} as const;

const wholeNumber = (min: number, max: number, unit: string) =>
  z
    .number({ error: requiredText })
    .int({ error: `Use um número inteiro de ${unit}` })
    .min(min, { error: `Use pelo menos ${min}` })
    .max(max, { error: `Use no máximo ${max}` });

const timeOfDay = z.string({ error: requiredText }).regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, { error: 'Use o formato HH:mm (00:00 a 24:00)' });

/** When a number may send: the account's business hours, or hours of the campaign's own on chosen weekdays. */
export const campaignWindowSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('business-hours') }),
    z
      .object({
        kind: z.literal('hours'),
        start: timeOfDay,
        end: timeOfDay,
        /** Sunday 0 … Saturday 6. */
        weekdays: z
          .array(z.number().int().min(0).max(6), { error: campaignTexts.weekdays })
          .min(1, { error: campaignTexts.weekdays })
          .max(7)
          .transform((days) => [...new Set(days)].sort()),
      })
      .refine((w) => minutesOf(w.end) > minutesOf(w.start), { error: campaignTexts.windowOrder, path: ['end'] }),
  ],
  { error: requiredText },
);
export type CampaignWindow = z.infer<typeof campaignWindowSchema>;

/** The rhythm of each number: a random gap in [min, max] seconds between two sends, and daily limits. */
export const campaignPaceSchema = z
  .object({
    minGapSeconds: wholeNumber(1, 3600, 'segundos'),
    maxGapSeconds: wholeNumber(1, 3600, 'segundos'),
    /** Campaign messages one number sends a day (the team's own sends are on top, under the worker's caps). */
    dailyLimit: wholeNumber(1, 10_000, 'mensagens'),
    /** Of those, first messages to people who never wrote to the number: what gets numbers banned. */
    dailyNewChats: wholeNumber(0, 10_000, 'mensagens'),
  })
  .refine((p) => p.maxGapSeconds >= p.minGapSeconds, { error: campaignTexts.gapOrder, path: ['maxGapSeconds'] });
export type CampaignPace = z.infer<typeof campaignPaceSchema>;

/** The `{{variables}}` of a campaign text that are not the quick replies' ones. */
function unknownVariables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([a-zA-Z_]+)\s*\}\}/g)].map(([, name]) => name!).filter((name) => !Object.hasOwn(quickReplyVariables, name.toLowerCase()));
}

/** A campaign text: at most 4,096 characters (WhatsApp's limit), only known variables. */
const campaignText = z
  .string({ error: requiredText })
  .max(4096, { error: 'Use no máximo 4096 caracteres' })
  .superRefine((text, ctx) => {
    for (const name of unknownVariables(text)) ctx.addIssue({ code: 'custom', message: campaignTexts.unknownVariable(name) });
  });

/**
 * The approved template a WhatsApp (API oficial) connection sends instead of the text (ADR-0227, "Templates"): its name and language and the values the send route takes
 * (`templateSendSchema`: body parameters `{{1}}`..., a text header's `{{1}}`, one value per button).
 * Every value may be, or contain, a contact field as in the text (`{{primeiro_nome}}`, `{{nome}}`,
 * `{{telefone}}`, `{{email}}`, `{{atendente}}`), filled per recipient when its turn comes; a media
 * header's file is the message's `fileId`.
 */
const campaignTemplateSchema = templateSendSchema.superRefine((t, ctx) => {
  const values: [(string | number)[], string | null | undefined][] = [
    ...t.parameters.map((v, i): [(string | number)[], string] => [['parameters', i], v]),
    [['header'], t.header],
    ...t.buttons.map((v, i): [(string | number)[], string] => [['buttons', i], v]),
  ];
  for (const [path, value] of values) {
    for (const name of unknownVariables(value ?? '')) ctx.addIssue({ code: 'custom', path, message: campaignTexts.unknownVariable(name) });
  }
});
export type CampaignTemplate = z.infer<typeof campaignTemplateSchema>;

/**
 * What each recipient receives: the text (with an optional file), and on a WhatsApp (API oficial)
 * connection the template when there is one. The text may stay empty when a template is given and
 * every chosen connection is one of the API oficial (checked when planned, where connections are known).
 */
export const campaignMessageSchema = z
  .object({
    text: campaignText.default(''),
    fileId: idField.nullable().default(null),
    template: campaignTemplateSchema.optional(),
  })
  .refine((m) => m.template !== undefined || m.text.trim() !== '' || m.fileId !== null, { error: campaignTexts.noMessage, path: ['text'] });
export type CampaignMessage = z.infer<typeof campaignMessageSchema>;

/**
 * Who receives it: contacts picked by hand (up to 1,000), or a segment (a saved contact filter, any
 * size): who it matches when the campaign starts, the filter frozen then.
 */
export const campaignAudienceSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('contacts'),
      contactIds: z
        .array(idField, { error: requiredText })
        .min(1, { error: 'Escolha pelo menos um contato' })
        .max(1000, { error: 'Escolha no máximo 1000 contatos; para mais, use um segmento' })
        .transform((ids) => [...new Set(ids)]),
    }),
    z.object({ kind: z.literal('segment'), segmentId: idField }),
  ],
  { error: requiredText },
);
export type CampaignAudience = z.infer<typeof campaignAudienceSchema>;

export const campaignPayload = z.object({
  name: requiredString(80),
  audience: campaignAudienceSchema,
  /** The connections whose contacts receive it; each sends to its own contacts. */
  // At most 50: the lanes start in one transaction with their campaign (DynamoDB takes 100 members).
  serviceIds: z.array(idField, { error: requiredText }).min(1, { error: 'Escolha pelo menos uma conexão' }).max(50, { error: 'Escolha no máximo 50 conexões' }),
  message: campaignMessageSchema,
  /** When to start (ISO instant); null: now. */
  startAt: z.iso.datetime({ offset: true, error: 'Use uma data e hora válidas' }).nullable().default(null),
  window: campaignWindowSchema,
  pace: campaignPaceSchema,
  /** Ends each message with how to stop receiving campaigns (the account's first opt-out word). */
  optOutHint: z.boolean().default(true),
});
export type CampaignPayload = z.infer<typeof campaignPayload>;

/** The hint that ends a campaign message, with the account's opt-out word. */
export const optOutHintText = (word: string) => `Para não receber mais mensagens como esta, responda ${word}.`;

/** A campaign's counts, as the progress screen shows them. */
export interface CampaignCounts {
  recipients: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  replied: number;
  skipped: number;
  optedOut: number;
}

export interface Campaign {
  id: string;
  name: string;
  status: CampaignStatus;
  audience: CampaignAudience;
  serviceIds: string[];
  message: CampaignMessage;
  startAt: string;
  window: CampaignWindow;
  pace: CampaignPace;
  optOutHint: boolean;
  counts: CampaignCounts;
  /** When the last recipient is expected to be sent, at the campaign's rules; null once finished. */
  estimatedFinishAt: string | null;
  /**
   * The connections of a running campaign that wait for something other than its pace, with why
   * in pt-BR ('A conexão está desconectada', the channel's daily cap); empty otherwise.
   */
  waiting: { serviceId: string; reason: string }[];
  createdBy: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
}

/** `POST /campaigns/{id}/status`: pause, resume or cancel. */
export const campaignMovePayload = z.object({
  action: z.enum(['pause', 'resume', 'cancel'], { error: 'Use pause, resume ou cancel' }),
});

/** Who did not get a campaign's message: `skipped` when their turn came (`campaignSkipReasons`), or whose message `failed`. */
export const campaignOutcomes = ['skipped', 'failed'] as const;
export type CampaignOutcome = (typeof campaignOutcomes)[number];

/** A page of them holds at most this many. */
export const campaignRecipientsPageSize = 50;

/** `GET /campaigns/{id}/recipients?outcome=&after=`: `after` is the previous page's `nextCursor`. */
export const campaignRecipientsQuery = z.object({
  outcome: z.enum(campaignOutcomes, { error: 'Use skipped ou failed' }),
  after: z.string().min(1).max(512).optional(),
});
export type CampaignRecipientsQuery = z.infer<typeof campaignRecipientsQuery>;

/** A recipient that did not get the message, and why (pt-BR). */
export interface CampaignRecipient {
  contactId: string;
  /** null when the contact was deleted since. */
  name: string | null;
  phoneNumber: string | null;
  serviceId: string;
  outcome: CampaignOutcome;
  reason: string;
  /** When it was skipped, or when its message was sent (and then failed). */
  at: string | null;
}

/** `nextCursor`: the next page's `after`, null after the last. A page may hold fewer than a full one and still have a next. */
export interface CampaignRecipientsPage {
  data: CampaignRecipient[];
  nextCursor: string | null;
}
