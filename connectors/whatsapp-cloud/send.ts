/**
 * Outbound through the Cloud API (POST /{phone-number-id}/messages): text, replies
 * (`context.message_id`), images and videos with captions, documents with their file names, audio,
 * and voice notes as OGG/Opus audio (the dispatcher hands WebM recordings over repackaged). A file is
 * uploaded first (POST /{phone-number-id}/media) and sent by its media id, so no public URL of our
 * bucket is handed to Meta. Read receipts: POST /messages with `status: 'read'`.
 *
 * Meta's refusals become the port's ChannelSendError through ./errors.ts: rate limits and passing
 * failures (4, 80007, 130429, 131056; 1, 2, 131000, 131016, any HTTP 5xx) with `retryAfterSeconds`
 * growing with the hand-over (`OutboundMessage.attempt`), so the send queue holds the connection's
 * lane and tries again later each time; no answer at all (a hang cut by the client's timeout, a
 * dropped connection) is tried again the same way; the others final, with the pt-BR reason on the bubble (131047:
 * the 24-hour window; 132000/132001: a template's parameters or approval). An approved template
 * (`message.template`) goes as `type: 'template'` with its components (./template-components.ts),
 * a media header uploaded first like a file. The wamid Meta answers is the message's channel id (statuses and replies name it).
 */
import { parseCloudCredentials } from '#domain/channels/cloud-credentials.ts';
import {
  ChannelSendError,
  type ChannelAdapter,
  type ChannelConnection,
  type OutboundMessage,
  type ReadReceipts,
  type SentMessage,
} from '#domain/channels/port.ts';
import { graphTimeoutMs } from './config.ts';
import { cloudSendError, unreachableSendError } from './errors.ts';
import { graphClient, GraphError, GraphUnreachable, type GraphClient } from './graph-client.ts';
import { templateBody } from './template-components.ts';

interface SendAnswer {
  contacts?: { input?: string; wa_id?: string }[];
  messages?: { id?: string }[];
}

/** A contact's id as the Cloud API takes it: the digits of the number (a QR-channel JID loses its suffix). */
export function cloudRecipient(id: string): string {
  return id.split('@')[0]!.replace(/\D/g, '');
}

/** The Cloud API's message type for ours, and whether it carries a caption or a file name. */
function mediaKind(type: OutboundMessage['type']): { kind: 'image' | 'video' | 'audio' | 'document'; caption: boolean; filename: boolean } {
  switch (type) {
    case 'image':
      return { kind: 'image', caption: true, filename: false };
    case 'video':
      return { kind: 'video', caption: true, filename: false };
    case 'audio':
    case 'voice':
      return { kind: 'audio', caption: false, filename: false };
    default:
      return { kind: 'document', caption: true, filename: true };
  }
}

/** Meta's limits for interactive messages (WhatsApp Cloud API, interactive reply buttons and list messages). */
export const interactiveLimits = { body: 1024, buttons: 3, buttonTitle: 20, rows: 10, rowTitle: 24, listButton: 20 } as const;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * A menu or the rating question as Meta's interactive message: up to three reply buttons when every
 * label fits a button's 20 characters, else a list of up to ten rows (titles clipped to 24); the
 * option's key is the id the customer's reply carries. Null when it fits neither (more than ten
 * options, or a body over 1,024 characters): the numbered text goes instead.
 */
export function interactiveBody(text: string, choices: NonNullable<OutboundMessage['choices']>): Record<string, unknown> | null {
  if (!choices.length || !text.trim() || text.length > interactiveLimits.body) return null;
  if (choices.length <= interactiveLimits.buttons && choices.every((c) => c.label.length <= interactiveLimits.buttonTitle)) {
    return {
      type: 'interactive',
      interactive: { type: 'button', body: { text }, action: { buttons: choices.map((c) => ({ type: 'reply', reply: { id: c.key, title: c.label } })) } },
    };
  }
  if (choices.length > interactiveLimits.rows) return null;
  return {
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text },
      action: {
        button: 'Ver opções',
        sections: [{ title: 'Opções', rows: choices.map((c) => ({ id: c.key, title: clip(c.label, interactiveLimits.rowTitle) })) }],
      },
    },
  };
}

async function body(graph: GraphClient, phoneNumberId: string, message: OutboundMessage): Promise<Record<string, unknown>> {
  if (message.template) {
    const header = message.template.header;
    if (!header || header.type === 'text') return templateBody(message.template, null);
    // A media header is the message's file, uploaded and sent by id like any media message.
    if (!message.file)
      throw new ChannelSendError('O arquivo do cabeçalho do modelo não foi encontrado. Envie o modelo de novo com o arquivo.', { permanent: true });
    const id = await graph.upload(phoneNumberId, { bytes: await message.file.read(), mimetype: message.file.mimetype, name: message.file.name });
    return templateBody(message.template, { id, filename: message.file.name });
  }
  if (!message.file && message.choices) {
    const interactive = interactiveBody(message.text, message.choices);
    if (interactive) return interactive;
  }
  if (!message.file) return { type: 'text', text: { body: message.text, preview_url: false } };
  const { kind, caption, filename } = mediaKind(message.type);
  const mediaId = await graph.upload(phoneNumberId, { bytes: await message.file.read(), mimetype: message.file.mimetype, name: message.file.name });
  return {
    type: kind,
    [kind]: {
      id: mediaId,
      ...(caption && message.text ? { caption: message.text } : {}),
      ...(filename ? { filename: message.file.name } : {}),
    },
  };
}

function credentialsOf(connection: ChannelConnection) {
  const credentials = parseCloudCredentials(connection.token);
  if (!credentials) throw new ChannelSendError('A conexão do WhatsApp (API oficial) está sem credenciais', { permanent: true });
  return credentials;
}

/** A failure of a Graph call as the port's send error, after hand-over `attempt` (1: the first). */
export function sendError(error: unknown, attempt = 1): ChannelSendError {
  if (error instanceof ChannelSendError) return error;
  if (error instanceof GraphError) return cloudSendError(error, attempt);
  if (error instanceof GraphUnreachable) return unreachableSendError(attempt);
  return new ChannelSendError('Não foi possível falar com o WhatsApp. Tente de novo.');
}

export const sendWhatsappCloud: ChannelAdapter['send'] = async (connection, message) => {
  const { phoneNumberId, accessToken } = credentialsOf(connection);
  const graph = graphClient(accessToken);
  const to = cloudRecipient(message.to);
  try {
    const answer = await graph.post<SendAnswer>(`${encodeURIComponent(phoneNumberId)}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      ...(message.replyTo ? { context: { message_id: message.replyTo } } : {}),
      ...(await body(graph, phoneNumberId, message)),
    });
    const id = answer.messages?.[0]?.id;
    if (!id) throw new ChannelSendError('O WhatsApp não confirmou o envio desta mensagem. Confira antes de reenviar.', { permanent: true });
    const sent: SentMessage = { channelMessageId: id };
    // Meta answers the number under the id WhatsApp keeps (a Brazilian number's ninth digit, say).
    const waId = answer.contacts?.[0]?.wa_id;
    if (waId && waId !== to && waId !== message.to) sent.recipient = { idFromService: waId, aliases: [message.to], phoneNumber: waId };
    return sent;
  } catch (error) {
    throw sendError(error, message.attempt);
  }
};

/**
 * How long a read receipt may wait for Graph: the receipt is sent while the agent's request to open
 * the conversation waits, so a Graph that hangs must not hold it for the whole Graph timeout; a
 * receipt not answered in time is only logged (#domain/contacts/read-receipts.ts).
 */
export function readReceiptTimeoutMs(): number {
  return Math.min(5_000, graphTimeoutMs());
}

/**
 * Marks a chat's received messages as read (blue ticks): the newest one is enough, Meta marks the
 * earlier ones read with it.
 */
export async function markWhatsappCloudRead(connection: ChannelConnection, read: ReadReceipts): Promise<void> {
  const newest = read.messages[0];
  if (!newest) return;
  const { phoneNumberId, accessToken } = credentialsOf(connection);
  try {
    await graphClient(accessToken, { timeoutMs: readReceiptTimeoutMs() }).post(`${encodeURIComponent(phoneNumberId)}/messages`, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: newest.channelMessageId,
    });
  } catch (error) {
    throw sendError(error);
  }
}
