/**
 * Meta's Embedded Signup for WhatsApp (API oficial) connections (docs/product.md#screens, ADR
 * draft cloud-embedded-signup): what the server tells admins about the operator's Meta app, what the
 * browser sends once Meta's window finished, and the pt-BR texts of the flow. Shared by the form and
 * the handlers.
 */
import { z } from 'zod';
import { requiredString, requiredText } from './fields.ts';

/**
 * The Facebook JavaScript SDK's `FB.init` version. Embedded Signup makes no Graph calls through the
 * SDK (Meta: "set it to the latest API version"), so it only has to be one Meta still serves.
 */
export const facebookSdkVersion = 'v23.0';

/** Where the SDK is loaded from, on demand (Meta's own tag loads this file). */
export const facebookSdkUrl = 'https://connect.facebook.net/en_US/sdk.js';

/**
 * GET /whatsapp-cloud/embedded-signup: whether the operator configured a Meta app for Embedded
 * Signup; when so, the ids the browser's `FB.init` and `FB.login` need (neither is a secret: both
 * travel to Meta in the browser's own requests). The app secret never leaves the server.
 */
export type EmbeddedSignupConfig = { available: false } | { available: true; appId: string; configId: string };

const graphId = z
  .string({ error: requiredText })
  .trim()
  .regex(/^\d{5,25}$/);

/**
 * POST /whatsapp-cloud/embedded-signup: the exchangeable code of `FB.login`'s answer and the ids
 * of Meta's `WA_EMBEDDED_SIGNUP` session message. `phoneNumberId` is absent when the business
 * onboarded its WhatsApp Business app number (coexistence: Meta's finish message carries only the
 * WABA), and `coexistence` is true then: the number is registered already and must not be again.
 */
export const embeddedSignupPayload = z.object({
  name: requiredString(80),
  code: z.string({ error: requiredText }).trim().min(1).max(2000),
  wabaId: graphId,
  phoneNumberId: graphId.optional(),
  coexistence: z.boolean(),
  defaultDepartmentId: z
    .string()
    .min(1)
    .max(64)
    .nullish()
    .transform((v) => v ?? null),
  readReceipts: z.boolean().optional(),
});
export type EmbeddedSignupPayload = z.infer<typeof embeddedSignupPayload>;

/** The flow's words, in the form and in the server's field details. */
export const embeddedSignupTexts = {
  connect: 'Conectar com a Meta',
  intro: 'Entre com a sua conta da Meta para escolher ou criar a conta do WhatsApp Business e o número. Não é preciso copiar tokens nem IDs.',
  coexistence: 'Manter o app WhatsApp Business no celular (coexistência)',
  coexistenceHint: 'O número continua funcionando no app do celular, e as conversas aparecem nos dois lugares.',
  orTyped: 'Ou informe as credenciais manualmente',
  waiting: 'Conclua as etapas na janela da Meta…',
  connecting: 'Conectando o número…',
  sdkFailed: 'Não foi possível carregar o login da Meta. Verifique a conexão e se algum bloqueador impediu a janela.',
  /** Meta's CANCEL message with `current_step`: the admin closed Meta's window before finishing. */
  cancelled: (step: string) => `A conexão com a Meta foi cancelada na etapa ${step}. Nada foi conectado; clique em 'Conectar com a Meta' para tentar de novo.`,
  /** Meta's CANCEL message with an error the business reported in the flow. */
  failedAtMeta: (message: string) => `A Meta informou um erro: ${message}`,
  /** The window closed without a code (the login was not authorized). */
  notAuthorized: 'A janela da Meta foi fechada sem autorizar o acesso. Nada foi conectado.',
  /** The login answered a code but Meta's session message (the WABA and number) never came. */
  noSessionInfo: 'A Meta não informou qual conta do WhatsApp Business foi escolhida. Nada foi conectado; tente de novo.',
  /** The flow finished without a phone number (Meta's FINISH_ONLY_WABA). */
  noNumber: 'A conta do WhatsApp Business foi compartilhada sem um número. Conclua a etapa do número na janela da Meta.',
  /** Meta refused the code: mistyped, expired (it lives 30 seconds) or already used. */
  codeRefused: "A Meta recusou a autorização (ela vale por poucos segundos e só uma vez). Clique em 'Conectar com a Meta' de novo.",
  /** The WABA has no number, or several, and the finish message named none. */
  numberNotFound: 'Não encontramos um único número nesta conta do WhatsApp Business. Conecte de novo e escolha o número na janela da Meta.',
  notConfigured: 'A conexão pela Meta não está configurada neste ambiente.',
} as const;
