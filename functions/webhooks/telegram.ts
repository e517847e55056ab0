/**
 * POST /api/webhooks/telegram/{serviceId}: Telegram delivers a connection's updates here (webhook
 * mode). Public; the Telegram adapter checks each delivery's secret token (401 without the right
 * one). A 2xx tells Telegram the update is handled; a failure makes it redeliver.
 */
import { channelWebhook } from '#lib/channel-webhook.ts';

export const handler = channelWebhook('telegram');
