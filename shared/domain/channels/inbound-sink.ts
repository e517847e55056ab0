/** The `InboundSink` an adapter hands its reports to, for one connection: the domain's inbound calls. */
import { receiveAck, receiveAlias, receiveDeletion, receiveEdit, receiveMessage, receiveReaction, type InboundConnection } from '../messages/inbound.ts';
import { attachInboundFile } from '../messages/attach-file.ts';
import { receiveCall } from '../messages/inbound-call.ts';
import { setCloudQuality } from '#db/services.ts';
import type { Ports } from '../ports.ts';
import type { ChannelProfile, InboundSink } from './port.ts';

/**
 * Stores what the channel now says about the connection's number (its quality rating); answers the
 * rating before and after, or null when nothing was stored (no rating, or no such connection).
 */
export async function receiveProfile(
  ports: Ports,
  from: InboundConnection,
  change: ChannelProfile,
): Promise<{ before: ChannelProfile['qualityRating']; after: NonNullable<ChannelProfile['qualityRating']> } | null> {
  if (!change.qualityRating) return null;
  const stored = await setCloudQuality(ports.table, from.accountId, from.serviceId, change.qualityRating, ports.clock());
  return stored ? { before: stored.before, after: change.qualityRating } : null;
}

export function inboundSink(ports: Ports, from: InboundConnection): InboundSink {
  return {
    message: async (input) => (await receiveMessage(ports, from, input)) !== null,
    ack: async (input) => (await receiveAck(ports, from, input)) !== null,
    edit: async (input) => void (await receiveEdit(ports, from, input)),
    deletion: async (input) => void (await receiveDeletion(ports, from, input.channelMessageId)),
    reaction: async (input) => void (await receiveReaction(ports, from, input)),
    alias: async (input) => void (await receiveAlias(ports, from, input)),
    attach: async (input) => void (await attachInboundFile(ports, from, input)),
    profile: async (change) => void (await receiveProfile(ports, from, change)),
    call: (input, reject) => receiveCall(ports, from, input, reject),
  };
}
