import type { SessionAnswer } from '#contracts/auth.ts';
import type { SessionUser } from '#contracts/entities.ts';
import { storage, storageKeys } from './storage.ts';
import { createStore, useStore } from './store.ts';

/**
 * The persisted auth state (docs/product.md#entities-and-states): the access token and the user. A stored session is used
 * at once, as it was stored: the app renders and asks for its data while /auth/me checks the token
 * (app/app.tsx), whose 401 signs out like any other call's.
 */
export interface Session {
  accessToken: string | null;
  user: SessionUser | null;
}

function readPersisted(): Session {
  const raw = storage.get(storageKeys.auth);
  if (!raw) return { accessToken: null, user: null };
  try {
    const parsed = JSON.parse(raw) as Partial<Session>;
    if (typeof parsed.accessToken === 'string' && parsed.user && typeof parsed.user === 'object') {
      return { accessToken: parsed.accessToken, user: parsed.user };
    }
  } catch {
    /* corrupt: treat as signed out */
  }
  storage.remove(storageKeys.auth);
  return { accessToken: null, user: null };
}

export const sessionStore = createStore<Session>(readPersisted());

function persist(session: Session): void {
  if (session.accessToken && session.user) {
    storage.set(storageKeys.auth, JSON.stringify({ accessToken: session.accessToken, user: session.user }));
  } else {
    storage.remove(storageKeys.auth);
  }
}

export function getAccessToken(): string | null {
  return sessionStore.get().accessToken;
}

/** Signs in: stores the token and user (login, switch account). */
export function setSession(answer: SessionAnswer): void {
  const next: Session = { accessToken: answer.accessToken, user: answer.user };
  persist(next);
  sessionStore.set(next);
}

export function updateSessionUser(user: SessionUser): void {
  const current = sessionStore.get();
  if (!current.accessToken) return;
  const next = { ...current, user };
  persist(next);
  sessionStore.set(next);
}

/**
 * Signs out locally: forgets the session. The query cache and the realtime link, when the page has
 * loaded them, drop their data and close on this change themselves (`onSignOut`): this module is in
 * the public pages' entry chunk and must not pull them in.
 */
export function clearSession(): void {
  persist({ accessToken: null, user: null });
  sessionStore.set({ accessToken: null, user: null });
}

/** Runs `listener` whenever a signed-in session ends (sign-out, 401, switch to no session). */
export function onSignOut(listener: () => void): () => void {
  let signedIn = Boolean(sessionStore.get().accessToken);
  return sessionStore.subscribe(() => {
    const now = Boolean(sessionStore.get().accessToken);
    if (signedIn && !now) listener();
    signedIn = now;
  });
}

export function useSession(): Session {
  return useStore(sessionStore);
}
