/**
 * What the shell's inline script (web/index.html) needs to start a signed-in screen before any of
 * the app's JavaScript has loaded, written into the built shell: the signed-in app's paths and the
 * screens' first API paths (a data block, `type="application/json"`: never run, so the CSP needs no
 * hash for it; the script that reads it is in web/index.html as it stands, whose hash the CSP
 * carries), and the frame's skeleton (app/app-skeleton.tsx) that the script shows. Both come from
 * the app's own code, run at build time by web/build/prerender.ts, so the shell paints and asks for
 * exactly what the screen will.
 */
import type { PreloadScreen } from './screen-preloads.ts';

const dataMarker = /<!-- first-requests:[^>]*-->/;
const skeletonMarker = '<!-- app-skeleton -->';
const loaderBlock = /\s*<!-- shell-loader:[\s\S]*?<!-- \/shell-loader -->/;

/** The data block's element id, read by the shell's inline script. */
export const firstRequestsId = 'first-requests';

export interface ShellStart {
  /** Path prefixes of the signed-in app (app/static-routes.ts). */
  appPaths: string[];
  /** Page path → the API path of its first list (app/route-data.ts). */
  requests: Record<string, string>;
  /** Screen (`data-shell`) → the files its start fetches after the boot chunk (build/screen-preloads.ts). */
  preloads: Record<PreloadScreen, string[]>;
}

/** The shell with the data block and the skeleton's markup in place of their marker comments. */
export function withShellStart(html: string, start: ShellStart, skeleton: string): string {
  if (!dataMarker.test(html)) throw new Error('first-requests: the shell has no <!-- first-requests: ... --> marker');
  if (!html.includes(skeletonMarker)) throw new Error(`first-requests: the shell has no ${skeletonMarker} marker`);
  // `<` escaped: the JSON can never close the script element.
  const json = JSON.stringify(start).replaceAll('<', '\\u003c');
  return html.replace(dataMarker, () => `<script type="application/json" id="${firstRequestsId}">${json}</script>`).replace(skeletonMarker, () => skeleton);
}

/** A prerendered public page's frame: no app data block, no script reading it, no shell loader (the page takes its place). */
export function withoutShellStart(html: string): string {
  const page = html
    .replace(new RegExp(`\\s*<script type="application/json" id="${firstRequestsId}">[^<]*</script>`), '')
    .replace(/\s*<script>\s*\/\/ A signed-in screen's start[\s\S]*?<\/script>/, '')
    .replace(loaderBlock, '');
  if (page.includes('__conversaFirstRequest') || page.includes(firstRequestsId) || page.includes('shell-loader')) {
    throw new Error('first-requests: the shell start could not be left out of a prerendered page');
  }
  return page;
}
