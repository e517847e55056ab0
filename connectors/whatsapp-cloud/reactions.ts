/**
 * Our reactions through the Cloud API: `POST /{phone-number-id}/messages` with `type: 'reaction'`,
 * `reaction: { message_id, emoji }` (Meta's "Reaction messages" reference: an empty emoji removes
 * the reaction; a reaction is a message of its own to the customer, with its own wamid, so it is
 * refused like any message, 131047 outside the 24-hour window included). Refusals are the send
 * path's (./send.ts `sendError`, pt-BR reasons from ./errors.ts).
 *
 * Meta reports our own reactions (made in the WhatsApp Business app, coexistence) under our
 * number's digits (./inbound.ts); ours are answered under the same id, so one made here and one
 * made in the app are one reaction of ours, the latest winning, as on the QR channel.
 */
import { parseCloudCredentials } from '#domain/channels/cloud-credentials.ts';
import { ChannelSendError, type ChannelAdapter } from '#domain/channels/port.ts';
import { graphClient } from './graph-client.ts';
import { cloudRecipient, sendError } from './send.ts';

export const reactWhatsappCloud: NonNullable<ChannelAdapter['react']> = async (connection, reaction) => {
  const credentials = parseCloudCredentials(connection.token);
  if (!credentials) throw new ChannelSendError('A conexão do WhatsApp (API oficial) está sem credenciais', { permanent: true });
  const graph = graphClient(credentials.accessToken);
  const number = encodeURIComponent(credentials.phoneNumberId);
  try {
    const own = await graph.get<{ display_phone_number?: string }>(number, { fields: 'display_phone_number' });
    await graph.post(`${number}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: cloudRecipient(reaction.to),
      type: 'reaction',
      reaction: { message_id: reaction.channelMessageId, emoji: reaction.emoji },
    });
    return { reactorId: (own.display_phone_number ?? '').replace(/\D/g, '') || credentials.phoneNumberId };
  } catch (error) {
    throw sendError(error);
  }
};
