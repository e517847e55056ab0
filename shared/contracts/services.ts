/** Connections ("services"): WhatsApp or Telegram channels of an account (SPEC sections 3, 4, 5). */
import { z } from 'zod';
import { requiredString, requiredText } from './fields.ts';
import { type ServiceStatus, type ServiceType, serviceTypes } from './service-labels.ts';

export { type ServiceStatus, serviceStatuses, type ServiceType, serviceTypes } from './service-labels.ts';

export interface Service {
  id: string;
  name: string;
  type: ServiceType;
  status: ServiceStatus;
  connected: boolean;
  /** What to show while pairing: a QR as an image data URL, or WhatsApp's 8-character code to type on the phone. */
  data: { qrCode: string | null; pairingCode: string | null };
  /** The Telegram token, masked: only its last 4 characters are ever sent to a browser. */
  internalData: { token?: string };
  /** Why the connection stopped (when it did not stop by request), or why it is starting again (reconnecting), in pt-BR. */
  statusReason: string | null;
  /** The department new conversations on this connection start in (issue 14). */
  defaultDepartmentId: string | null;
  /** Opening a conversation sends the channel's read receipts (WhatsApp's blue ticks); on unless turned off. */
  readReceipts: boolean;
  createdAt: string;
  updatedAt: string;
}

export const telegramTokenRequiredText = 'Token do Telegram é obrigatório';

const token = z
  .string({ error: requiredText })
  .max(200, { error: 'Token do Telegram inválido' })
  .transform((v) => v.trim());

const defaultDepartment = z
  .string()
  .min(1)
  .max(64)
  .nullish()
  .transform((v) => v ?? null);

export const serviceCreatePayload = z
  .object({
    name: requiredString(80),
    type: z.enum(serviceTypes, { error: requiredText }),
    token: token.optional(),
    defaultDepartmentId: defaultDepartment,
    /** WhatsApp's read receipts when an agent opens a conversation; absent: on. */
    readReceipts: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'telegram' && !v.token) ctx.addIssue({ code: 'custom', path: ['token'], message: telegramTokenRequiredText });
  });
export type ServiceCreatePayload = z.infer<typeof serviceCreatePayload>;

/** Update: the type may be sent but never changes; a token replaces the Telegram token. */
export const serviceUpdatePayload = z.object({
  name: requiredString(80),
  type: z.enum(serviceTypes).optional(),
  token: token.optional(),
  /** Absent: unchanged; null: none. */
  defaultDepartmentId: z.string().min(1).max(64).nullable().optional(),
  /** Absent: unchanged. */
  readReceipts: z.boolean().optional(),
});

/** The connection form's label of `readReceipts` (WhatsApp connections). */
export const readReceiptsLabel = 'Enviar confirmação de leitura (tiques azuis)';
export type ServiceUpdatePayload = z.infer<typeof serviceUpdatePayload>;

export function maskToken(token: string | undefined): string | undefined {
  if (!token) return undefined;
  return `${'•'.repeat(8)}${token.slice(-4)}`;
}

/** The field message when the Bot API refuses a token. */
export const telegramTokenInvalidText = 'Token do Telegram inválido';

/** Why a connection stopped by itself (statusReason), in pt-BR. */
export const serviceStopReasons = {
  tokenRejected: 'O Telegram recusou o token do bot. Atualize o token e inicie a conexão de novo.',
  unreachable: 'Não foi possível falar com o canal. Tente iniciar a conexão de novo.',
  planLimit: 'Desligada porque o plano da conta permite menos conexões. Ela volta a funcionar quando o plano tiver espaço.',
} as const;
