import type { User } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';

/** GET /auth/me: the signed-in user (validates a stored token when the app starts). */
export function getMe(signal?: AbortSignal): Promise<{ user: User }> {
  return api.get<{ user: User }>('/auth/me', { signal });
}
