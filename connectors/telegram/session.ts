/**
 * How a Telegram connection holds a session in the channel worker: long polling, where no webhook
 * can reach (the local runtime, `TELEGRAM_MODE=polling`). One run: getMe, deleteWebhook,
 * `connected`, then getUpdates from the stored offset, handling each update before moving the
 * offset past it. Stops promptly when asked (the pending getUpdates is aborted).
 */
import type { Update } from 'grammy/types';
import { serviceStopReasons } from '#contracts/services.ts';
import type { ChannelSession, SessionContext, SessionHolding } from '#domain/channels/port.ts';
import { inboundBot } from './bot.ts';
import { allowedUpdates, telegramMode, telegramPollTimeoutSeconds } from './config.ts';
import { isTokenRejection } from './errors.ts';
import { getOffset, putOffset } from './storage.ts';

/** An update that keeps failing is skipped after this many tries, so one bad update cannot stop a bot. */
const maxUpdateTries = 5;
const maxBackoffSeconds = 30;

class TelegramPoller implements ChannelSession {
  private readonly abort = new AbortController();
  private finished: Promise<void> = Promise.resolve();

  constructor(private readonly context: SessionContext) {}

  start(): void {
    this.finished = this.run().catch((error) => console.error(`[telegram] polling of ${this.context.run.serviceId} ended`, error));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.finished;
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private sleep(seconds: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      this.abort.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  private async run(): Promise<void> {
    const { ports, run: target, report, inbound } = this.context;
    const bot = inboundBot(ports, inbound, { accountId: target.accountId, serviceId: target.serviceId, token: target.token! });
    // grammY's Node build types its signals with the abort-controller polyfill; the native one works.
    const signal = this.abort.signal as unknown as Parameters<typeof bot.api.getMe>[0];
    let backoff = 1;
    for (;;) {
      if (this.stopped) return;
      try {
        await bot.init(signal);
        await bot.api.deleteWebhook({}, signal);
        break;
      } catch (error) {
        if (this.stopped) return;
        if (isTokenRejection(error)) return report.stopped(serviceStopReasons.tokenRejected);
        console.warn(`[telegram] ${target.serviceId}: start failed, retrying in ${backoff} s`, (error as Error).message);
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, maxBackoffSeconds);
      }
    }
    if (!(await report.connected()) || this.stopped) return;

    let offset = await getOffset(ports.table, target.accountId, target.serviceId);
    let tries = 0;
    backoff = 1;
    while (!this.stopped) {
      let updates: Update[];
      try {
        updates = await bot.api.getUpdates({ offset, timeout: telegramPollTimeoutSeconds(), allowed_updates: [...allowedUpdates] }, signal);
        backoff = 1;
      } catch (error) {
        if (this.stopped) return;
        if (isTokenRejection(error)) return report.stopped(serviceStopReasons.tokenRejected);
        console.warn(`[telegram] ${target.serviceId}: getUpdates failed, retrying in ${backoff} s`, (error as Error).message);
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, maxBackoffSeconds);
        continue;
      }
      for (const update of updates) {
        if (this.stopped) return;
        try {
          await bot.handleUpdate(update);
          tries = 0;
        } catch (error) {
          if (++tries < maxUpdateTries) {
            console.warn(`[telegram] ${target.serviceId}: update ${update.update_id} failed (try ${tries})`, error);
            await this.sleep(Math.min(tries, maxBackoffSeconds));
            break;
          }
          console.error(`[telegram] ${target.serviceId}: skipping update ${update.update_id} after ${tries} tries`, error);
          tries = 0;
        }
        offset = update.update_id + 1;
        await putOffset(ports.table, target.accountId, target.serviceId, offset);
      }
    }
  }
}

/** Telegram holds a session only where it polls; with a webhook, Telegram posts to our route instead. */
export const telegramSessions: SessionHolding = {
  wants: (connection) => telegramMode() === 'polling' && Boolean(connection.runId && connection.tokenSealed),
  open(context) {
    const poller = new TelegramPoller(context);
    poller.start();
    return poller;
  },
};
