/**
 * The security headers of the web app, in one place: the CloudFront response headers policy
 * (`infra/constructs/web-site.ts`) sets exactly these, and the browser test
 * (`tests/e2e/site-headers.test.ts`) serves the built app with them and fails on any CSP violation.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** `web/index.html`, the source of the app shell (Vite copies its inline scripts as they are). */
const shellSource = new URL('../web/index.html', import.meta.url);

/** The bodies of the inline `<script>` elements (no `src`) of an HTML page; data blocks (JSON), never run, left out. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/json")[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
}

/** A CSP hash source for an inline script body: `'sha256-…'`. */
export function scriptHash(body: string): string {
  return `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;
}

export interface SiteHeaderOptions {
  /**
   * Origin of the media bucket's presigned URLs (`https://<bucket>.s3.<region>.amazonaws.com`):
   * browsers PUT uploads to it and show images, audio and video from it.
   */
  readonly mediaOrigin: string;
  /** The app shell's HTML. @default web/index.html */
  readonly shellHtml?: string;
  /**
   * Whether the site is served over HTTPS. HSTS is sent only then: over plain HTTP (the local
   * runtime) browsers ignore it. @default true
   */
  readonly https?: boolean;
  /**
   * Whether the operator configured a Meta app for Embedded Signup ('Conectar com a Meta'): only then
   * may the page load Meta's JavaScript SDK and the frames it opens (`metaSdkSources`). @default false
   */
  readonly metaSdk?: boolean;
}

/**
 * What Meta's JavaScript SDK needs for Embedded Signup (ADR-0217): the script
 * from connect.facebook.net; the hidden cross-domain frames it opens on www/web/staticxx.facebook.com
 * (the login itself is a popup window, which CSP does not govern, posting back with `postMessage`);
 * its calls and the app-events pixel (`autoLogAppEvents`, as Meta's snippet sets it) to
 * graph.facebook.com and www.facebook.com.
 */
export const metaSdkSources = {
  script: ['https://connect.facebook.net'],
  frame: ['https://www.facebook.com', 'https://web.facebook.com', 'https://staticxx.facebook.com'],
  connect: ['https://graph.facebook.com', 'https://www.facebook.com'],
  img: ['https://www.facebook.com'],
} as const;

/**
 * The Content-Security-Policy the app passes. Scripts: our own files plus the hashes of the shell's
 * inline scripts (the theme, the signed-in screen's early first request) (no 'unsafe-inline', no eval), and
 * 'wasm-unsafe-eval' for WebAssembly (the Opus encoder of voice notes on Safari). Styles: our own files only (React sets
 * `style` through the CSSOM, which CSP does not restrict). Images and media: ours, `data:` (the
 * QR code PNG, the notification chime), `blob:` (previews of files and voice notes being sent) and
 * the media bucket. Connections: the same origin (`/api`, and `/ws`, since CSP 3's 'self' covers
 * `wss:` to the same host) and the bucket (presigned uploads).
 */
export function contentSecurityPolicy(options: SiteHeaderOptions): string {
  const html = options.shellHtml ?? readFileSync(shellSource, 'utf8');
  const media = options.mediaOrigin;
  const meta = options.metaSdk ? metaSdkSources : { script: [], frame: [], connect: [], img: [] };
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    // 'wasm-unsafe-eval' lets WebAssembly compile (the voice recorder's Opus encoder where the browser
    // records no WebM); it allows no JavaScript eval.
    ['script-src', "'self'", ...inlineScriptsOf(html).map(scriptHash), "'wasm-unsafe-eval'", ...meta.script],
    ['style-src', "'self'"],
    ['img-src', "'self'", 'data:', 'blob:', media, ...meta.img],
    ['media-src', "'self'", 'data:', 'blob:', media],
    ['font-src', "'self'"],
    ['connect-src', "'self'", media, ...meta.connect],
    // Frames fall back to default-src ('self') unless Meta's SDK is allowed.
    ...(options.metaSdk ? [['frame-src', "'self'", ...meta.frame] as [string, ...string[]]] : []),
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** HSTS: two years, subdomains included; not preloaded (preloading is a commitment for the whole domain). */
export const strictTransportSecurity = { maxAgeSeconds: 2 * 365 * 24 * 60 * 60, includeSubdomains: true } as const;

/** Microphone for voice notes from our own pages; nothing else the app does not use. */
export const permissionsPolicy = 'camera=(), geolocation=(), microphone=(self), payment=(), usb=()';

export const referrerPolicy = 'strict-origin-when-cross-origin';

/**
 * Every header the site answers with, as HTTP header names and values: what the local runtime
 * sends on every answer (infra/local/runtime/runtime.ts) and the browser test's loopback server sends.
 */
export function siteHeaders(options: SiteHeaderOptions): Record<string, string> {
  const hsts = `max-age=${strictTransportSecurity.maxAgeSeconds}${strictTransportSecurity.includeSubdomains ? '; includeSubDomains' : ''}`;
  return {
    'content-security-policy': contentSecurityPolicy(options),
    ...(options.https === false ? {} : { 'strict-transport-security': hsts }),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': referrerPolicy,
    'permissions-policy': permissionsPolicy,
  };
}
