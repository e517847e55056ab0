/** The Telegram channel: grammY against the Bot API (TELEGRAM_API_ROOT), webhook in the cloud and long polling locally. */
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { telegramCredentials, telegramLifecycle } from './lifecycle.ts';
import { sendTelegram } from './send.ts';
import { telegramSessions } from './session.ts';
import { telegramWebhook } from './webhook.ts';

export const telegramChannel: ChannelAdapter = {
  type: 'telegram',
  send: sendTelegram,
  credentials: telegramCredentials,
  lifecycle: telegramLifecycle,
  sessions: telegramSessions,
  webhook: telegramWebhook,
};
