/**
 * Handing a stored outbound message (ack 0) to its channel and recording the answer: ack 1 with
 * the channel's message id, or ack -2 with the reason.
 *
 * Two steps. A change that puts a message at ack 0 for a new attempt becomes a `DispatchRequest`
 * in its connection's lane of the send queue (`dispatchRequestOf`). The queue hands each request
 * to `dispatchQueued`, which reads the message, sends it and records the answer. When the channel
 * asks to come back later (Telegram's flood wait), `dispatchQueued` answers how long the lane
 * should wait instead of waiting itself, up to the bounds below; past them the message fails with
 * the channel's reason.
 *
 * At least once: a request may be handed over more than once (a redelivery after a crash, a
 * duplicate enqueue after the deduplication window). A request whose message no longer waits for
 * that attempt is skipped, and both answers are written only while it does, so one answer is
 * recorded per attempt. Each attempt is marked as handed over right before the channel is
 * called (`claimHandOver`): a redelivery that finds the mark on a message still waiting knows the
 * process died during the call, when the channel may or may not have taken the message, and fails
 * it with `interruptedReason` instead of sending it twice; a concurrent redelivery finds the mark
 * taken and leaves the attempt to its holder. So the channel is called at most once per attempt,
 * and the user decides whether to send again.
 */
import { ack } from '#contracts/messages.ts';
import type { ServiceType } from '#contracts/services.ts';
import { getContactItem, type ContactItem } from '#db/contacts.ts';
import { getMessageItem, type MessageItem } from '#db/messages.ts';
import { claimHandOver, recordFailed, recordSent, releaseHandOver } from '#db/outbound-messages.ts';
import { getServiceItem } from '#db/services.ts';
import { webmOpusToOgg } from '#media/webm-opus-to-ogg.ts';
import type { Ports } from '../ports.ts';
import { ChannelSendError, oggOpusMimetype, type OutboundMessage, type SentMessage } from '../channels/port.ts';
import { linkChannelIds } from '../contacts/channel-aliases.ts';
import { refreshLastMessage } from './last-message.ts';
import type { DispatchDelivery, DispatchRequest } from './outbound-queue.ts';
import { signedText } from './signature.ts';

/** The reason of a message whose hand-over to the channel was cut short by a crash (pt-BR, shown to the user). */
export const interruptedReason = 'O envio foi interrompido e a mensagem pode ter chegado ao contato. Confira antes de reenviar.';

/** The longest single wait a channel may ask for before the message fails instead. */
export const maxWaitSeconds = 300;
/** How long a message may wait in all, from the moment it was queued, before it fails instead. */
export const maxTotalWaitSeconds = 900;
/** How often a message may be handed over before a further wait fails it instead. */
export const maxHandOvers = 10;

/**
 * The wait after an unexpected failure (the table unreachable, a bug): 2, 4, 8 ... seconds by
 * receive count, at most 5 minutes. Both queues' consumers hold the lane this long.
 */
export function backoffSeconds(receiveCount: number): number {
  return Math.min(2 ** Math.max(1, receiveCount), 300);
}

/**
 * What became of a request: done (`answer`: the message was recorded as sent or failed, on its
 * channel when one was known; absent when nothing was left to do), or the lane must wait.
 */
export type DispatchOutcome = { kind: 'done'; answer?: { sent: boolean; channel: ServiceType | null } } | { kind: 'later'; seconds: number };

const done: DispatchOutcome = { kind: 'done' };

/** Whether a changed message is one to hand to its channel now. */
export function needsDispatch(next: MessageItem | undefined, previous: MessageItem | undefined): boolean {
  if (next?.type !== 'Message' || !next.isFromMe || next.ack !== ack.sending || !next.sendAttempt || next.kind) return false;
  return !previous || previous.sendAttempt !== next.sendAttempt;
}

export function dispatchRequestOf(message: MessageItem): DispatchRequest {
  return { accountId: message.accountId, contactId: message.contactId, messageId: message.id, serviceId: message.serviceId, sendAttempt: message.sendAttempt };
}

/**
 * Splits requests by where they must be sent: in the channel worker that holds the connection's
 * session (its adapter `sendsInSession`: WhatsApp's socket lives there), or by the send queue's
 * consumer (any process: Telegram's Bot API). A connection's requests all go one way, in order.
 * A connection that is gone goes to the send queue, whose consumer fails its messages.
 */
export async function routeDispatchRequests(
  ports: Ports,
  requests: readonly DispatchRequest[],
): Promise<{ inSession: DispatchRequest[]; anywhere: DispatchRequest[] }> {
  const inSession = new Map<string, Promise<boolean>>();
  const sendsInSession = (request: DispatchRequest) => {
    let known = inSession.get(request.serviceId);
    if (!known) {
      known = getServiceItem(ports.table, request.accountId, request.serviceId).then((service) =>
        Boolean(service && ports.channels.get(service.channelType)?.sessions?.sendsInSession),
      );
      inSession.set(request.serviceId, known);
    }
    return known;
  };
  const routes = await Promise.all(requests.map(sendsInSession));
  return { inSession: requests.filter((_, i) => routes[i]), anywhere: requests.filter((_, i) => !routes[i]) };
}

async function answered(
  ports: Ports,
  message: MessageItem,
  recorded: boolean,
  answer: { sent: boolean; channel: ServiceType | null },
): Promise<DispatchOutcome> {
  if (!recorded) return done;
  const updated = await getMessageItem(ports.table, message.accountId, message.contactId, message.id);
  if (updated) await refreshLastMessage(ports, updated);
  return { kind: 'done', answer };
}

function failWith(ports: Ports, message: MessageItem, reason: string, channel: ServiceType | null = null): Promise<DispatchOutcome> {
  return recordFailed(ports.table, message, reason, ports.clock().toISOString()).then((recorded) =>
    answered(ports, message, recorded, { sent: false, channel }),
  );
}

/** Whether the lane may wait `seconds` more for this message, or it has waited enough. */
function mayWait(ports: Ports, delivery: DispatchDelivery, seconds: number): boolean {
  const waited = (ports.clock().getTime() - delivery.enqueuedAt.getTime()) / 1000;
  return seconds <= maxWaitSeconds && waited + seconds <= maxTotalWaitSeconds && delivery.receiveCount < maxHandOvers;
}

type OutboundFile = NonNullable<OutboundMessage['file']>;

/** `gravacao.webm` → `gravacao.ogg`. */
const oggName = (name: string) => `${name.replace(/\.[^./]*$/, '') || 'voice'}.ogg`;

/**
 * A voice note recorded as WebM/Opus (Chrome, Firefox) handed over as OGG/Opus, what WhatsApp plays
 * as a voice note and Telegram's sendVoice expects: the Opus packets repackaged, no re-encoding.
 * When the bytes are not WebM/Opus after all they go as stored. Other voice notes (MP4/AAC from
 * Safari) are not Opus and go as they are. Voice notes are small, and every channel reads the bytes
 * to send them, so they are read here, once.
 */
async function asOggVoiceNote(file: OutboundFile): Promise<OutboundFile> {
  if (!file.mimetype.toLowerCase().startsWith('audio/webm')) return file;
  const original = await file.read();
  const ogg = webmOpusToOgg(original);
  if (!ogg) return { ...file, read: async () => original };
  return {
    name: oggName(file.name),
    mimetype: oggOpusMimetype,
    size: ogg.bytes.length,
    durationSeconds: ogg.durationSeconds,
    url: file.url,
    read: async () => ogg.bytes,
  };
}

/**
 * Sends the message a request names, if it still waits for that attempt, and records the answer.
 * `pace` (the channel worker's per-connection pace) is awaited before the hand-over mark, so only
 * real sends take a turn, and `started` is told right before the channel is called, so the pace
 * counts between the calls the channel sees.
 */
export async function dispatchQueued(
  ports: Ports,
  request: DispatchRequest,
  delivery: DispatchDelivery,
  options: { pace?: () => Promise<void>; started?: () => void } = {},
): Promise<DispatchOutcome> {
  const message = await getMessageItem(ports.table, request.accountId, request.contactId, request.messageId);
  // Answered already (a redelivery), replaced by a retry, or deleted; a team note or system line is never sent.
  if (!message || message.ack !== ack.sending || message.sendAttempt !== request.sendAttempt || message.kind) return done;
  // Handed over before and never answered: the process died during the call.
  if (message.handedOverAttempt === message.sendAttempt) return failWith(ports, message, interruptedReason);

  const [service, contact] = await Promise.all([
    getServiceItem(ports.table, message.accountId, message.serviceId),
    getContactItem(ports.table, message.accountId, message.contactId),
  ]);
  if (!service) return failWith(ports, message, 'A conexão foi removida');
  if (!contact) return failWith(ports, message, 'O contato foi removido');
  const channelType = service.channelType;
  if (service.status !== 'connected') return failWith(ports, message, 'A conexão está desconectada', channelType);
  const channel = ports.channels.get(channelType);
  if (!channel) return failWith(ports, message, 'Este canal ainda não envia mensagens', channelType);

  const file = message.file;
  const stored: OutboundFile | null = file
    ? {
        name: file.name,
        mimetype: file.mimetype,
        size: file.size,
        read: () => ports.storage.get(file.objectKey),
        url: await ports.storage.downloadUrl(file.objectKey, file.name, file.mimetype),
      }
    : null;
  const outbound: OutboundMessage = {
    messageId: message.id,
    to: contact.idFromService,
    type: message.messageType,
    // Signed when sent (send-message.ts): the name line is added here, on every attempt alike.
    text: message.signed && message.user && !message.template ? signedText(channelType, message.user.name, message.text) : message.text,
    file: stored && message.messageType === 'voice' ? await asOggVoiceNote(stored) : stored,
    replyTo: message.replyToChannelMessageId,
    template: message.template ?? null,
    ...(message.forwarded ? { forwarded: true } : {}),
    ...(message.choices?.length ? { choices: message.choices } : {}),
    attempt: delivery.receiveCount,
  };
  const connection = {
    accountId: message.accountId,
    serviceId: service.id,
    type: service.channelType,
    token: service.tokenSealed ? await ports.vault.open(service.tokenSealed) : null,
  };

  await options.pace?.();
  // Another hand-over of this attempt holds the mark, or it was answered meanwhile.
  if (!(await claimHandOver(ports.table, message))) return done;
  let sent: SentMessage;
  try {
    options.started?.();
    sent = await channel.send(connection, outbound);
  } catch (error) {
    if (error instanceof ChannelSendError) {
      const wait = error.options.retryAfterSeconds;
      if (!error.options.permanent && wait !== undefined && mayWait(ports, delivery, wait)) {
        await releaseHandOver(ports.table, message);
        return { kind: 'later', seconds: wait };
      }
      return failWith(ports, message, error.reason, channelType);
    }
    console.error(`Sending message ${message.id} failed`, error);
    return failWith(ports, message, 'Falha ao enviar a mensagem. Tente de novo.', channelType);
  }
  const outcome = await answered(ports, message, await recordSent(ports.table, message, sent.channelMessageId, ports.clock().toISOString()), {
    sent: true,
    channel: channelType,
  });
  if (sent.recipient) await keepRecipientIds(ports, contact, sent.recipient);
  return outcome;
}

/**
 * The channel sent to the contact (or found it, checking a contact made by hand: contact-check.ts)
 * under other ids than its own (WhatsApp answered a number typed by hand under the JID it keeps, and its LID): the contact takes them, through the same links inbound
 * messages make, so the person's reply finds this contact and later sends go to the answered JID
 * (a contact made from the person's own messages meanwhile is merged, keeping the answered JID).
 * The message is sent whatever happens here: a failure is logged and the next send tries again.
 */
export async function keepRecipientIds(ports: Ports, contact: ContactItem, recipient: NonNullable<SentMessage['recipient']>): Promise<void> {
  const known = new Set([contact.idFromService, ...(contact.channelAliases ?? [])]);
  if (contact.idFromService === recipient.idFromService && recipient.aliases.every((alias) => known.has(alias))) return;
  const link = {
    accountId: contact.accountId,
    serviceId: contact.serviceId,
    idFromService: recipient.idFromService,
    phoneNumber: recipient.phoneNumber ?? null,
  };
  try {
    for (const alias of new Set([contact.idFromService, ...recipient.aliases])) {
      if (alias !== recipient.idFromService) await linkChannelIds(ports, { ...link, alias });
    }
  } catch (error) {
    console.warn(`[dispatch] contact ${contact.id}: the ids the channel answered (${recipient.idFromService}) were not kept`, error);
  }
}
