/**
 * The WhatsApp Cloud API's credentials as one sealed token: the connection's `tokenSealed` holds
 * them as JSON (the port hands adapters one token; ADR-0210), so the
 * access token and the app secret are sealed with the data key like the Telegram token, and the two
 * ids travel with them.
 */
import type { CloudCredentials } from '#contracts/services.ts';

export function cloudCredentialsToken(credentials: CloudCredentials): string {
  const { phoneNumberId, wabaId, accessToken, appSecret } = credentials;
  return JSON.stringify({ phoneNumberId, wabaId, accessToken, appSecret });
}

/** The credentials an opened token holds; null when it is not a Cloud API token. */
export function parseCloudCredentials(token: string | null | undefined): CloudCredentials | null {
  if (!token) return null;
  try {
    const value = JSON.parse(token) as Partial<Record<keyof CloudCredentials, unknown>>;
    const fields = [value.phoneNumberId, value.wabaId, value.accessToken, value.appSecret];
    if (!fields.every((field) => typeof field === 'string' && field.length > 0)) return null;
    return value as CloudCredentials;
  } catch {
    return null;
  }
}
