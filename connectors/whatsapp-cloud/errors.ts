/**
 * Meta's error codes that matter to sending through the Cloud API, as the rest of the product
 * understands them: whether the send may be tried again after a wait (rate limits, a passing
 * failure on Meta's side) or is final, and the pt-BR text shown on the failed bubble (ack -2), in
 * the style of the QR channel's `refusedReason` (connectors/whatsapp/acks.ts). Codes come in a
 * Graph API error answer (`error.code`) and in a `failed` status's `errors[].code`; the same
 * meaning serves both. Texts stay in this folder; the shared error catalogue is for API answers.
 */
import { ChannelSendError } from '#domain/channels/port.ts';

export interface CloudErrorMeaning {
  code: number;
  /** `backoff`: try again after `backoffSeconds`; `final`: sending it again as is will fail again. */
  retry: 'backoff' | 'final';
  /** The first wait, doubled at each later try (see `backoffSeconds`). */
  baseDelaySeconds?: number;
  /** What the failure is about, for the callers that act on it (the window, the token, templates). */
  topic: 'window' | 'rate' | 'recipient' | 'content' | 'template' | 'media' | 'credentials' | 'request' | 'quality' | 'meta';
  /** Why, in pt-BR, as the agent who sent it should read it. */
  text: string;
}

const known: Record<number, Omit<CloudErrorMeaning, 'code'>> = {
  131047: {
    retry: 'final',
    topic: 'window',
    text: 'Mais de 24 horas se passaram desde a última mensagem do cliente. Pela regra do WhatsApp, agora só é possível enviar um modelo de mensagem aprovado; a conversa volta a ficar aberta quando o cliente responder.',
  },
  130429: {
    retry: 'backoff',
    baseDelaySeconds: 2,
    topic: 'rate',
    text: 'O WhatsApp limitou a quantidade de envios por segundo deste número. A mensagem será enviada de novo em instantes.',
  },
  131056: {
    retry: 'backoff',
    baseDelaySeconds: 6,
    topic: 'rate',
    text: 'Muitas mensagens seguidas para este mesmo contato em pouco tempo. A mensagem será enviada de novo em instantes.',
  },
  80007: {
    retry: 'backoff',
    baseDelaySeconds: 60,
    topic: 'rate',
    text: 'A conta do WhatsApp Business atingiu o limite de chamadas à API. A mensagem será enviada de novo em alguns minutos.',
  },
  131026: {
    retry: 'final',
    topic: 'recipient',
    text: 'O WhatsApp não conseguiu entregar esta mensagem: o número pode não ter WhatsApp, o cliente pode ter bloqueado este número ou usar uma versão antiga do aplicativo.',
  },
  131051: {
    retry: 'final',
    topic: 'content',
    text: 'O WhatsApp não aceita este tipo de mensagem pela API oficial. Envie o conteúdo de outra forma (texto, imagem, vídeo, áudio ou documento).',
  },
  132000: {
    retry: 'final',
    topic: 'template',
    text: 'O número de variáveis preenchidas não corresponde ao modelo de mensagem aprovado. Confira as variáveis do modelo e envie de novo.',
  },
  132001: {
    retry: 'final',
    topic: 'template',
    text: 'O modelo de mensagem não existe neste idioma ou ainda não foi aprovado pela Meta. Sincronize os modelos e escolha um aprovado.',
  },
  131053: {
    retry: 'final',
    topic: 'media',
    text: 'O WhatsApp não conseguiu processar o arquivo desta mensagem. Confira o formato e o tamanho do arquivo e envie de novo.',
  },
  190: {
    retry: 'final',
    topic: 'credentials',
    text: 'O token de acesso desta conexão expirou ou foi revogado na Meta. Um administrador precisa informar um novo token em Conexões.',
  },
  100: {
    retry: 'final',
    topic: 'request',
    text: 'A Meta recusou os dados desta mensagem (parâmetro inválido). Confira o número do contato e o conteúdo e envie de novo.',
  },
  131000: {
    retry: 'backoff',
    baseDelaySeconds: 5,
    topic: 'meta',
    text: 'O WhatsApp teve uma falha ao enviar esta mensagem. Ela será enviada de novo em instantes.',
  },
  131048: {
    retry: 'final',
    topic: 'quality',
    text: 'O WhatsApp restringiu os envios deste número porque muitas mensagens foram bloqueadas ou denunciadas como spam. Confira a qualidade do número no Gerenciador do WhatsApp antes de enviar de novo.',
  },
  131049: {
    retry: 'final',
    topic: 'quality',
    text: 'A Meta não entregou esta mensagem para preservar o engajamento dos usuários (limite de mensagens de marketing por pessoa). Não reenvie em seguida: espere o cliente interagir ou tente mais tarde.',
  },
};

/** What a Meta error code means for a send; an unknown code is final, with its number in the text. */
export function cloudErrorMeaning(code: number): CloudErrorMeaning {
  const meaning = known[code];
  if (meaning) return { code, ...meaning };
  return { code, retry: 'final', topic: 'meta', text: `O WhatsApp recusou esta mensagem (erro ${code}). Tente de novo mais tarde.` };
}

/** The codes with a meaning of their own (the others share the generic text). */
export const knownCloudErrorCodes: readonly number[] = Object.keys(known).map(Number);

/** The longest wait between two tries of one send. */
export const maxBackoffSeconds = 15 * 60;

/** The wait before try `attempt` (1 for the first retry): the code's base delay doubled each time, capped; null for a final error. */
export function backoffSeconds(meaning: CloudErrorMeaning, attempt: number): number | null {
  if (meaning.retry !== 'backoff') return null;
  const base = meaning.baseDelaySeconds ?? 5;
  return Math.min(maxBackoffSeconds, base * 2 ** Math.max(0, attempt - 1));
}

/** A Graph API error answer (`{ error: { code, message, ... } }`) or a status error, as the port's send error for try `attempt`. */
export function cloudSendError(error: { code: number }, attempt = 1): ChannelSendError {
  const meaning = cloudErrorMeaning(error.code);
  const wait = backoffSeconds(meaning, attempt);
  return wait === null ? new ChannelSendError(meaning.text, { permanent: true }) : new ChannelSendError(meaning.text, { retryAfterSeconds: wait });
}

/** The pt-BR reason of a `failed` status, for the bubble (ack -2): the first error Meta gave, or a generic one. */
export function failedStatusReason(errors: readonly { code: number }[] | undefined): string {
  const first = errors?.[0];
  return first ? cloudErrorMeaning(first.code).text : 'O WhatsApp não entregou esta mensagem. Tente de novo mais tarde.';
}
