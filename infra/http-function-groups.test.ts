import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { API_PREFIX } from './constructs/http-api.ts';
import {
  functionOf,
  groupEntrySource,
  groupRoutes,
  httpFunctionDescription,
  httpLayouts,
  isPaymentHandler,
  routeKeyOf,
  stackLayout,
} from './constructs/http-function-groups.ts';

const handlersDir = resolve(import.meta.dirname, '../functions/http');

describe('the HTTP function layouts', () => {
  it('put every route of the route list in exactly one function, in every layout', () => {
    for (const layout of httpLayouts) {
      const grouped = [...groupRoutes(layout, httpRoutes).values()].flat();
      expect(grouped.map((r) => routeKeyOf(r, '')).sort(), layout).toEqual(httpRoutes.map((r) => routeKeyOf(r, '')).sort());
    }
  });

  it('give the stack one function per set of rights: the Stripe secrets, the worker queue, the rest', () => {
    expect(stackLayout).toBe('by-rights');
    const groups = groupRoutes(stackLayout, httpRoutes);
    expect([...groups.keys()].sort()).toEqual(['api', 'channel-control', 'payments']);
    expect(groups.get('payments')!.every((r) => isPaymentHandler(r.handler))).toBe(true);
    expect(
      groups
        .get('channel-control')!
        .map((r) => r.handler)
        .sort(),
    ).toEqual([...workerQueue.routeProducers].sort());
    expect(groups.get('api')!.some((r) => isPaymentHandler(r.handler) || workerQueue.routeProducers.includes(r.handler))).toBe(false);
    for (const route of httpRoutes) expect(httpFunctionDescription(route.handler)).toBe(`http/${functionOf(stackLayout, route)}`);
  });

  it("generate each grouped function's entry from the route list: every route's key to its module's handler", () => {
    for (const [group, routes] of groupRoutes(stackLayout, httpRoutes)) {
      const source = groupEntrySource(routes, handlersDir, API_PREFIX);
      const imports = [...source.matchAll(/import \{ handler as (h\d+) \} from "([^"]+)";/g)];
      expect(imports.length, group).toBe(new Set(routes.map((r) => r.handler)).size);
      for (const [, , path] of imports) expect(existsSync(path!), path).toBe(true);
      expect(source).toContain(`import { routeTable } from ${JSON.stringify(join(handlersDir, '..', 'lib', 'route-table.ts'))};`);
      for (const route of routes) {
        const [, alias] = imports.find(([, , path]) => path === join(handlersDir, `${route.handler}.ts`))!;
        expect(source, route.path).toContain(`${JSON.stringify(`${route.method} /api${route.path}`)}: ${alias},`);
      }
    }
  });
});
