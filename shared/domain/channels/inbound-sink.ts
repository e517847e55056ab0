/** The `InboundSink` an adapter hands its reports to, for one connection: the domain's inbound calls. */
import { receiveAck, receiveAlias, receiveDeletion, receiveEdit, receiveMessage, receiveReaction, type InboundConnection } from '../messages/inbound.ts';
import { attachInboundFile } from '../messages/attach-file.ts';
import type { Ports } from '../ports.ts';
import type { InboundSink } from './port.ts';

export function inboundSink(ports: Ports, from: InboundConnection): InboundSink {
  return {
    message: async (input) => (await receiveMessage(ports, from, input)) !== null,
    ack: async (input) => (await receiveAck(ports, from, input)) !== null,
    edit: async (input) => void (await receiveEdit(ports, from, input)),
    deletion: async (input) => void (await receiveDeletion(ports, from, input.channelMessageId)),
    reaction: async (input) => void (await receiveReaction(ports, from, input)),
    alias: async (input) => void (await receiveAlias(ports, from, input)),
    attach: async (input) => void (await attachInboundFile(ports, from, input)),
  };
}
