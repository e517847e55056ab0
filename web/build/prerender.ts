/**
 * A Vite plugin that prerenders the public pages (web/src/app/static-routes.ts) once the client
 * build is written: it builds web/src/prerender.tsx for Node (dependencies stay external), renders
 * each page's path with it and writes the built shell with the page inside `#root` to
 * `web/dist/pages/<name>.html`. The page's largest text is then in the HTML, painted with the
 * stylesheet, before any JavaScript runs; boot.tsx hydrates it. The precompress plugin runs after
 * (closeBundle), so the pages get their .br and .gz copies too. The pages leave out the shell's
 * modulepreload links: main.tsx fetches the app after their first paint.
 *
 * The CSP has no 'unsafe-inline': a page with an inline script or a `style` attribute would break
 * (or differ from the hydrated page), so either fails the build.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { appPaths, notFoundPage, prerenderDir, prerenderedPages } from '../src/app/static-routes.ts';
import { withShellStart, withoutShellStart } from './first-requests.ts';
import { screenPreloads } from './screen-preloads.ts';

const rootMarker = '<div id="root"></div>';

/** A path no route matches: the router's not-found page. */
const notFoundPath = '/__not-found__';

/** Removes the server builds of earlier builds (over ten minutes old). */
async function removeStale(cacheDir: string): Promise<void> {
  const entries = await readdir(cacheDir).catch(() => [] as string[]);
  for (const name of entries.filter((n) => n.startsWith('conversa-prerender-'))) {
    const path = join(cacheDir, name);
    const age = Date.now() - (await stat(path)).mtimeMs;
    if (age > 10 * 60_000) await rm(path, { recursive: true, force: true });
  }
}

export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'conversa:prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      async handler(_options, bundle) {
        const outDir = resolve(config.root, config.build.outDir);
        // Inside the repository, so the built module finds the dependencies in node_modules.
        // One per build: two builds at once (parallel test files) must not share it. It stays after
        // the build (modules the pages import lazily may still be loading); older ones are removed.
        const cacheDir = resolve(config.root, '../node_modules/.cache');
        await removeStale(cacheDir);
        const serverDir = join(cacheDir, `conversa-prerender-${process.pid}`);
        await build({
          configFile: false,
          root: config.root,
          logLevel: 'warn',
          mode: config.mode,
          plugins: [react()],
          resolve: { alias: config.resolve.alias },
          build: { ssr: 'src/prerender.tsx', outDir: serverDir, emptyOutDir: true, target: 'node20', minify: false },
        });
        const { renderPage, renderAppSkeleton, firstRequestPaths } = (await import(
          `${pathToFileURL(join(serverDir, 'prerender.js')).href}?t=${Date.now()}`
        )) as {
          renderPage: (location: string) => Promise<string>;
          renderAppSkeleton: () => string;
          firstRequestPaths: () => Record<string, string>;
        };
        const shell = await readFile(join(outDir, 'index.html'), 'utf8');
        // The signed-in screens' start for the shell's inline script, and the frame's skeleton (build/first-requests.ts).
        // With the files each screen's start fetches after the boot chunk, to preload (build/screen-preloads.ts).
        const preloads = screenPreloads(bundle, shell);
        const built = withShellStart(shell, { appPaths, requests: firstRequestPaths(), preloads }, renderAppSkeleton());
        await writeFile(join(outDir, 'index.html'), built);
        if (!shell.includes(rootMarker)) throw new Error(`prerender: the shell has no ${rootMarker}`);
        // The pages paint before the app runs (main.tsx fetches it after the first paint): they do
        // not preload its modules, which would compete with the stylesheet for the first paint.
        // Nor do they ask for the signed-in screens' first data, or show the shell's loader, whose
        // place their content takes.
        const page = withoutShellStart(built).replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
        await mkdir(join(outDir, prerenderDir), { recursive: true });
        const pages: [path: string, name: string][] = [...Object.entries(prerenderedPages), [notFoundPath, notFoundPage]];
        for (const [path, name] of pages) {
          const body = await renderPage(path);
          if (/<script\b/i.test(body)) throw new Error(`prerender: ${path} has an inline script, which the CSP blocks`);
          if (/\sstyle="/i.test(body)) throw new Error(`prerender: ${path} has a style attribute, which the CSP blocks (use a class)`);
          await writeFile(join(outDir, prerenderDir, `${name}.html`), page.replace(rootMarker, `<div id="root">${body}</div>`));
        }
        config.logger.info(`prerendered ${pages.length} public page(s) to ${prerenderDir}/`);
      },
    },
  };
}
