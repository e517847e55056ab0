/**
 * Outbound Telegram: text (a menu's options as an inline keyboard), each media type with its caption,
 * voice notes as voice, replies to the quoted message. The Bot API's refusals become ChannelSendError (ack -2 with a reason, or a wait).
 * Telegram reports only "sent": the dispatcher records ack 1 and nothing more.
 */
import { InputFile } from 'grammy';
import type { Message } from 'grammy/types';
import { ChannelSendError, type ChannelAdapter, type OutboundMessage } from '#domain/channels/port.ts';
import { apiBot } from './bot.ts';
import { sendError } from './errors.ts';
import { channelMessageIdOf, telegramMessageIdOf } from './inbound.ts';

async function deliver(token: string, message: OutboundMessage): Promise<Message> {
  const { api } = apiBot(token);
  const chatId = message.to;
  const replyId = message.replyTo ? telegramMessageIdOf(message.replyTo) : null;
  const reply = replyId ? { reply_parameters: { message_id: replyId, allow_sending_without_reply: true } } : {};
  // A menu or the rating question: its options as an inline keyboard, one a row; a tap answers with the option's key.
  const keyboard = message.choices?.length ? { reply_markup: { inline_keyboard: message.choices.map((c) => [{ text: c.label, callback_data: c.key }]) } } : {};
  if (!message.file) return api.sendMessage(chatId, message.text, { ...reply, ...keyboard });
  const file = new InputFile(await message.file.read(), message.file.name);
  const options = { ...reply, ...(message.text ? { caption: message.text } : {}) };
  switch (message.type) {
    case 'image':
      return api.sendPhoto(chatId, file, options);
    case 'video':
      return api.sendVideo(chatId, file, options);
    case 'voice':
      return api.sendVoice(chatId, file, options);
    case 'audio':
      return api.sendAudio(chatId, file, options);
    default:
      return api.sendDocument(chatId, file, options);
  }
}

export const sendTelegram: ChannelAdapter['send'] = async (connection, message) => {
  if (!connection.token) throw new ChannelSendError('A conexão do Telegram está sem token', { permanent: true });
  try {
    const sent = await deliver(connection.token, message);
    return { channelMessageId: channelMessageIdOf(sent.chat.id, sent.message_id), timestamp: new Date(sent.date * 1000).toISOString() };
  } catch (error) {
    throw sendError(error);
  }
};
