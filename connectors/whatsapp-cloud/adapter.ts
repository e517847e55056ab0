/**
 * WhatsApp through Meta's official Cloud API ('WhatsApp (API oficial)'): webhook-driven and
 * stateless, so it runs in the functions like Telegram's webhook mode and holds no session in the
 * channel worker fleet (no `sessions`: its connections never go to the worker queue). Meta's
 * deliveries come to the webhook route (./webhook.ts).
 */
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { whatsappCloudEmbeddedSignup } from './embedded-signup.ts';
import { whatsappCloudCredentials, whatsappCloudLifecycle } from './lifecycle.ts';
import { reactWhatsappCloud } from './reactions.ts';
import { markWhatsappCloudRead, sendWhatsappCloud } from './send.ts';
import { whatsappCloudTemplates } from './templates.ts';
import { whatsappCloudWebhook } from './webhook.ts';

export const whatsappCloudChannel: ChannelAdapter = {
  type: 'whatsapp_cloud',
  send: sendWhatsappCloud,
  credentials: whatsappCloudCredentials,
  lifecycle: whatsappCloudLifecycle,
  markRead: markWhatsappCloudRead,
  webhook: whatsappCloudWebhook,
  templates: whatsappCloudTemplates,
  react: reactWhatsappCloud,
  embeddedSignup: whatsappCloudEmbeddedSignup,
};
