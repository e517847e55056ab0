/**
 * Quick replies ('Respostas rápidas', docs/product.md#team-inbox): saved texts with a shortcut, typed as `/atalho` in
 * the composer, and the variables (`{{nome}}`, ...) filled from the contact and the agent. The
 * filling is here, isomorphic: the server answers filled texts and the web can preview them.
 */
import { z } from 'zod';
import { idField, requiredString, requiredText } from './fields.ts';

export interface QuickReply {
  id: string;
  /** Without the slash: `/boleto` is stored as `boleto`. */
  shortcut: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export const shortcutText = 'Use só letras minúsculas, números, - e _ (sem espaços)';

export const quickReplyPayload = z.object({
  shortcut: z
    .string({ error: requiredText })
    .trim()
    .transform((v) => v.replace(/^\//, '').toLowerCase())
    .pipe(
      z
        .string()
        .min(1, { error: requiredText })
        .max(30, { error: 'Use no máximo 30 caracteres' })
        .regex(/^[a-z0-9_-]+$/, { error: shortcutText }),
    ),
  text: requiredString(4096),
});
export type QuickReplyPayload = z.infer<typeof quickReplyPayload>;

export const quickReplyRenderPayload = z.object({ contactId: idField });

/** The variables a quick reply may use, with what each is filled with. */
export const quickReplyVariables = {
  nome: 'Nome do contato',
  primeiro_nome: 'Primeiro nome do contato',
  telefone: 'Telefone do contato',
  email: 'E-mail do contato',
  atendente: 'Seu nome',
} as const;
export type QuickReplyVariable = keyof typeof quickReplyVariables;

export interface QuickReplyContext {
  contact: { name: string; data: { phoneNumber: string | null; email: string | null } };
  agent: { name: string };
}

/** The value of every variable for a contact and an agent; a missing value is empty. */
export function variableValues(ctx: QuickReplyContext): Record<QuickReplyVariable, string> {
  const name = ctx.contact.name.trim();
  return {
    nome: name,
    primeiro_nome: name.split(/\s+/)[0] ?? '',
    telefone: ctx.contact.data.phoneNumber ?? '',
    email: ctx.contact.data.email ?? '',
    atendente: ctx.agent.name.trim(),
  };
}

/**
 * Fills `{{variable}}` (spaces inside the braces allowed, case ignored). Unknown names stay as
 * typed, so a misspelt variable shows instead of vanishing.
 */
export function fillVariables(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([a-zA-Z_]+)\s*\}\}/g, (whole, name: string) => {
    const key = name.toLowerCase();
    return Object.hasOwn(values, key) ? (values[key] as string) : whole;
  });
}
