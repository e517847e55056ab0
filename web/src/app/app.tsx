import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ErrorModal } from '#web/components/error-modal.tsx';
import { FullScreenLoader } from '#web/components/ui/spinner.tsx';
import { Toaster } from '#web/components/ui/toaster.tsx';
import { getMe } from '#web/features/auth/api/get-me.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { markSessionReady, sessionStore, updateSessionUser, useSession } from '#web/lib/auth.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { AppRouter } from './router.tsx';

/** Checks a stored token once on load: a valid one refreshes the user, a 401 signs out. */
async function restoreSession(): Promise<void> {
  if (!sessionStore.get().accessToken) return markSessionReady();
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

export function App() {
  const { ready } = useSession();
  useEffect(() => {
    void restoreSession();
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      {ready ? <AppRouter /> : <FullScreenLoader />}
      <Toaster />
      <ErrorModal />
    </QueryClientProvider>
  );
}
