import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { onSignOut } from './auth.ts';

/**
 * One query client for the app. Failed calls are shown through the error catalogue unless the
 * query or mutation sets `meta: { silent: true }` (for callers that show the error themselves).
 */
declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

let report: (error: unknown) => void = () => {};

/** lib/errors.ts registers the reporter here, keeping this module free of UI imports. */
export function setErrorReporter(reporter: (error: unknown) => void): void {
  report = reporter;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (!query.meta?.silent) report(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error, _vars, _ctx, mutation) => {
      if (!mutation.meta?.silent) report(error);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => {
        const status = (error as { status?: number }).status;
        if (status && status >= 400 && status < 500) return false;
        return count < 2;
      },
    },
    mutations: { retry: false },
  },
});

// Signing out drops every cached answer (one account's data must not show to the next session).
onSignOut(() => queryClient.clear());
