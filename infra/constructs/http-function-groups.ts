/**
 * How the route list's handler modules are packed into Lambda functions (the layouts
 * `npm run bench:layout` compares, ADR-0202), and the entry module a
 * function serving several routes is bundled from. Everything is derived from
 * `functions/http/routes.ts` and the rules that grant rights; no second list of routes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpRoute } from '#functions/http/routes.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';

/**
 * - `per-handler`: one function per handler module (the layout until 2026-11-27, ADR-0002);
 * - `one`: one function for every route;
 * - `by-area`: one function per handler folder (`auth`, `contacts`, ...);
 * - `auth-reads-writes`: sign-in and session routes, the other GETs, everything else;
 * - `by-rights`: one function per set of rights (the stack's layout): the routes that read the
 *   Stripe secrets, the routes that send to the channel worker's queue, and the rest.
 */
export type HttpLayout = 'per-handler' | 'one' | 'by-area' | 'auth-reads-writes' | 'by-rights';
export const httpLayouts: readonly HttpLayout[] = ['per-handler', 'one', 'by-area', 'auth-reads-writes', 'by-rights'];

/**
 * Payment routes served from the table, not from Stripe: the product for sale, which a scheduled
 * function copies from Stripe (ADR-0228), so the `api` function answers it and a user's first
 * minute meets no cold start of the `payments` function.
 */
const paymentRoutesFromTheTable = new Set(['payments/list-products']);

/** Handlers that read the Stripe secrets: the payment routes (but those above) and Stripe's webhook. */
export function isPaymentHandler(handler: string): boolean {
  return (handler.startsWith('payments/') && !paymentRoutesFromTheTable.has(handler)) || handler === '../webhooks/stripe';
}

/**
 * The `by-rights` group of a handler: `payments` (the Stripe secrets), `channel-control` (sends to
 * the channel worker's queue: `workerQueue.routeProducers`) or `api` (the rights every route has:
 * the table, the bucket, the JWT and data keys, the origin secret, SES). infra/stack.ts grants by
 * the same two rules, so no route gets a right it did not have in a function of its own.
 */
function rightsGroupOf(handler: string): 'api' | 'payments' | 'channel-control' {
  if (isPaymentHandler(handler)) return 'payments';
  if (workerQueue.routeProducers.includes(handler)) return 'channel-control';
  return 'api';
}

const areaOf = (handler: string) =>
  handler
    .split('/')
    .slice(0, -1)
    .join('/')
    .replace(/^\.\.\//, '') || 'root';

/** The function a route belongs to in a layout. */
export function functionOf(layout: HttpLayout, route: HttpRoute): string {
  switch (layout) {
    case 'per-handler':
      return route.handler;
    case 'one':
      return 'http';
    case 'by-area':
      return areaOf(route.handler);
    case 'auth-reads-writes':
      return route.handler.startsWith('auth/') ? 'auth' : route.method === 'GET' ? 'reads' : 'writes';
    case 'by-rights':
      return rightsGroupOf(route.handler);
  }
}

/** The layout the stack builds (infra/constructs/http-api.ts). */
export const stackLayout: HttpLayout = 'by-rights';

/** The description of the stack's function serving a handler module: `http/<group>` (`http/api`). */
export function httpFunctionDescription(handler: string): string {
  return `http/${rightsGroupOf(handler)}`;
}

/** The layout's functions in route-list order, each with its routes. */
export function groupRoutes(layout: HttpLayout, routes: readonly HttpRoute[]): Map<string, HttpRoute[]> {
  const groups = new Map<string, HttpRoute[]>();
  for (const route of routes) {
    const name = functionOf(layout, route);
    groups.set(name, [...(groups.get(name) ?? []), route]);
  }
  return groups;
}

/** The key API Gateway puts in `event.routeKey` for a route mounted under `prefix`. */
export const routeKeyOf = (route: HttpRoute, prefix: string) => `${route.method} ${prefix}${route.path}`;

/**
 * The entry module of a function serving several routes: each route's handler module imported as
 * it is, in a table keyed by route (`functions/lib/route-table.ts`). Paths are absolute, so the
 * module can live outside the source tree.
 */
export function groupEntrySource(routes: readonly HttpRoute[], handlersDir: string, prefix: string): string {
  const modules = [...new Set(routes.map((route) => route.handler))];
  const imports = modules.map((handler, i) => `import { handler as h${i} } from ${JSON.stringify(join(handlersDir, `${handler}.ts`))};`);
  const table = routes.map((route) => `  ${JSON.stringify(routeKeyOf(route, prefix))}: h${modules.indexOf(route.handler)},`);
  return [
    '// Generated from functions/http/routes.ts by infra/constructs/http-function-groups.ts; not edited by hand.',
    `import { routeTable } from ${JSON.stringify(join(handlersDir, '..', 'lib', 'route-table.ts'))};`,
    ...imports,
    `export const handler = routeTable({\n${table.join('\n')}\n});`,
    '',
  ].join('\n');
}

/** Writes (when changed) the entry of group `name` under `dir` and returns its path. */
export function writeGroupEntry(dir: string, name: string, source: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.ts`);
  if (!existsSync(path) || readFileSync(path, 'utf8') !== source) writeFileSync(path, source);
  return path;
}
