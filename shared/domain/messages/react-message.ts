/**
 * Our reaction to a message, sent through the contact's channel (`ChannelAdapter.react`: the Cloud
 * API's `type: 'reaction'` message) and then kept on the message the way a reaction from the channel
 * is (`receiveReaction`, as the QR channel's reactions made on the phone are): one per reactor, the
 * latest winning, an empty emoji taking ours away, under the reactor id the channel answers, so the
 * bubble shows it at once and a reaction made in the WhatsApp Business app later replaces it.
 * Sent in the request, not queued: a refusal is answered with the channel's pt-BR reason.
 */
import { customerWindow } from '#contracts/customer-window.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { Message, ReactMessagePayload } from '#contracts/messages.ts';
import { getMessageItem } from '#db/messages.ts';
import { getServiceItem } from '#db/services.ts';
import { ChannelSendError } from '../channels/port.ts';
import { loadVisibleContact } from '../conversations/visibility.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { receiveReaction } from './inbound.ts';
import { toMessage } from './present-message.ts';

export async function reactToMessage(ports: Ports, session: AccountSession, messageId: string, payload: ReactMessagePayload): Promise<Message> {
  const contact = await loadVisibleContact(ports, session, payload.contactId);
  if (contact.archivedAt) throw fail.invalid(errorTexts.contactArchived);
  const message = await getMessageItem(ports.table, session.accountId, payload.contactId, messageId);
  // Only a message the channel knows (it has its id there) can be reacted to; a note never.
  if (!message || message.kind) throw fail.notFound();
  if (!message.channelMessageId) throw fail.invalid(errorTexts.invalidParams, [{ path: 'id', message: 'Esta mensagem ainda não chegou ao WhatsApp' }]);
  const service = await getServiceItem(ports.table, session.accountId, contact.serviceId);
  if (service?.status !== 'connected') throw fail.invalid(errorTexts.serviceDisconnected);
  const channel = ports.channels.get(service.channelType);
  if (!channel?.react) throw fail.invalid(errorTexts.reactionsUnsupported);
  // A reaction is a message of its own to the customer: Meta takes it only inside the 24-hour window.
  if (customerWindow({ lastInboundAt: contact.lastInboundAt, service: { type: service.channelType } }, ports.clock()).kind === 'closed') {
    throw fail.invalid(errorTexts.customerWindowClosed);
  }
  const connection = {
    accountId: session.accountId,
    serviceId: service.id,
    type: service.channelType,
    token: service.tokenSealed ? await ports.vault.open(service.tokenSealed) : null,
  };
  let reactorId: string;
  try {
    ({ reactorId } = await channel.react(connection, { to: contact.idFromService, channelMessageId: message.channelMessageId, emoji: payload.emoji }));
  } catch (error) {
    if (error instanceof ChannelSendError) throw fail.invalid(errorTexts.reactionRefused, [{ path: 'emoji', message: error.reason }]);
    throw error;
  }
  const updated = await receiveReaction(
    ports,
    { accountId: session.accountId, serviceId: service.id },
    { channelMessageId: message.channelMessageId, reactorId, fromMe: true, emoji: payload.emoji, timestamp: ports.clock().toISOString() },
  );
  return toMessage(updated ?? message, ports.storage.downloadUrl);
}
