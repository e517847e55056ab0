/**
 * The operator's Meta app for Embedded Signup (ADR-0217), read when used:
 *   META_APP_ID      the app's id (context `metaAppId` in the cloud)
 *   META_CONFIG_ID   its Facebook Login for Business configuration (context `metaConfigId`)
 *   META_APP_SECRET  the app secret for the code exchange (or META_APP_SECRET_ARN: the stack's secret,
 *                    'unset' until the operator puts it)
 * All three, or Embedded Signup is not offered.
 */
import type { MetaApp } from '#domain/channels/port.ts';
import { optionalSecret } from './signing-secret.ts';

export interface MetaAppSettings extends MetaApp {
  configId: string;
}

export async function metaAppSettings(): Promise<MetaAppSettings | null> {
  const appId = process.env.META_APP_ID?.trim();
  const configId = process.env.META_CONFIG_ID?.trim();
  if (!appId || !configId) return null;
  const appSecret = await optionalSecret('META_APP_SECRET');
  return appSecret ? { appId, configId, appSecret } : null;
}
