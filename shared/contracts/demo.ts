/** The request-a-demo form (docs/product.md#screens). Web only: it is never sent anywhere. */
import { z } from 'zod';
import { emailField, requiredString, requiredText } from './fields.ts';

export const employeeRanges = ['1-10', '11-50', '51-200', '201-500', '501+'] as const;

export const demoRequestForm = z.object({
  name: requiredString(120),
  email: emailField('Email inválido'),
  company: requiredString(120),
  phone: requiredString(30),
  employees: z.enum(employeeRanges, { error: requiredText }),
  message: z.string().trim().max(2000, { error: 'Use no máximo 2000 caracteres' }).optional(),
});

/** The fake submit of the demo page: 'Enviando...' for this long, then the success text. */
export const demoSubmitDelayMs = 1500;
/** After the success text, the page goes back to / after this long. */
export const demoRedirectDelayMs = 3000;
