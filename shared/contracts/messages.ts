/** Messages (docs/product.md#entities-and-states): entity, ack codes and the send payload. */
import { z } from 'zod';
import { idField, requiredText } from './fields.ts';
import { ack } from './message-acks.ts';
import { templateSendSchema } from './templates.ts';

export { ack } from './message-acks.ts';

export const messageTypes = ['text', 'image', 'video', 'audio', 'voice', 'document'] as const;
export type MessageType = (typeof messageTypes)[number];

/**
 * What a message is (docs/product.md#team-inbox): one exchanged with the customer, an internal note of the team, or a
 * system line recording an assignment or status change. Notes and system lines never reach a channel.
 */
export const messageKinds = ['message', 'note', 'system'] as const;
export type MessageKind = (typeof messageKinds)[number];

/** Acks only move forward, except to deleted (-1) or error (-2); a failed send may go back to sending on retry. */
export function nextAck(current: number, incoming: number): number {
  if (incoming === ack.deleted || incoming === ack.error) return incoming;
  if (current === ack.deleted) return current;
  return Math.max(current, incoming);
}

export interface MessageFile {
  id: string;
  url: string;
  mimetype: string;
  name: string;
  filename: string;
  type: MessageType;
  size: number;
  captionsUrl: null;
}

/** What a contact's lastMessage and a quoted message hold. */
export interface MessageSummary {
  id: string;
  text: string;
  type: MessageType;
  isFromMe: boolean;
  ack: number;
  timestamp: string;
  file: { name: string; mimetype: string } | null;
}

/** A reaction shown under a message: one emoji, how many people chose it, and whether we did (from the phone). */
export interface MessageReaction {
  emoji: string;
  count: number;
  fromMe: boolean;
}

export interface Message {
  id: string;
  contactId: string;
  serviceId: string;
  text: string;
  type: MessageType;
  kind: MessageKind;
  timestamp: string;
  isFromMe: boolean;
  ack: number;
  /** Why a send failed (ack -2), in pt-BR. */
  error: string | null;
  /** Why a send still at ack 0 waits instead of going (a daily cap of the number), in pt-BR; null when it is not held. */
  waiting: string | null;
  file: MessageFile | null;
  fileId: string | null;
  thumbnail: { url: string } | null;
  quotedMessage: MessageSummary | null;
  replyMessageId: string | null;
  user: { id: string; name: string } | null;
  groupContact: { id: string; name: string } | null;
  /** Reactions on the channel, one per person, grouped by emoji in the order they were first chosen. */
  reactions: MessageReaction[];
  /** Sent by an automation (greeting, menu, out-of-hours reply...; docs/conversation-lifecycle.md), not by a person; absent otherwise. */
  automated?: true;
  /** Sent under its author's name ('*Ana Souza:*' on the channel; the text here is as typed). Absent otherwise. */
  signed?: true;
  /** Forwarded from another conversation (WhatsApp shows 'Encaminhada'). Absent otherwise. */
  forwarded?: true;
  createdAt: string;
  updatedAt: string;
}

/** Why a queued send waits for the next day (the channel worker's daily caps, against bans); shown on the bubble. */
export const sendWaitTexts = {
  dailySends: 'Aguardando: limite diário de envios deste número atingido (proteção contra banimento). O envio continua amanhã.',
  dailyNewChats: 'Aguardando: limite diário de novas conversas deste número atingido (proteção contra banimento). O envio continua amanhã.',
  earlierMessage: 'Aguardando: a mensagem anterior desta conversa ainda não foi enviada. Esta segue logo depois dela.',
} as const;

export const maxTextLength = 4096;

export const sendMessagePayload = z
  .object({
    contactId: z.string({ error: requiredText }).min(1, { error: requiredText }).max(64),
    serviceId: z.string({ error: requiredText }).min(1, { error: requiredText }).max(64),
    text: z
      .string()
      .max(maxTextLength, { error: `A mensagem pode ter no máximo ${maxTextLength} caracteres` })
      .default(''),
    type: z.enum(messageTypes).default('text'),
    fileId: z.string().min(1).max(64).nullish(),
    replyMessageId: z.string().min(1).max(64).nullish(),
    /**
     * An approved message template of the contact's WhatsApp (API oficial) connection, sent
     * instead of `text` (the only message Meta delivers outside the 24-hour window); the
     * conversation shows it rendered with its values. `fileId` is its media header's file.
     */
    template: templateSendSchema.nullish(),
  })
  .superRefine((v, ctx) => {
    // A template's file is its media header's, checked against the template when sent (template-fill.ts).
    if (v.template) return;
    if (!v.fileId && !v.text.trim()) ctx.addIssue({ code: 'custom', path: ['text'], message: 'A mensagem está vazia' });
  });
export type SendMessagePayload = z.infer<typeof sendMessagePayload>;

/** The most contacts one forward reaches. */
export const maxForwardTargets = 10;

/**
 * `POST /messages/{id}/forward`: the message (of the conversation `contactId`) sent again, as a
 * new message marked forwarded, to each of `toContactIds` (1 to 10).
 */
export const forwardMessagePayload = z.object({
  contactId: idField,
  toContactIds: z
    .array(idField, { error: 'Escolha para quem encaminhar' })
    .min(1, { error: 'Escolha para quem encaminhar' })
    .max(maxForwardTargets, { error: `Encaminhe para no máximo ${maxForwardTargets} contatos de uma vez` }),
});
export type ForwardMessagePayload = z.infer<typeof forwardMessagePayload>;

/** Why a message cannot be forwarded (pt-BR, on the path `id`). */
export const forwardTexts = {
  notAMessage: 'Notas internas e avisos do sistema não podem ser encaminhados',
  deleted: 'Uma mensagem apagada não pode ser encaminhada',
  empty: 'Esta mensagem não tem texto nem arquivo para encaminhar',
  filePending: 'O arquivo desta mensagem ainda está sendo baixado. Tente de novo em instantes.',
} as const;

/** `POST /messages/{id}/retry`: the contact the failed message belongs to. */
export const retryMessagePayload = z.object({ contactId: idField });

/**
 * `POST /messages/{id}/reaction`: our reaction to a message of the contact's chat on its channel
 * (one emoji; empty takes ours away), as WhatsApp keeps one reaction per person.
 */
export const reactMessagePayload = z.object({
  contactId: idField,
  emoji: z.string().max(32, { error: 'Escolha um único emoji' }),
});
export type ReactMessagePayload = z.infer<typeof reactMessagePayload>;
