/**
 * A Vite plugin that preloads the one font file the first paint needs, Inter's latin subset (the
 * pt-BR interface; latin-ext loads only where a page has such characters), from the built shell:
 * the browser fetches it alongside the stylesheet instead of after it. Nothing else is preloaded
 * beyond what Vite links itself (the entry's stylesheet and its static imports).
 */
import type { Plugin } from 'vite';

const firstPaintFont = /(^|\/)inter-latin-wght-normal-[\w-]+\.woff2$/;

export function preloadFont(): Plugin {
  return {
    name: 'conversa:preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((file) => firstPaintFont.test(file));
        if (!font) throw new Error('preload-font: Inter latin (inter-latin-wght-normal-*.woff2) is not in the build');
        return [{ tag: 'link', attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' }, injectTo: 'head' }];
      },
    },
  };
}
