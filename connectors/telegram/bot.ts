/**
 * The grammY bot of one Telegram connection: the Bot API client pointed at TELEGRAM_API_ROOT, and
 * the inbound composers (idempotency first, then messages and edits) put together. The webhook
 * receiver and the polling session both feed it with `bot.handleUpdate`.
 */
import { Bot, Composer, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { InboundSink } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { telegramApiRoot } from './config.ts';
import { callbacksComposer, editsComposer, messagesComposer, type InboundTarget } from './inbound.ts';
import { markUpdateHandled, wasUpdateHandled } from './storage.ts';

/** A bot for Bot API calls only (checks, sends, webhook set-up). */
export function apiBot(token: string, botInfo?: UserFromGetMe): Bot {
  return new Bot(token, { client: { apiRoot: telegramApiRoot(), timeoutSeconds: 60 }, botInfo });
}

/** Skips an update already handled (Telegram redelivers on failure) and records one once handled. */
function onceComposer(ports: Ports, { accountId, serviceId }: InboundTarget): Composer<Context> {
  const composer = new Composer<Context>();
  composer.use(async (ctx, next) => {
    if (await wasUpdateHandled(ports.table, accountId, serviceId, ctx.update.update_id)) return;
    await next();
    await markUpdateHandled(ports.table, accountId, serviceId, ctx.update.update_id, ports.clock());
  });
  return composer;
}

/** The bot that receives a connection's updates and hands what they carry to the sink. */
export function inboundBot(ports: Ports, sink: InboundSink, target: InboundTarget, botInfo?: UserFromGetMe): Bot {
  const bot = apiBot(target.token, botInfo);
  bot.use(onceComposer(ports, target));
  bot.use(messagesComposer(ports, sink, target));
  bot.use(editsComposer(sink));
  bot.use(callbacksComposer(sink));
  return bot;
}
