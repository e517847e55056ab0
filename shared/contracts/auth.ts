/** Payloads of the /auth calls (docs/api.md) and the forms that send them (docs/product.md#validation). */
import { z } from 'zod';
import { emailField, idField, passwordField, requiredString, requiredText, verifyCodeField } from './fields.ts';
import type { SessionUser } from './entities.ts';

export const loginPayload = z.object({
  email: emailField(requiredText),
  password: z.string({ error: requiredText }).min(1, { error: requiredText }).max(128),
  accountId: idField.optional(),
});
export type LoginPayload = z.infer<typeof loginPayload>;

export const registerPayload = z.object({
  name: requiredString(120),
  email: emailField('Email inválido'),
  password: z.string({ error: requiredText }).min(1, { error: requiredText }).max(128),
});
export type RegisterPayload = z.infer<typeof registerPayload>;

export const termsText = 'Você precisa aceitar os termos para continuar';
export const registerForm = registerPayload.extend({
  terms: z.literal(true, { error: termsText }),
});

export const forgotPasswordPayload = z.object({ email: emailField('Endereço de email inválido') });
export type ForgotPasswordPayload = z.infer<typeof forgotPasswordPayload>;

export const resetPasswordPayload = z.object({
  email: emailField('Endereço de email inválido'),
  verifyCode: verifyCodeField,
  password: passwordField,
  accountId: idField.optional(),
});
export type ResetPasswordPayload = z.infer<typeof resetPasswordPayload>;

export const passwordsMustMatchText = 'As senhas devem ser iguais';
export const resetPasswordForm = z
  .object({ password: passwordField, confirmPassword: z.string({ error: requiredText }) })
  .refine((v) => v.password === v.confirmPassword, { error: passwordsMustMatchText, path: ['confirmPassword'] });

export const verifyEmailPayload = z.object({ userId: idField, verifyCode: verifyCodeField });
export type VerifyEmailPayload = z.infer<typeof verifyEmailPayload>;

export const verifyEmailForm = z.object({ verifyCode: verifyCodeField });

export const resendVerificationPayload = z.object({ userId: idField });

export const switchAccountPayload = z.object({ accountId: idField });
export type SwitchAccountPayload = z.infer<typeof switchAccountPayload>;

/** A successful sign-in. */
export interface SessionAnswer {
  accessToken: string;
  user: SessionUser;
}

/** One of several users that share an e-mail: the login and reset account choice. */
export interface AccountChoice {
  id: string;
  name: string;
  email: string;
  accountId: string;
  account: { id: string; name: string };
}

/** Login and reset answer either a session or the list to choose from. */
export type LoginAnswer = SessionAnswer | { users: AccountChoice[] };
export type ResetPasswordAnswer = SessionAnswer | { accounts: AccountChoice[] };
