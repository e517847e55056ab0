import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { appChunkName } from './build/app-chunks.ts';
import { openApiFile } from './build/openapi-file.ts';
import { precompress } from './build/precompress.ts';
import { preloadBoot } from './build/preload-boot.ts';
import { preloadFont } from './build/preload-font.ts';
import { prerender } from './build/prerender.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * opus-recorder (the voice recorder where the browser records no WebM) finds the global object
 * with webpack's `function(){return this}() || new Function("return this")()`: bundled as strict
 * code the first is undefined and the second is an eval the CSP refuses (caught, but reported as a
 * violation). `globalThis` is the same object, with no eval.
 */
function opusRecorderWithoutEval(): Plugin {
  const probe = 'new Function("return this")()';
  return {
    name: 'opus-recorder-without-eval',
    transform(code, id) {
      if (!/[\\/]opus-recorder[\\/]dist[\\/]recorder\.min\.js$/.test(id)) return null;
      if (!code.includes(probe)) throw new Error('opus-recorder: the global probe changed; check it still needs no eval');
      return { code: code.replace(probe, 'globalThis'), map: null };
    },
  };
}

const bootLibraries = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/;
const bootSources = /[\\/]web[\\/]src[\\/](lib[\\/](cn|store|storage)\.ts|components[\\/]ui[\\/]spinner\.tsx)$/;
/**
 * The icons the sign-in screens use (the password field's eye, the select's chevron, the account
 * choice's building; their check mark is the boot chunk's, for the toasts): a small chunk of their own, so /login does not load
 * the `shared` icons chunk, which grows with every icon two signed-in screens share (they reach the
 * icons through lucide's one index module, so app-chunks.ts cannot tell them from the public pages').
 */
const authIcons = /[\\/]lucide-react[\\/].*[\\/]icons[\\/](eye|eye-off|chevron-down|building-complex)\.m?js$/;

const bootModule = (id: string) =>
  bootLibraries.test(id) || bootSources.test(id) || (/[\\/]lucide-react[\\/]/.test(id) && !/[\\/]icons[\\/]/.test(id)) || id.includes('rolldown/runtime');

// The web app lives in web/; the built files go to web/dist, served by `npm start` (SPA fallback)
// and uploaded as static files in the cloud. The manifest feeds scripts/check-bundle-size.mjs.
export default defineConfig({
  root,
  publicDir: 'public',
  plugins: [opusRecorderWithoutEval(), react(), tailwindcss(), preloadFont(), preloadBoot(), openApiFile(), prerender(), precompress()],
  // `zod` is zod configured jitless before anything uses it (src/lib/zod-jitless.ts: the CSP).
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) }] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    // Every browser the app supports knows modulepreload: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The app's start (src/boot.tsx) as one file: React, the router, the icons' base and the
        // small modules it shares with the pages, rather than a handful of tiny common chunks.
        // The signed-in screens' shared modules in a few chunks, the small parts merged (build/app-chunks.ts).
        codeSplitting: {
          groups: [
            { name: 'boot', test: bootModule, priority: 3 },
            { name: 'auth-icons', test: authIcons, priority: 2 },
            { name: appChunkName(), priority: 1, includeDependenciesRecursively: false, minShareCount: 2 },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: process.env.CONVERSA_API ?? 'http://127.0.0.1:3000', changeOrigin: true },
      '/ws': { target: process.env.CONVERSA_API ?? 'http://127.0.0.1:3000', ws: true },
    },
  },
  preview: { host: '127.0.0.1' },
});
