/**
 * WhatsApp message templates ('Modelos de mensagem', docs/product.md#screens, ADR-0213) of a
 * WhatsApp (API oficial) connection: the form and the create route share `templatePayload`; the
 * send payload's `template` names an approved one with its parameters. Meta's rules enforced here
 * (name charset, text lengths, button limits, an example per variable) are the ones Meta answers
 * a create with a refusal for, so an admin learns of them on the form, not days later.
 */
import { z } from 'zod';
import { fillVariables, variableValues, type QuickReplyContext } from './quick-replies.ts';
import { requiredText } from './fields.ts';

export const templateCategories = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof templateCategories)[number];
export const templateCategoryLabels: Record<TemplateCategory, string> = {
  MARKETING: 'Marketing',
  UTILITY: 'Utilidade',
  AUTHENTICATION: 'Autenticação',
};

export const templateStatuses = ['PENDING', 'APPROVED', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export type TemplateStatus = (typeof templateStatuses)[number];
export const templateStatusLabels: Record<TemplateStatus, string> = {
  PENDING: 'Em análise',
  APPROVED: 'Aprovado',
  REJECTED: 'Rejeitado',
  PAUSED: 'Pausado',
  DISABLED: 'Desativado',
};

/** Meta's own limits (WhatsApp Business Platform, message templates). */
export const templateLimits = {
  name: 512,
  header: 60,
  body: 1024,
  footer: 60,
  buttons: 10,
  urlButtons: 2,
  phoneButtons: 1,
  buttonText: 25,
  url: 2000,
  example: 200,
  parameter: 1024,
} as const;

export const marketingBillingNote = 'Modelos de marketing são cobrados pela Meta por mensagem entregue.';

export const templateTexts = {
  name: 'Use só letras minúsculas, números e _ (sem espaços nem acentos)',
  language: 'Use um código de idioma como pt_BR',
  variablesInOrder: 'Numere as variáveis em ordem, a partir de {{1}}: {{1}}, {{2}}, {{3}}...',
  variableAtEdge: 'O texto não pode começar nem terminar com uma variável',
  noVariables: 'Este campo não aceita variáveis',
  exampleMissing: 'Informe um exemplo para cada variável',
  tooManyButtons: `Use no máximo ${templateLimits.buttons} botões`,
  tooManyUrlButtons: `Use no máximo ${templateLimits.urlButtons} botões de link`,
  tooManyPhoneButtons: `Use no máximo ${templateLimits.phoneButtons} botão de telefone`,
  url: 'Informe um endereço que comece com https://',
  phone: 'Informe o telefone com código do país, como +5511987654321',
  parameterCount: (want: number) => `Este modelo tem ${want} ${want === 1 ? 'variável' : 'variáveis'}: preencha ${want === 1 ? 'ela' : 'todas'}`,
  parameterEmpty: (n: number) => `A variável {{${n}}} ficou vazia para este contato`,
  templateNotFound: 'Modelo não encontrado nesta conexão. Sincronize os modelos e tente de novo.',
  templateNotApproved: (status: TemplateStatus) => `Só modelos aprovados pela Meta podem ser enviados; este está ${templateStatusLabels[status].toLowerCase()}`,
} as const;

const max = (n: number) => ({ error: `Use no máximo ${n} caracteres` });
const optionalText = (limit: number) =>
  z
    .string()
    .trim()
    .max(limit, max(limit))
    .nullish()
    .transform((v) => (v ? v : null));

/** The `{{n}}` variables of a text, in order of appearance (repeats included). */
export function variablesOf(text: string): number[] {
  return [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
}

/** How many variables a body has: the highest `{{n}}` (they are numbered 1..n). */
export function variableCount(text: string): number {
  return Math.max(0, ...variablesOf(text));
}

export const templateButtonSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('QUICK_REPLY'), text: z.string({ error: requiredText }).trim().min(1, { error: requiredText }).max(25, max(25)) }),
    z.object({
      type: z.literal('URL'),
      text: z.string({ error: requiredText }).trim().min(1, { error: requiredText }).max(25, max(25)),
      url: z
        .string({ error: requiredText })
        .trim()
        .max(templateLimits.url, max(templateLimits.url))
        .regex(/^https:\/\/[^\s]+\.[^\s]+$/, { error: templateTexts.url }),
    }),
    z.object({
      type: z.literal('PHONE_NUMBER'),
      text: z.string({ error: requiredText }).trim().min(1, { error: requiredText }).max(25, max(25)),
      phoneNumber: z
        .string({ error: requiredText })
        .trim()
        .regex(/^\+[1-9]\d{7,14}$/, { error: templateTexts.phone }),
    }),
  ],
  { error: requiredText },
);
export type TemplateButton = z.infer<typeof templateButtonSchema>;

export const templatePayload = z
  .object({
    name: z
      .string({ error: requiredText })
      .trim()
      .min(1, { error: requiredText })
      .max(templateLimits.name, max(templateLimits.name))
      .regex(/^[a-z0-9_]+$/, { error: templateTexts.name }),
    category: z.enum(templateCategories, { error: requiredText }),
    language: z
      .string({ error: templateTexts.language })
      .trim()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: templateTexts.language })
      .default('pt_BR'),
    header: optionalText(templateLimits.header),
    body: z.string({ error: requiredText }).trim().min(1, { error: requiredText }).max(templateLimits.body, max(templateLimits.body)),
    /** One example per body variable, `{{1}}` first (Meta refuses a template without them). */
    examples: z
      .array(z.string({ error: templateTexts.exampleMissing }).trim().max(templateLimits.example, max(templateLimits.example)), {
        error: templateTexts.exampleMissing,
      })
      .max(100)
      .default([]),
    footer: optionalText(templateLimits.footer),
    buttons: z.array(templateButtonSchema, { error: requiredText }).max(templateLimits.buttons, { error: templateTexts.tooManyButtons }).default([]),
  })
  .superRefine((v, ctx) => {
    const found = variablesOf(v.body);
    const count = variableCount(v.body);
    const distinct = new Set(found);
    if (found.length && distinct.size !== count) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: templateTexts.variablesInOrder });
    } else if (found.length && (/^\{\{\s*\d+\s*\}\}/.test(v.body) || /\{\{\s*\d+\s*\}\}$/.test(v.body))) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: templateTexts.variableAtEdge });
    }
    for (let i = 0; i < count; i++) {
      if (!v.examples[i]) ctx.addIssue({ code: 'custom', path: ['examples', i], message: templateTexts.exampleMissing });
    }
    for (const field of ['header', 'footer'] as const) {
      if (v[field] && /\{\{.*?\}\}/.test(v[field])) ctx.addIssue({ code: 'custom', path: [field], message: templateTexts.noVariables });
    }
    if (v.buttons.filter((b) => b.type === 'URL').length > templateLimits.urlButtons)
      ctx.addIssue({ code: 'custom', path: ['buttons'], message: templateTexts.tooManyUrlButtons });
    if (v.buttons.filter((b) => b.type === 'PHONE_NUMBER').length > templateLimits.phoneButtons)
      ctx.addIssue({ code: 'custom', path: ['buttons'], message: templateTexts.tooManyPhoneButtons });
  })
  .transform((v) => ({ ...v, examples: v.examples.slice(0, variableCount(v.body)) }));
export type TemplatePayload = z.infer<typeof templatePayload>;

/**
 * What a template's header is, as Meta lists it (`components[type=HEADER].format`): a text (with
 * at most one variable `{{1}}`), a media chosen at every send, or a location. Null: no header.
 */
export const templateHeaderFormats = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export type TemplateHeaderFormat = (typeof templateHeaderFormats)[number];
export const templateHeaderLabels: Record<TemplateHeaderFormat, string> = {
  TEXT: 'texto',
  IMAGE: 'imagem',
  VIDEO: 'vídeo',
  DOCUMENT: 'documento',
  LOCATION: 'localização',
};

/**
 * A button of a stored template: the form's kinds, plus Meta's copy-code button (a coupon the
 * customer copies; its code is given at every send) that templates made in Meta's manager carry.
 * A URL button whose `url` ends in `{{1}}` takes a suffix at every send. A kind the product does
 * not send (OTP, FLOW, CATALOG, ...) is kept in its place as `UNSUPPORTED` with Meta's name for it
 * (`kind`): a send names buttons by their index among all of them, and the template is refused at
 * the send instead of reaching Meta with a wrong index.
 */
export type TemplateButtonInfo = TemplateButton | { type: 'COPY_CODE'; text: string } | { type: 'UNSUPPORTED'; text: string; kind: string };

/** A template as the API answers it. `id` is Meta's template id. */
export interface MessageTemplate {
  id: string;
  serviceId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  /** Why Meta rejected or paused it, in pt-BR when known; null otherwise. */
  rejectionReason: string | null;
  /** The header's format; null for none. Only a TEXT header has `header` text (with `{{1}}` or not). */
  headerFormat: TemplateHeaderFormat | null;
  header: string | null;
  body: string;
  examples: string[];
  footer: string | null;
  buttons: TemplateButtonInfo[];
  /** The number of `{{n}}` variables of the body: the parameters a send carries. */
  variableCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A sync's outcome: how many templates Meta has and how many were stored new, changed or dropped. */
export interface TemplateSyncResult {
  data: MessageTemplate[];
  created: number;
  updated: number;
  removed: number;
}

/**
 * A template named in a send (`POST /messages/send` with `template`): each parameter is a typed
 * value or a contact field written as in quick replies (`{{nome}}`, `{{primeiro_nome}}`,
 * `{{telefone}}`, `{{email}}`, `{{atendente}}`), filled for the contact when sent.
 */
export const templateSendSchema = z.object({
  name: z
    .string({ error: requiredText })
    .trim()
    .min(1, { error: requiredText })
    .max(templateLimits.name, max(templateLimits.name))
    .regex(/^[a-z0-9_]+$/, { error: templateTexts.name }),
  language: z
    .string({ error: templateTexts.language })
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: templateTexts.language })
    .default('pt_BR'),
  parameters: z
    .array(z.string({ error: requiredText }).max(templateLimits.parameter, max(templateLimits.parameter)), { error: requiredText })
    .max(100)
    .default([]),
  /** The value of a text header's `{{1}}` (a media header's file is the send's `fileId`). */
  header: z.string({ error: requiredText }).max(templateLimits.parameter, max(templateLimits.parameter)).nullish(),
  /** One value per button of the template, by its index: a URL button's suffix, a copy-code button's code; '' for the others. */
  buttons: z
    .array(z.string({ error: requiredText }).max(templateLimits.url, max(templateLimits.url)), { error: requiredText })
    .max(templateLimits.buttons)
    .default([]),
});
export type TemplateSend = z.infer<typeof templateSendSchema>;

/**
 * The values a template send carries for one contact: each parameter with its contact fields
 * filled (`{{nome}}` → the contact's name), trimmed. Answers the values, or the first problem
 * (too few or too many parameters for the template, or one left empty for this contact).
 */
export function templateParameterValues(
  parameters: readonly string[],
  want: number,
  ctx: QuickReplyContext,
): { ok: true; values: string[] } | { ok: false; path: string; message: string } {
  if (parameters.length !== want) return { ok: false, path: 'template.parameters', message: templateTexts.parameterCount(want) };
  const fields = variableValues(ctx);
  const values = parameters.map((p) => fillVariables(p, fields).trim());
  const empty = values.findIndex((v) => !v);
  if (empty >= 0) return { ok: false, path: `template.parameters.${empty}`, message: templateTexts.parameterEmpty(empty + 1) };
  return { ok: true, values };
}
