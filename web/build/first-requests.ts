/**
 * The signed-in screens' first API paths, written into the built shell for its inline script
 * (web/index.html), which asks for the screen's list before any of the app's JavaScript has loaded.
 * The paths come from the app's own functions (app/route-data.ts, `firstRequestPaths`, run at build
 * time by web/build/prerender.ts), so the shell asks for exactly what the screen will. A data block
 * (`type="application/json"`) is not run, so the CSP needs no hash for it; the script that reads it
 * is in web/index.html as it stands, whose hash the CSP already carries (infra/site-headers.ts).
 */
const marker = /<!-- first-requests:[^>]*-->/;

/** The data block's element id, read by the shell's inline script. */
export const firstRequestsId = 'first-requests';

/** The shell with the paths' data block in place of its marker comment. */
export function withFirstRequests(html: string, paths: Record<string, string>): string {
  if (!marker.test(html)) throw new Error('first-requests: the shell has no <!-- first-requests: ... --> marker');
  // `<` escaped: the JSON can never close the script element.
  const json = JSON.stringify(paths).replaceAll('<', '\\u003c');
  return html.replace(marker, () => `<script type="application/json" id="${firstRequestsId}">${json}</script>`);
}

/** A page without the block and the script that reads it: the prerendered public pages ask for no app data. */
export function withoutFirstRequests(html: string): string {
  const page = html
    .replace(new RegExp(`\\s*<script type="application/json" id="${firstRequestsId}">[^<]*</script>`), '')
    .replace(/\s*<script>\s*\/\/ A signed-in screen's first list[\s\S]*?<\/script>/, '');
  if (page.includes('__conversaFirstRequest') || page.includes(firstRequestsId)) throw new Error('first-requests: could not be left out of a prerendered page');
  return page;
}
