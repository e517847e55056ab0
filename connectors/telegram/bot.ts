/**
 * The grammY bot of one Telegram connection: the Bot API client pointed at TELEGRAM_API_ROOT, and
 * the inbound composers (idempotency first, then messages and edits) put together. The webhook
 * Lambda and the local poller both feed it with `bot.handleUpdate`.
 */
import { Bot, Composer, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { markEventHandled, wasEventHandled } from '#db/services.ts';
import type { Ports } from '#domain/ports.ts';
import { telegramApiRoot } from './config.ts';
import { editsComposer, messagesComposer, type InboundTarget } from './inbound.ts';

/** A bot for Bot API calls only (checks, sends, webhook set-up). */
export function apiBot(token: string, botInfo?: UserFromGetMe): Bot {
  return new Bot(token, { client: { apiRoot: telegramApiRoot(), timeoutSeconds: 60 }, botInfo });
}

/** Skips an update already handled (Telegram redelivers on failure) and records one once handled. */
function onceComposer(ports: Ports, serviceId: string): Composer<Context> {
  const composer = new Composer<Context>();
  composer.use(async (ctx, next) => {
    const id = `${serviceId}:${ctx.update.update_id}`;
    if (await wasEventHandled(ports.table, 'telegram', id)) return;
    await next();
    await markEventHandled(ports.table, 'telegram', id, ports.clock());
  });
  return composer;
}

/** The bot that receives a connection's updates and stores what they carry. */
export function inboundBot(ports: Ports, target: InboundTarget & { token: string }, botInfo?: UserFromGetMe): Bot {
  const bot = apiBot(target.token, botInfo);
  bot.use(onceComposer(ports, target.serviceId));
  bot.use(messagesComposer(ports, target));
  bot.use(editsComposer(ports, target));
  return bot;
}
