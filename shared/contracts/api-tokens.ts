/**
 * API tokens ('Tokens de API', ADR draft api-tokens): an account's admins create them with scopes;
 * a token calls the same routes as the app, only those whose scope it holds.
 */
import { z } from 'zod';
import { requiredString, requiredText } from './fields.ts';

export const apiTokenScopes = ['contacts:read', 'contacts:write', 'messages:read', 'messages:send', 'webhooks:manage'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

/** The scopes' labels on the 'Tokens de API' screen (docs/product.md#tokens-de-api). */
export const apiTokenScopeLabels: Record<ApiTokenScope, string> = {
  'contacts:read': 'Ler contatos',
  'contacts:write': 'Gravar contatos',
  'messages:read': 'Ler mensagens',
  'messages:send': 'Enviar mensagens',
  'webhooks:manage': 'Gerenciar webhooks',
};

/** The expiry choices of the create dialog, in days; `null` is 'Sem validade'. */
export const apiTokenExpiryDays = [30, 90, 365] as const;

export const apiTokenTexts = {
  noScope: 'Escolha pelo menos uma permissão',
  expiry: 'Escolha 30, 90 ou 365 dias, ou sem validade',
} as const;

export const apiTokenPayload = z.object({
  name: requiredString(80),
  scopes: z
    .array(z.enum(apiTokenScopes, { error: apiTokenTexts.noScope }), { error: requiredText })
    .min(1, { error: apiTokenTexts.noScope })
    .transform((scopes) => apiTokenScopes.filter((s) => scopes.includes(s))),
  expiresInDays: z
    .number({ error: apiTokenTexts.expiry })
    .refine((d) => (apiTokenExpiryDays as readonly number[]).includes(d), { error: apiTokenTexts.expiry })
    .nullable()
    .default(null),
});
export type ApiTokenPayload = z.input<typeof apiTokenPayload>;
