/**
 * Deliveries Telegram posts to `POST /api/webhooks/telegram/{serviceId}` (webhook mode). Every
 * call must carry the secret token registered with the webhook in
 * `X-Telegram-Bot-Api-Secret-Token`; anything else is refused and stores nothing. The bot's
 * idempotency (update id, then channel message id) makes a redelivery a no-op.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Update } from 'grammy/types';
import { getServiceItem } from '#db/services.ts';
import { WebhookRefused, type WebhookReceiver } from '#domain/channels/port.ts';
import { inboundBot } from './bot.ts';
import { getHook } from './storage.ts';

const update = z.looseObject({ update_id: z.number().int().nonnegative() });

const digest = (value: string) => createHash('sha256').update(value).digest();

function sameSecret(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

export const telegramWebhook: WebhookReceiver = {
  async receive(ports, inbound, delivery) {
    const hook = await getHook(ports.table, delivery.serviceId);
    if (!hook || !sameSecret(delivery.headers['x-telegram-bot-api-secret-token'], await ports.vault.open(hook.secretSealed))) {
      throw new WebhookRefused('unauthorized');
    }
    const service = await getServiceItem(ports.table, hook.accountId, hook.serviceId);
    if (!service?.tokenSealed) throw new WebhookRefused('unauthorized');
    const parsed = update.safeParse(delivery.body);
    if (!parsed.success) throw new WebhookRefused('invalid');
    const connection = { accountId: hook.accountId, serviceId: hook.serviceId, type: 'telegram' as const, token: await ports.vault.open(service.tokenSealed) };
    const bot = inboundBot(
      ports,
      inbound(connection),
      { accountId: connection.accountId, serviceId: connection.serviceId, token: connection.token },
      hook.botInfo,
    );
    await bot.handleUpdate(parsed.data as unknown as Update);
  },
};
