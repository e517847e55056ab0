/**
 * Serves the generated OpenAPI document (src/features/marketing/api-reference/openapi.json, written
 * by `npm run openapi`; ADR-0238) as /openapi.json: written compact into the
 * build, and answered by the dev server, for the reference page's download link and for tools.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

const source = new URL('../src/features/marketing/api-reference/openapi.json', import.meta.url);
export const openApiPath = '/openapi.json';

const compact = async () => JSON.stringify(JSON.parse(await readFile(source, 'utf8')));

export function openApiFile(): Plugin {
  return {
    name: 'conversa:openapi-file',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: openApiPath.slice(1), source: await compact() });
    },
    configureServer(server) {
      server.middlewares.use(openApiPath, async (_request, response) => {
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.end(await compact());
      });
    },
  };
}
