import type { User } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { sessionStore, updateSessionUser } from '#web/lib/auth.ts';

/** GET /auth/me: the signed-in user (validates a stored token when the app starts). */
export function getMe(signal?: AbortSignal): Promise<{ user: User }> {
  return api.get<{ user: User }>('/auth/me', { signal });
}

/**
 * Reads the signed-in user again and keeps it in the session: when the app starts (boot.tsx) and
 * after a change the server made to it (a confirmed e-mail address). A session changed meanwhile
 * (another account chosen) keeps its own user, and the same user as stored (the usual answer)
 * changes nothing: no render of every screen using the session. Signed out, it asks nothing. A 401
 * rejects, after the API client has signed out.
 */
export async function refreshSessionUser(): Promise<void> {
  const checked = sessionStore.get().accessToken;
  if (!checked) return;
  const { user } = await getMe();
  const current = sessionStore.get();
  if (current.accessToken === checked && JSON.stringify(current.user) !== JSON.stringify(user)) updateSessionUser(user);
}
