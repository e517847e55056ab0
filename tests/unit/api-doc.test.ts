/**
 * docs/api.md and functions/http/routes.ts name the same routes: every route the stack and the
 * local gateway serve is documented, and the document names no route that does not exist. A route
 * is its method and path as routes.ts writes them (`{param}` segments, no `/api` prefix), read
 * from the first cell of the document's table rows (`GET /services, GET /services/{id}` names two;
 * a query string or a body after the path is not part of it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';

const root = resolve(import.meta.dirname, '../..');

/** The routes a Markdown document's table rows name in their first cell. */
function documentedRoutes(markdown: string): Set<string> {
  const routes = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cell = line.split('|')[1] ?? '';
    for (const match of cell.matchAll(/\b(GET|POST|PUT|DELETE|PATCH) (\/[^\s?`,()]*)/g)) routes.add(`${match[1]} ${match[2]}`);
  }
  return routes;
}

describe('docs/api.md against functions/http/routes.ts', () => {
  const documented = documentedRoutes(readFileSync(resolve(root, 'docs/api.md'), 'utf8'));
  const served = new Set(httpRoutes.map((route) => `${route.method} ${route.path}`));

  it('documents every route', () => {
    expect([...served].filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents no route that is not served', () => {
    expect([...documented].filter((route) => !served.has(route))).toEqual([]);
  });

  it('reads a table row as its routes', () => {
    const rows =
      '| Call | Who |\n|---|---|\n| GET /services, GET /services/{id} | member |\n| GET /messages?query= | member |\n| POST /accounts `{ name }` | x |\nGET /not-a-row\n';
    expect([...documentedRoutes(rows)].sort()).toEqual(['GET /messages', 'GET /services', 'GET /services/{id}', 'POST /accounts']);
  });
});
