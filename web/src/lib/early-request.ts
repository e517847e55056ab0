/**
 * The first list request of a signed-in screen, started by the shell's inline script (web/index.html)
 * before any of the app's JavaScript has loaded, with the paths the build wrote into the shell
 * (app/route-data.ts, `firstRequestPaths`). The API client takes its answer for the same GET with
 * the same token, once; boot.tsx drops it once the screen's own first requests have been made, so
 * an answer nobody took is never used later.
 */
interface EarlyRequest {
  path: string;
  token: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __conversaFirstRequest?: EarlyRequest;
  }
}

/** The early request's answer when it is the one asked for now (and forgets it), else undefined. */
export function takeEarlyResponse(method: string, path: string, token: string | null): Promise<Response> | undefined {
  const early = globalThis.window?.__conversaFirstRequest;
  if (!early || method !== 'GET' || early.path !== path || early.token !== token) return undefined;
  discardEarlyRequest();
  return early.response;
}

/** Forgets the early request, taken or not. */
export function discardEarlyRequest(): void {
  if (globalThis.window) delete window.__conversaFirstRequest;
}
