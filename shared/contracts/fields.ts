/** Field schemas with the exact pt-BR validation texts of docs/product.md#validation, shared by forms and handlers. */
import { z } from 'zod';

export const requiredText = 'Campo obrigatório';

/** A required, trimmed string: missing, non-string or blank all answer 'Campo obrigatório'. */
export const requiredString = (max = 200) =>
  z
    .string({ error: requiredText })
    .trim()
    .min(1, { error: requiredText })
    .max(max, { error: `Use no máximo ${max} caracteres` });

/** An e-mail: required, trimmed, lower-cased, and of a valid shape ('message' per screen). */
export const emailField = (message: string) =>
  z
    .string({ error: requiredText })
    .trim()
    .min(1, { error: requiredText })
    .max(254, { error: message })
    .pipe(z.email({ error: message }))
    .transform((v) => v.toLowerCase());

export const passwordMinText = 'A senha deve ter pelo menos 6 caracteres';
export const passwordField = z
  .string({ error: requiredText })
  .min(1, { error: requiredText })
  .min(6, { error: passwordMinText })
  .max(128, { error: 'Use no máximo 128 caracteres' });

export const idField = z.string({ error: requiredText }).min(1, { error: requiredText }).max(64);

export const verifyCodeText = 'O código deve conter 6 dígitos';
export const verifyCodeField = z
  .string({ error: verifyCodeText })
  .trim()
  .regex(/^\d{6}$/, { error: verifyCodeText });
