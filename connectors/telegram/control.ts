/**
 * Starting and stopping Telegram connections. Start checks the bot (getMe); in webhook mode it
 * then registers the webhook on our route with a fresh random secret token, which every delivery
 * must carry; in polling mode the worker (connectors/worker.ts) takes over and reports
 * `connected`. Stop deletes the webhook (the poller stops by itself on the status change);
 * logout also drops pending updates and forgets the offset.
 */
import { randomBytes } from 'node:crypto';
import { deleteTelegramHook, deleteTelegramOffset, putTelegramHook } from '#db/services.ts';
import { ChannelUnreachable, type ChannelControl } from '#domain/services/lifecycle.ts';
import { apiBot } from './bot.ts';
import { allowedUpdates, telegramMode, telegramWebhookUrl } from './config.ts';
import { controlError } from './errors.ts';

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw controlError(error);
  }
}

export const telegramControl: ChannelControl = {
  async verify(token) {
    await call(() => apiBot(token).api.getMe());
  },

  async start(ports, target) {
    if (!target.token) throw new ChannelUnreachable('The connection has no token');
    const bot = apiBot(target.token);
    const botInfo = await call(() => bot.api.getMe());
    if (telegramMode() === 'polling') return 'starting';
    const url = telegramWebhookUrl(target.serviceId);
    if (!url) throw new ChannelUnreachable('TELEGRAM_WEBHOOK_BASE_URL is not set');
    // Letters, digits, '_' and '-' only, up to 256 characters (Bot API).
    const secret = randomBytes(32).toString('base64url');
    await putTelegramHook(ports.table, {
      accountId: target.accountId,
      serviceId: target.serviceId,
      secretSealed: await ports.vault.seal(secret),
      botInfo,
      createdAt: ports.clock().toISOString(),
    });
    await call(() => bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...allowedUpdates] }));
    return 'connected';
  },

  async stop(ports, target, { logout }) {
    if (target.token) {
      const { api } = apiBot(target.token);
      if (telegramMode() === 'webhook' || logout) await call(() => api.deleteWebhook({ drop_pending_updates: logout }));
    }
    await deleteTelegramHook(ports.table, target.serviceId);
    if (logout) await deleteTelegramOffset(ports.table, target.accountId, target.serviceId);
  },
};
