/**
 * API tokens ('Tokens de API', ADR-0232): an account's admins create them with scopes;
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

/** Every secret starts with this, so a bearer is told from a session token before anything is read. */
export const apiTokenPrefix = 'cvk_';

/** A token as the screen lists it: never its secret, only the prefix and its last 4 characters. */
export interface ApiToken {
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  /** `cvk_…AbCd`. */
  hint: string;
  createdBy: { id: string; name: string };
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: { id: string; name: string } | null;
}

/** The answer of creating a token: the only time its secret is ever shown. */
export interface ApiTokenCreated {
  token: ApiToken;
  secret: string;
}

/** One audited call made with a token. */
export interface ApiTokenCall {
  at: string;
  method: string;
  route: string;
  status: number;
  address: string;
}
