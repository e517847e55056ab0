/** User payloads and the create/edit form (docs/product.md#entities-and-states and docs/product.md#validation). */
import { z } from 'zod';
import { emailField, idField, passwordField, requiredString, requiredText } from './fields.ts';

export const emailInvalidText = 'Email inválido';

export const userCreatePayload = z.object({
  id: z.string().optional(),
  name: requiredString(120),
  email: emailField(emailInvalidText),
  password: passwordField,
  isAdmin: z.boolean().optional().default(false),
});
export type UserCreatePayload = z.infer<typeof userCreatePayload>;

export const userUpdatePayload = z.object({
  id: z.string().optional(),
  name: requiredString(120),
  email: emailField(emailInvalidText),
  password: z.union([z.literal(''), passwordField]).optional(),
  isAdmin: z.boolean().optional(),
  /** 'Não assinar minhas mensagens': only the user themselves changes it. */
  skipSignature: z.boolean().optional(),
});
export type UserUpdatePayload = z.infer<typeof userUpdatePayload>;

export const userArchivePayload = z.object({ id: idField.optional(), archive: z.boolean({ error: requiredText }) });

export const passwordsDoNotMatchText = 'As senhas não coincidem';
export const keepPasswordHint = 'Deixe em branco para manter a senha atual';

/** The users form: create requires the passwords; edit leaves them optional. */
export function userForm(mode: 'create' | 'edit') {
  const password = mode === 'create' ? passwordField : z.union([z.literal(''), passwordField]);
  const confirm = mode === 'create' ? z.string({ error: requiredText }).min(1, { error: requiredText }) : z.string();
  return z
    .object({
      name: requiredString(120),
      email: emailField(emailInvalidText),
      password,
      confirmPassword: confirm,
      isAdmin: z.boolean().default(false),
      skipSignature: z.boolean().default(false),
    })
    .refine((v) => v.password === v.confirmPassword, { error: passwordsDoNotMatchText, path: ['confirmPassword'] });
}

/** Why a user is archived when the plan's limit archived it (a downgrade or a cancellation). */
export const archivedUserByLimitText = 'Usuário arquivado automaticamente porque o limite de usuários do plano foi atingido';
