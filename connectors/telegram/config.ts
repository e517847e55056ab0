/**
 * How the Telegram connector is configured, read when used (never at import), so tests and the
 * local runtime can set the environment first.
 *   TELEGRAM_API_ROOT           the Bot API server (default Telegram's own); any Bot-API-compatible server works
 *   TELEGRAM_MODE               `webhook` (the cloud: Telegram posts updates to our route) or `polling`
 *                               (the local runtime: the worker long-polls getUpdates)
 *   TELEGRAM_WEBHOOK_BASE_URL   public origin of the API, for the webhook URL (webhook mode)
 *   TELEGRAM_POLL_TIMEOUT       long-poll timeout of getUpdates, in seconds (default 25)
 */
export const defaultTelegramApiRoot = 'https://api.telegram.org';

export function telegramApiRoot(): string {
  return (process.env.TELEGRAM_API_ROOT || defaultTelegramApiRoot).replace(/\/+$/, '');
}

export type TelegramMode = 'webhook' | 'polling';

export function telegramMode(): TelegramMode {
  return process.env.TELEGRAM_MODE === 'polling' ? 'polling' : 'webhook';
}

/** The route Telegram posts a connection's updates to (`POST /api/webhooks/telegram/{serviceId}`). */
export function telegramWebhookUrl(serviceId: string): string | null {
  const base = process.env.TELEGRAM_WEBHOOK_BASE_URL;
  if (!base) return null;
  return `${base.replace(/\/+$/, '')}/api/webhooks/telegram/${encodeURIComponent(serviceId)}`;
}

export function telegramPollTimeoutSeconds(): number {
  const value = Number(process.env.TELEGRAM_POLL_TIMEOUT);
  return Number.isFinite(value) && value >= 0 ? value : 25;
}

/** The update kinds we ask Telegram for. */
export const allowedUpdates = ['message', 'edited_message', 'callback_query'] as const;
