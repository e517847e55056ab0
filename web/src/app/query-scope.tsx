import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { reportError } from '#web/lib/errors.ts';
import { queryClient, setErrorReporter } from '#web/lib/query-client.ts';

/**
 * What the pages that talk to the API need, loaded with them and never by the public pages that do
 * not (the landing, the static pages): the query client and the error reporter (zod comes configured for the CSP: lib/zod-jitless.ts).
 */
setErrorReporter(reportError);

export function QueryScope({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
