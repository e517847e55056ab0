import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { reportError } from '#web/lib/errors.ts';
import { queryClient, setErrorReporter } from '#web/lib/query-client.ts';
import { screenShown } from '#web/lib/screen-code.ts';

/**
 * What the pages that talk to the API need, loaded with them and never by the public pages that do
 * not (the landing, the static pages): the query client and the error reporter (zod comes configured for the CSP: lib/zod-jitless.ts).
 */
setErrorReporter(reportError);

/** Inside a frame's scope (the app shell's): a scope there is a screen's. */
const InFrame = createContext(false);

export function QueryScope({ children }: { children: ReactNode }) {
  const inFrame = useContext(InFrame);
  return (
    <QueryClientProvider client={queryClient}>
      <InFrame.Provider value={true}>
        {children}
        {inFrame ? <ScreenShown /> : null}
      </InFrame.Provider>
    </QueryClientProvider>
  );
}

/** After the screen: its effects, and so its first reads, have run when this one's does (lib/screen-code.ts). */
function ScreenShown() {
  useEffect(() => screenShown(window.location.pathname), []);
  return null;
}
