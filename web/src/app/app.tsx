import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { FullScreenLoader } from '#web/components/ui/spinner.tsx';
import { Toaster } from '#web/components/ui/toaster.tsx';
import { markSessionReady, sessionStore, updateSessionUser, useSession } from '#web/lib/auth.ts';
import { errorModalStore } from '#web/lib/notify.ts';
import { useStore } from '#web/lib/store.ts';
import { AppRouter } from './router.tsx';

// Only the pages that call the API can raise it: loaded the first time it opens, then kept.
const ErrorModal = lazy(() => import('#web/components/error-modal.tsx').then((m) => ({ default: m.ErrorModal })));

/**
 * Checks a stored token once on load: a valid one refreshes the user, a 401 signs out. Signed-out
 * visitors (the public pages) skip it and never load the API client.
 */
async function restoreSession(): Promise<void> {
  if (!sessionStore.get().accessToken) return markSessionReady();
  const [{ getMe }, { ApiError }] = await Promise.all([import('#web/features/auth/api/get-me.ts'), import('#web/lib/api-client.ts')]);
  try {
    const { user } = await getMe();
    updateSessionUser(user);
  } catch (error) {
    // 401: the API client has already signed out. Offline or 5xx: keep the stored session.
    if (!(error instanceof ApiError)) console.warn('Could not check the session', error);
  } finally {
    markSessionReady();
  }
}

function LazyErrorModal() {
  const error = useStore(errorModalStore);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (error) setWanted(true);
  }, [error]);
  if (!wanted && !error) return null;
  return (
    <Suspense fallback={null}>
      <ErrorModal />
    </Suspense>
  );
}

/** The toasts' portal into `document.body`, from the first effect on: not part of a prerendered page. */
function MountedToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? <Toaster /> : null;
}

/**
 * The app, on the browser's router; at build time (web/src/prerender.tsx) on the static router it
 * is given, which then stays out of the browser's bundle.
 */
export function App({ router }: { router?: ReactNode }) {
  const { ready } = useSession();
  useEffect(() => {
    void restoreSession();
  }, []);

  return (
    <>
      {ready ? (router ?? <AppRouter />) : <FullScreenLoader />}
      <MountedToaster />
      <LazyErrorModal />
    </>
  );
}
