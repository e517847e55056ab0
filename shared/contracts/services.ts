/** Connections ("services"): WhatsApp (QR or the official Cloud API) or Telegram channels of an account (docs/product.md#entities-and-states and docs/product.md#validation). */
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
  /**
   * The credentials as a browser may see them: the Telegram token or the Cloud API's access token
   * masked (only its last 4 characters), the Cloud API's app secret masked the same way, and its
   * two ids (not secrets) whole.
   */
  internalData: { token?: string; appSecret?: string; phoneNumberId?: string; wabaId?: string };
  /** WhatsApp (API oficial): the number as Meta answered when its credentials were last checked. */
  displayPhoneNumber?: string;
  verifiedName?: string;
  qualityRating?: CloudQualityRating;
  /**
   * WhatsApp (API oficial), to admins only: the callback path (after the site's origin) and the
   * verify token to paste into the Meta app's webhook settings.
   */
  webhook?: { path: string; verifyToken: string };
  /** Why the connection stopped (when it did not stop by request), or why it is starting again (reconnecting), in pt-BR. */
  statusReason: string | null;
  /** The department new conversations on this connection start in (docs/product.md#team-inbox). */
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

/** Where Meta posts a WhatsApp (API oficial) connection's deliveries, after the site's origin. */
export const cloudWebhookPath = (serviceId: string) => `/api/webhooks/whatsapp-cloud/${serviceId}`;

/** The query of Meta's `GET` verification of a connection's callback URL. */
const handshakeField = z.string().max(512).optional();
export const cloudWebhookHandshakeQuery = z.object({ 'hub.mode': handshakeField, 'hub.verify_token': handshakeField, 'hub.challenge': handshakeField });

/** Meta's quality rating of a Cloud API number (`UNKNOWN` before it has sent enough). */
export const cloudQualityRatings = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
export type CloudQualityRating = (typeof cloudQualityRatings)[number];

// The Cloud API's credentials (docs/product.md#validation): the number's and the business account's
// ids (digits, as Meta shows them), a system-user access token and the Meta app's secret.
export const cloudCredentialTexts = {
  phoneNumberIdRequired: 'ID do número de telefone é obrigatório',
  phoneNumberIdInvalid: 'ID do número de telefone inválido: use só os números que a Meta mostra',
  wabaIdRequired: 'ID da conta do WhatsApp Business é obrigatório',
  wabaIdInvalid: 'ID da conta do WhatsApp Business inválido: use só os números que a Meta mostra',
  accessTokenRequired: 'Token de acesso é obrigatório',
  accessTokenInvalid: 'Token de acesso inválido',
  appSecretRequired: 'Chave secreta do app é obrigatória',
  appSecretInvalid: 'Chave secreta do app inválida: são 32 letras e números, em Configurações do app > Básico',
  /** Meta refused the token (error 190): expired, revoked or mistyped. */
  accessTokenRejected: 'A Meta recusou este token de acesso: confira se ele foi copiado inteiro e não expirou',
  /** The token cannot see this number (a wrong id, or a token of another business). */
  phoneNumberNotFound: 'A Meta não encontrou este número com este token: confira o ID do número de telefone',
  /** The number is not in this business account. */
  wabaMismatch: 'Este número não pertence a esta conta do WhatsApp Business',
  /** The registration PIN (ADR-0216): six digits. */
  registrationPinInvalid: 'O PIN tem 6 números',
  /** The number is not registered on the Cloud API yet and no PIN was given to register it. */
  registrationPinRequired:
    'Este número ainda não está registrado na API oficial do WhatsApp. Informe o PIN de 6 números da confirmação em duas etapas para registrá-lo.',
  /** Meta's 133005: not the number's two-step verification PIN. */
  registrationPinMismatch: 'A Meta recusou este PIN: ele não confere com o da confirmação em duas etapas deste número',
  /** Meta's 133016: ten registrations in 72 hours. */
  registrationLimit: 'A Meta bloqueou novos registros deste número por até 72 horas (muitas tentativas). Tente de novo depois.',
} as const;

/** The connection form's PIN field (WhatsApp (API oficial)), asked only to register a number not yet on the Cloud API. */
export const registrationPinLabel = 'PIN da confirmação em duas etapas';
export const registrationPinHint =
  'Só é necessário se o número ainda não foi registrado na API oficial: os 6 números da confirmação em duas etapas do número, no Gerenciador do WhatsApp. Se o número ainda não tem PIN, o que você informar passa a ser o PIN dele. O PIN não fica guardado.';

const graphId = (invalid: string) =>
  z
    .string({ error: requiredText })
    .trim()
    .regex(/^\d{5,25}$/, { error: invalid });
const accessToken = z
  .string({ error: requiredText })
  .trim()
  .min(20, { error: cloudCredentialTexts.accessTokenInvalid })
  .max(1000, { error: cloudCredentialTexts.accessTokenInvalid })
  .regex(/^[A-Za-z0-9._|-]+$/, { error: cloudCredentialTexts.accessTokenInvalid });
const appSecret = z
  .string({ error: requiredText })
  .trim()
  .regex(/^[0-9a-fA-F]{32}$/, { error: cloudCredentialTexts.appSecretInvalid });

const cloudCredentialFields = {
  phoneNumberId: graphId(cloudCredentialTexts.phoneNumberIdInvalid).optional(),
  wabaId: graphId(cloudCredentialTexts.wabaIdInvalid).optional(),
  accessToken: accessToken.optional(),
  appSecret: appSecret.optional(),
  /** Used once, to register a number not yet on the Cloud API (`POST /{phone-number-id}/register`); never stored. */
  registrationPin: z
    .string({ error: requiredText })
    .trim()
    .regex(/^\d{6}$/, { error: cloudCredentialTexts.registrationPinInvalid })
    .optional(),
};

/** The Cloud API's credentials as sealed together (the connection's sealed token is this, as JSON). */
export interface CloudCredentials {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
}

export const serviceCreatePayload = z
  .object({
    name: requiredString(80),
    type: z.enum(serviceTypes, { error: requiredText }),
    token: token.optional(),
    ...cloudCredentialFields,
    defaultDepartmentId: defaultDepartment,
    /** WhatsApp's read receipts when an agent opens a conversation; absent: on. */
    readReceipts: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'telegram' && !v.token) ctx.addIssue({ code: 'custom', path: ['token'], message: telegramTokenRequiredText });
    if (v.type === 'whatsapp_cloud') {
      const required = [
        ['phoneNumberId', cloudCredentialTexts.phoneNumberIdRequired],
        ['wabaId', cloudCredentialTexts.wabaIdRequired],
        ['accessToken', cloudCredentialTexts.accessTokenRequired],
        ['appSecret', cloudCredentialTexts.appSecretRequired],
      ] as const;
      for (const [path, message] of required) if (!v[path]) ctx.addIssue({ code: 'custom', path: [path], message });
    }
  });
export type ServiceCreatePayload = z.infer<typeof serviceCreatePayload>;

/**
 * Update: the type may be sent but never changes; a token replaces the Telegram token; any of the
 * Cloud API's credentials replaces that one (the others stay) and all are checked again.
 */
export const serviceUpdatePayload = z.object({
  name: requiredString(80),
  type: z.enum(serviceTypes).optional(),
  token: token.optional(),
  ...cloudCredentialFields,
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
  /** WhatsApp (API oficial): Meta refused the access token (error 190) or no longer lets it see the number. */
  cloudTokenRejected: 'A Meta recusou o token de acesso desta conexão (expirado ou revogado). Informe um novo token e inicie a conexão de novo.',
  unreachable: 'Não foi possível falar com o canal. Tente iniciar a conexão de novo.',
  planLimit: 'Desligada porque o plano da conta permite menos conexões. Ela volta a funcionar quando o plano tiver espaço.',
} as const;

/** 'dd/mm às hh:mm' in Brasília time. */
function brasiliaTime(at: Date): string {
  const part = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', ...options }).format(at);
  return `${part({ day: '2-digit', month: '2-digit' })} às ${part({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}`;
}

/**
 * Why WhatsApp ended a connection for good (statusReason), in pt-BR for the shop owner: what
 * happened to the number and what to do next. Chosen by the close's status code
 * (connectors/whatsapp/disconnects.ts).
 */
export const whatsappStopReasons = {
  /** 402: a temporary ban; WhatsApp may say until when. */
  tempBanned: (until: Date | null) =>
    `O WhatsApp baniu este número temporariamente${until ? ` (até ${brasiliaTime(until)}, horário de Brasília)` : ''}. Espere o bloqueio acabar e inicie a conexão de novo. Enquanto isso, evite mandar a mesma mensagem para muitas pessoas ou para quem não tem o seu número salvo.`,
  /** 403: the account is locked for linked devices. */
  locked:
    'O WhatsApp bloqueou este número para aparelhos conectados. Abra o WhatsApp no celular e siga o aviso que aparecer; depois inicie a conexão e leia o código QR de novo.',
  /** 406: banned. */
  banned:
    'O WhatsApp baniu este número e desconectou o Conversa. No celular, o WhatsApp mostra como pedir a revisão do banimento; se o número for liberado, inicie a conexão e leia o código QR de novo.',
  /** 405: the WhatsApp Web version this server uses was retired. */
  clientOutdated:
    'O WhatsApp recusou a versão do WhatsApp Web usada pelo Conversa. Nossa equipe já foi avisada e vai atualizar; tente iniciar a conexão de novo mais tarde.',
  /** 409: WhatsApp refused the device our server presents. */
  badUserAgent: 'O WhatsApp recusou o aparelho do Conversa ao conectar. Nossa equipe já foi avisada; tente iniciar a conexão de novo mais tarde.',
  /** 411: the phone's WhatsApp does not take linked devices. */
  multideviceMismatch: 'O WhatsApp deste celular não aceita aparelhos conectados. Atualize o WhatsApp no celular e leia o código QR de novo.',
  /** 500, again and again. */
  badSession:
    'O WhatsApp recusou a sessão deste aparelho várias vezes seguidas. Inicie a conexão de novo; se o erro continuar, desconecte e leia o código QR de novo.',
} as const;
