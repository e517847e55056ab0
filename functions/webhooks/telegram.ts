/**
 * POST /api/webhooks/telegram/{serviceId}: Telegram delivers a connection's updates here (webhook
 * mode). Public, but every call must carry the secret token registered with the webhook in
 * `X-Telegram-Bot-Api-Secret-Token`; anything else answers 401 and stores nothing. A 2xx tells
 * Telegram the update is handled; a failure makes it redeliver, which the bot's idempotency
 * (update id, then channel message id) turns into a no-op when it was already stored.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Update } from 'grammy/types';
import { inboundBot } from '#connectors/telegram/bot.ts';
import { getServiceItem, getTelegramHook } from '#db/services.ts';
import { fail } from '#domain/errors.ts';
import { api } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

const params = z.object({ serviceId: z.string().min(1).max(64) });
const update = z.looseObject({ update_id: z.number().int().nonnegative() });

const digest = (value: string) => createHash('sha256').update(value).digest();

function sameSecret(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

export const handler = api({ auth: 'public', params }).handler(async ({ ports, params, event, body }) => {
  const hook = await getTelegramHook(ports.table, params.serviceId);
  const given = event.headers?.['x-telegram-bot-api-secret-token'];
  if (!hook || !sameSecret(given, await ports.vault.open(hook.secretSealed))) throw fail.unauthorized();
  const service = await getServiceItem(ports.table, hook.accountId, hook.serviceId);
  if (!service?.tokenSealed) throw fail.unauthorized();
  const parsed = update.safeParse(body);
  if (!parsed.success) throw fail.invalid();
  const bot = inboundBot(ports, { accountId: hook.accountId, serviceId: hook.serviceId, token: await ports.vault.open(service.tokenSealed) }, hook.botInfo);
  await bot.handleUpdate(parsed.data as unknown as Update);
  return noContent();
});
