/**
 * Starting and stopping Telegram connections. Start checks the bot (getMe); in webhook mode it
 * then registers the webhook on our route with a fresh random secret token, which every delivery
 * must carry; in polling mode a worker-held session (./session.ts) takes over and reports
 * `connected`. Stop deletes the webhook (a polling session stops by itself on the status change);
 * logout also drops pending updates and forgets the offset.
 */
import { randomBytes } from 'node:crypto';
import { ChannelUnreachable, type ChannelCredentials, type ChannelLifecycle } from '#domain/channels/port.ts';
import { errorTexts } from '#contracts/errors.ts';
import { apiBot } from './bot.ts';
import { allowedUpdates, telegramMode, telegramWebhookUrl } from './config.ts';
import { controlError } from './errors.ts';
import { deleteHook, deleteOffset, putHook } from './storage.ts';

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw controlError(error);
  }
}

/** The bot id of a token (`<bot id>:<secret>`). */
export function telegramBotId(token: string): string {
  return token.split(':')[0]!.trim();
}

export const telegramCredentials: ChannelCredentials = {
  async verify(token) {
    await call(() => apiBot(token).api.getMe());
  },
  // Two consumers of one bot steal each other's updates: a bot serves one connection.
  exclusive: (token) => ({
    kind: 'BOT',
    id: telegramBotId(token),
    inUse: { error: errorTexts.telegramBotInUse, path: 'token', message: 'Este bot já está em uso em outra conexão' },
  }),
};

export const telegramLifecycle: ChannelLifecycle = {
  async start(ports, run) {
    if (!run.token) throw new ChannelUnreachable('The connection has no token');
    const bot = apiBot(run.token);
    const botInfo = await call(() => bot.api.getMe());
    if (telegramMode() === 'polling') return 'starting';
    const url = telegramWebhookUrl(run.serviceId);
    if (!url) throw new ChannelUnreachable('TELEGRAM_WEBHOOK_BASE_URL is not set');
    // Letters, digits, '_' and '-' only, up to 256 characters (Bot API).
    const secret = randomBytes(32).toString('base64url');
    await putHook(ports.table, {
      accountId: run.accountId,
      serviceId: run.serviceId,
      secretSealed: await ports.vault.seal(secret),
      botInfo,
      createdAt: ports.clock().toISOString(),
    });
    await call(() => bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...allowedUpdates] }));
    return 'connected';
  },

  async stop(ports, connection, { logout }) {
    if (connection.token) {
      const { api } = apiBot(connection.token);
      if (telegramMode() === 'webhook' || logout) await call(() => api.deleteWebhook({ drop_pending_updates: logout }));
    }
    await deleteHook(ports.table, connection.serviceId);
    if (logout) await deleteOffset(ports.table, connection.accountId, connection.serviceId);
  },
};
