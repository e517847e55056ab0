/**
 * Which HTML file answers which path, in one place for the build (web/build/prerender.ts), the
 * local server (infra/local/runtime/static-site.ts) and CloudFront's viewer-request function
 * (infra/constructs/web-site.ts). The public pages are prerendered at build time, so their largest
 * text is in the HTML and paints before any JavaScript runs; the client then hydrates them. The
 * signed-in app and the screens that depend on the URL's token or a session get the empty shell.
 */

/** Path prefixes of the signed-in app (no WhatsApp widget there). */
export const appPaths = [
  '/inbox',
  '/contacts',
  '/services',
  '/users',
  '/departments',
  '/tags',
  '/quick-replies',
  '/api-tokens',
  '/business-hours',
  '/automations',
  '/webhooks',
  '/reports',
  '/my-account',
];

/** Where the prerendered pages go in the build (`web/dist/pages/<name>.html`). */
export const prerenderDir = 'pages';

/**
 * The prerendered public pages: path → file name (without `.html`) under `prerenderDir`. Pages that
 * are mostly a form (sign-up, password reset, demo request) are not: a form submitted before the
 * page is hydrated would go to the server as a plain GET. The sign-in page is, with its form left
 * to the browser (routes/auth/login.tsx).
 */
export const prerenderedPages: Readonly<Record<string, string>> = {
  '/': 'landing',
  '/about': 'about',
  '/contact': 'contact',
  '/terms': 'terms',
  '/privacy': 'privacy',
  '/cookies': 'cookies',
  '/login': 'login',
  '/docs/api': 'api-reference',
};

/** Any other path outside `shellPaths` is the router's not-found page, prerendered under this name. */
export const notFoundPage = 'not-found';

/** Paths rendered in the browser only (prefixes): the signed-in app, the token or session screens, the forms. */
export const shellPaths = [...appPaths, '/accounts', '/register', '/forgot-password', '/reset-password', '/verify-email', '/demo'];

/** The empty app shell (Vite's own output). */
export const shellFile = '/index.html';

/**
 * The file that answers a request path: files (a last segment with a dot) as they are, a
 * prerendered page's own file (a trailing slash ignored), the shell for the browser-only paths,
 * and the prerendered not-found page for everything else.
 */
export function htmlFileFor(pathname: string): string {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (last.includes('.')) return pathname;
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const page = Object.hasOwn(prerenderedPages, path) ? prerenderedPages[path] : undefined;
  if (page) return `/${prerenderDir}/${page}.html`;
  if (shellPaths.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return shellFile;
  return `/${prerenderDir}/${notFoundPage}.html`;
}
