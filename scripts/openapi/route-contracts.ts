/**
 * What the OpenAPI document is generated from (ADR-0238): each route of
 * functions/http/routes.ts with its handler's declared contract (`api({ auth, body, params,
 * query, list })`, functions/lib/api.ts) and the success statuses its handler answers, read from
 * the response helpers it imports (`ok` 200, `created` 201, `noContent` 204; functions/lib/responses.ts).
 */
import { readFile } from 'node:fs/promises';
import type { HttpRoute } from '#functions/http/routes.ts';
import type { ApiContract } from '#lib/api.ts';

export interface RouteContract {
  route: HttpRoute;
  /** Undefined when the handler is not built with api(): the document refuses such a route. */
  contract: ApiContract | undefined;
  /** The success statuses, ascending. */
  statuses: number[];
}

const handlersDir = new URL('../../functions/http/', import.meta.url);

const statusOfHelper: Readonly<Record<string, number>> = { ok: 200, created: 201, noContent: 204 };

/** The success statuses a handler's source answers with: the response helpers it imports (200 when it imports none). */
export function successStatuses(source: string): number[] {
  const imported = /import\s*\{([^}]*)\}\s*from\s*'#lib\/responses\.ts'/.exec(source)?.[1] ?? '';
  const names = imported.split(',').map((name) => name.trim());
  const statuses = [...new Set(names.flatMap((name) => (statusOfHelper[name] ? [statusOfHelper[name]] : [])))];
  return statuses.length ? statuses.sort((a, b) => a - b) : [200];
}

export async function readRouteContracts(routes: readonly HttpRoute[]): Promise<RouteContract[]> {
  return Promise.all(
    routes.map(async (route) => {
      const file = new URL(`${route.handler}.ts`, handlersDir);
      const module = (await import(/* @vite-ignore */ file.href)) as { handler?: { contract?: ApiContract } };
      const source = await readFile(file, 'utf8');
      return { route, contract: module.handler?.contract, statuses: successStatuses(source) };
    }),
  );
}
