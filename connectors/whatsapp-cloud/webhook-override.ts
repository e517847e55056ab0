/**
 * The WABA's alternate callback URL (Meta's "Webhook overrides": `override_callback_uri` and
 * `verify_token` on POST /{waba-id}/subscribed_apps) for connections on the operator's own Meta app,
 * the one Embedded Signup onboards businesses with (ADR-0217). One app serves
 * every tenant then, and its single app-level URL could not be each connection's: the override
 * sends the WABA's `messages` (and the other fields Meta lets an override carry) to the
 * connection's own URL, `/api/webhooks/whatsapp-cloud/{serviceId}` with its own verify token
 * (ADR-0211), which Meta checks with the usual GET handshake before it accepts the override.
 *
 * Which connections: those whose sealed app secret is the operator's (META_APP_SECRET), when the
 * public origin is known (WHATSAPP_CLOUD_WEBHOOK_BASE_URL, set by the stack like Telegram's). A
 * connection of a tenant's own app keeps the app-level URL its admin pasted, as before.
 */
import { cloudWebhookPath, type CloudCredentials } from '#contracts/services.ts';
import { getCloudWebhook } from '#db/cloud-webhooks.ts';
import type { Ports } from '#domain/ports.ts';
import { optionalSecret } from '#lib/signing-secret.ts';

export interface WebhookOverride {
  override_callback_uri: string;
  verify_token: string;
}

/** The override to subscribe this connection's WABA with, or null to subscribe plainly. */
export async function webhookOverride(ports: Pick<Ports, 'table'>, serviceId: string, credentials: CloudCredentials): Promise<WebhookOverride | null> {
  const base = process.env.WHATSAPP_CLOUD_WEBHOOK_BASE_URL?.trim().replace(/\/+$/, '');
  if (!base) return null;
  const operatorSecret = await optionalSecret('META_APP_SECRET');
  if (!operatorSecret || operatorSecret.toLowerCase() !== credentials.appSecret.toLowerCase()) return null;
  const hook = await getCloudWebhook(ports.table, serviceId);
  if (!hook) return null;
  return { override_callback_uri: `${base}${cloudWebhookPath(serviceId)}`, verify_token: hook.verifyToken };
}
