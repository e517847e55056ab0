/**
 * The build-time renderer of the public pages (web/build/prerender.ts loads it in Node): the same
 * `App` the browser runs, on a static router at the page's path, every lazy page awaited, so the
 * HTML holds the page as the browser would first render it for a signed-out visitor. boot.tsx then
 * hydrates it.
 */
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/app.tsx';
import { AppSkeleton } from './app/app-skeleton.tsx';
import { AppRoutes } from './app/router.tsx';

// The build writes these into the shell (web/build/first-requests.ts).
export { firstRequestPaths } from './app/route-data.ts';

/** The signed-in frame's skeleton with every screen's part, shown by the shell's `data-shell`. */
export function renderAppSkeleton(): string {
  return renderToStaticMarkup(<AppSkeleton />);
}

export async function renderPage(location: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App
        router={
          <StaticRouter location={location}>
            <AppRoutes />
          </StaticRouter>
        }
      />
    </StrictMode>,
    // Every Suspense boundary in place, however large: an outlined one would need an inline script.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
