/**
 * A Vite plugin that links the app's start (web/src/boot.tsx, a dynamic import of the tiny entry)
 * and its static imports as `modulepreload` in the built shell, which the signed-in app gets: the
 * browser fetches them with the entry, in parallel, rather than after it. The prerendered pages
 * leave these links out (web/build/prerender.ts).
 */
import type { Plugin } from 'vite';

type Chunk = { type: 'chunk'; fileName: string; facadeModuleId: string | null; imports: string[] };

export function preloadBoot(): Plugin {
  return {
    name: 'conversa:preload-boot',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c): c is Chunk & typeof c => c.type === 'chunk') as unknown as Chunk[];
        const boot = chunks.find((c) => c.facadeModuleId?.endsWith('/src/boot.tsx'));
        if (!boot) throw new Error('preload-boot: src/boot.tsx is not a chunk of the build');
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          for (const dep of chunks.find((c) => c.fileName === fileName)?.imports ?? []) visit(dep);
        };
        visit(boot.fileName);
        return [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}
