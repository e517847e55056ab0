/**
 * Meta's error codes that matter to sending through the Cloud API, as the rest of the product
 * understands them: whether the send may be tried again after a wait (rate limits, a passing
 * failure on Meta's side) or is final, and the pt-BR text shown on the failed bubble (ack -2), in
 * the style of the QR channel's `refusedReason` (connectors/whatsapp/acks.ts). Codes come in a
 * Graph API error answer (`error.code`) and in a `failed` status's `errors[].code`; the same
 * meaning serves both, except that a passing failure reported by a status is not tried again by
 * anyone (`failedStatusReason`). Texts stay in this folder; the shared error catalogue is for API answers.
 *
 * Which codes pass: Meta's "WhatsApp error codes" page (developers.facebook.com/documentation/
 * business-messaging/whatsapp/support/error-codes) lists 1 API Unknown, 2 API Service, 131000
 * Something went wrong and 131016 Service unavailable as server-side (retry later), and 4, 80007,
 * 130429 and 131056 as throttling (its advice: back off and retry). Graph's own guide on errors
 * ("Handling Errors") says the same of any answer with HTTP 5xx, so an unknown code with a 5xx
 * status passes too. No answer at all (a hang cut by our timeout, a dropped connection) is tried
 * again as well (`unreachableSendError`).
 */
import { ChannelSendError } from '#domain/channels/port.ts';
import { maxWaitSeconds } from '#domain/messages/dispatch.ts';

export interface CloudErrorMeaning {
  code: number;
  /** `backoff`: try again after `backoffSeconds`; `final`: sending it again as is will fail again. */
  retry: 'backoff' | 'final';
  /** The first wait, doubled at each later try (see `backoffSeconds`). */
  baseDelaySeconds?: number;
  /** What the failure is about, for the callers that act on it (the window, the token, templates). */
  topic: 'window' | 'rate' | 'recipient' | 'content' | 'template' | 'media' | 'credentials' | 'request' | 'quality' | 'meta';
  /**
   * Why, in pt-BR, as the agent who sent it should read it. A send to be tried again shows nothing
   * while it waits: its text is read only once the send queue gave up (its wait caps), so it says
   * the message did not go after the tries.
   */
  text: string;
}

const known: Record<number, Omit<CloudErrorMeaning, 'code'>> = {
  1: {
    retry: 'backoff',
    baseDelaySeconds: 5,
    topic: 'meta',
    text: 'A API do WhatsApp teve um erro desconhecido e a mensagem não saiu, nem depois de novas tentativas. Tente enviar de novo em alguns minutos.',
  },
  2: {
    retry: 'backoff',
    baseDelaySeconds: 10,
    topic: 'meta',
    text: 'A API do WhatsApp esteve fora do ar ou sobrecarregada e a mensagem não saiu, nem depois de novas tentativas. Tente enviar de novo em alguns minutos.',
  },
  4: {
    retry: 'backoff',
    baseDelaySeconds: 60,
    topic: 'rate',
    text: 'O aplicativo da Meta desta conexão atingiu o limite de chamadas à API e a mensagem não saiu, nem depois de esperar. Tente enviar de novo mais tarde.',
  },
  131016: {
    retry: 'backoff',
    baseDelaySeconds: 10,
    topic: 'meta',
    text: 'Um serviço do WhatsApp ficou indisponível e a mensagem não saiu, nem depois de novas tentativas. Tente enviar de novo em alguns minutos.',
  },
  131047: {
    retry: 'final',
    topic: 'window',
    text: 'Mais de 24 horas se passaram desde a última mensagem do cliente. Pela regra do WhatsApp, agora só é possível enviar um modelo de mensagem aprovado; a conversa volta a ficar aberta quando o cliente responder.',
  },
  130429: {
    retry: 'backoff',
    baseDelaySeconds: 2,
    topic: 'rate',
    text: 'O WhatsApp limitou a quantidade de envios por segundo deste número e a mensagem não saiu, nem depois de esperar. Tente enviar de novo em alguns minutos.',
  },
  131056: {
    retry: 'backoff',
    baseDelaySeconds: 6,
    topic: 'rate',
    text: 'Muitas mensagens seguidas para este mesmo contato em pouco tempo e a mensagem não saiu, nem depois de esperar. Tente enviar de novo em alguns minutos.',
  },
  80007: {
    retry: 'backoff',
    baseDelaySeconds: 60,
    topic: 'rate',
    text: 'A conta do WhatsApp Business atingiu o limite de chamadas à API e a mensagem não saiu, nem depois de esperar. Tente enviar de novo mais tarde.',
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
  // Title 'Parameter format does not match format in the created template' (details 'Variable
  // parameter values formatted incorrectly.'), as providers quote Meta's error-code page.
  132012: {
    retry: 'final',
    topic: 'template',
    text: 'Os valores enviados não têm o formato que o modelo aprovado espera (por exemplo, um arquivo no cabeçalho de outro tipo). Sincronize os modelos e envie de novo.',
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
    text: 'O WhatsApp teve uma falha ao enviar esta mensagem e ela não saiu, nem depois de novas tentativas. Tente enviar de novo em alguns minutos.',
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

/**
 * What a Meta error code means for a send; an unknown code is final, with its number in the text.
 * Any answer with HTTP 5xx (`status`) is a failure on Meta's side, tried again whatever its code.
 */
export function cloudErrorMeaning(code: number, status?: number): CloudErrorMeaning {
  const meaning = known[code];
  const serverSide = status !== undefined && status >= 500;
  if (meaning && (meaning.retry === 'backoff' || !serverSide)) return { code, ...meaning };
  if (serverSide)
    return {
      code,
      retry: 'backoff',
      baseDelaySeconds: 5,
      topic: 'meta',
      text: `O WhatsApp teve uma falha (erro ${code}) ao enviar esta mensagem e ela não saiu, nem depois de novas tentativas. Tente enviar de novo em alguns minutos.`,
    };
  return { code, retry: 'final', topic: 'meta', text: `O WhatsApp recusou esta mensagem (erro ${code}). Tente de novo mais tarde.` };
}

/** The codes with a meaning of their own (the others share the generic text). */
export const knownCloudErrorCodes: readonly number[] = Object.keys(known).map(Number);

/**
 * The longest wait between two tries of one send: the send queue's longest single wait
 * (`maxWaitSeconds`, #domain/messages/dispatch.ts), so a grown backoff still waits instead of
 * failing the message; the queue's total wait and hand-over caps end the tries.
 */
export const maxBackoffSeconds = maxWaitSeconds;

/** How far a wait may stray from its doubled base, each way (±20 %): sends held together do not all come back in the same second. */
const jitterShare = 0.2;

/**
 * The wait after try `attempt` failed (1: the first try): the code's base delay doubled at each
 * try, ±20 % jitter (`random` in [0, 1), 0.5 for none), at least one second and at most
 * `maxBackoffSeconds`; null for a final error. With ±20 % a later try always waits longer than an
 * earlier one until the cap (1.6× the smallest against 1.2× the largest).
 */
export function backoffSeconds(meaning: CloudErrorMeaning, attempt: number, random: () => number = Math.random): number | null {
  if (meaning.retry !== 'backoff') return null;
  const base = (meaning.baseDelaySeconds ?? 5) * 2 ** Math.max(0, attempt - 1);
  const jittered = base * (1 - jitterShare + 2 * jitterShare * random());
  return Math.max(1, Math.min(maxBackoffSeconds, Math.round(jittered)));
}

/**
 * A Graph API error answer (`{ error: { code, message, ... } }`, with its HTTP status) as the
 * port's send error after try `attempt` (the send queue's hand-over count, `OutboundMessage.attempt`).
 */
export function cloudSendError(error: { code: number; status?: number }, attempt = 1, random: () => number = Math.random): ChannelSendError {
  const meaning = cloudErrorMeaning(error.code, error.status);
  const wait = backoffSeconds(meaning, attempt, random);
  return wait === null ? new ChannelSendError(meaning.text, { permanent: true }) : new ChannelSendError(meaning.text, { retryAfterSeconds: wait });
}

/**
 * The bubble's text once a send that got no answer from Graph (a hang cut by the timeout, a dropped
 * connection) was given up: it may have reached the customer, so it says to check before sending again.
 */
export const unreachableText =
  'O WhatsApp não respondeu a tempo e a mensagem não saiu, nem depois de novas tentativas. Confira se ela chegou ao contato antes de enviar de novo.';

/**
 * No answer from Graph after try `attempt`: tried again with a backoff from 5 s, like a passing
 * failure. A call cut by the timeout may have reached Meta (the Cloud API takes no idempotency
 * key), so a retry can deliver the message twice; a message lost for good is the worse outcome.
 */
export function unreachableSendError(attempt = 1, random: () => number = Math.random): ChannelSendError {
  const wait = backoffSeconds({ code: 0, retry: 'backoff', baseDelaySeconds: 5, topic: 'meta', text: unreachableText }, attempt, random)!;
  return new ChannelSendError(unreachableText, { retryAfterSeconds: wait });
}

/**
 * The pt-BR reason of a `failed` status, for the bubble (ack -2): the first error Meta gave, or a
 * generic one. A passing failure reported by a status is final for that message (nobody sends it
 * again by itself), so it does not promise a new try.
 */
export function failedStatusReason(errors: readonly { code: number }[] | undefined): string {
  const first = errors?.[0];
  if (!first) return 'O WhatsApp não entregou esta mensagem. Tente de novo mais tarde.';
  const meaning = cloudErrorMeaning(first.code);
  return meaning.retry === 'backoff'
    ? `O WhatsApp não entregou esta mensagem por uma falha passageira (erro ${first.code}). Reenvie em alguns minutos.`
    : meaning.text;
}
