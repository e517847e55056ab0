import type { SessionAnswer, SwitchAccountPayload } from '#contracts/auth.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /auth/switch-account: moves the session to another account (a new token). */
export function switchAccount(payload: SwitchAccountPayload, options: { accessToken?: string } = {}): Promise<SessionAnswer> {
  const headers = options.accessToken ? { Authorization: `Bearer ${options.accessToken}` } : undefined;
  return api.post<SessionAnswer>('/auth/switch-account', payload, { headers });
}
