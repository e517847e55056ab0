/**
 * The OpenAPI 3.1 document (ADR-0238), generated from functions/http/routes.ts
 * and the handlers' zod contracts: it validates against the OpenAPI 3.1 schema, names exactly the
 * served routes with their methods, documents every route (a handler without a contract, or a path
 * parameter without a schema, fails here), gives the routes an API token can call their scope, an
 * answer schema and examples the handler would accept, and the committed copy the site serves is
 * the one the code generates now (else: `npm run openapi`).
 */
import { isDeepStrictEqual } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeAnswers } from '#contracts/api-responses.ts';
import { httpRoutes } from '#functions/http/routes.ts';
import { parseListQuery } from '#domain/list-query.ts';
import { codeSamples } from '../../scripts/openapi/code-samples.ts';
import { packageVersion, readDocument } from '../../scripts/openapi/document-file.ts';
import { buildOpenApiDocument, type OpenApiBuild, routeKey } from '../../scripts/openapi/document.ts';
import { type RouteContract, readRouteContracts, successStatuses } from '../../scripts/openapi/route-contracts.ts';

let entries: RouteContract[];
let built: OpenApiBuild;
const methods = ['get', 'post', 'put', 'delete', 'patch'];

beforeAll(async () => {
  entries = await readRouteContracts(httpRoutes);
  built = buildOpenApiDocument(entries, await packageVersion());
});

const operations = () =>
  Object.entries<Record<string, any>>(built.document.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([method]) => methods.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );

describe('the OpenAPI document', () => {
  it('documents every route: each handler declares its contract and a schema for every path parameter', () => {
    expect(built.problems).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(built.document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names exactly the served routes, each with its method', () => {
    const documented = operations()
      .map((o) => o.key)
      .sort();
    expect(documented).toEqual(httpRoutes.map(routeKey).sort());
  });

  it('resolves every $ref it holds', () => {
    const refs = [...JSON.stringify(built.document).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1] as string);
    const missing = refs.filter((ref) => {
      const target = ref
        .slice(2)
        .split('/')
        .reduce<any>((node, part) => node?.[part], built.document);
      return target === undefined;
    });
    expect(missing).toEqual([]);
  });

  it('gives the routes an API token can call their scope, an answer schema and curl and fetch examples', () => {
    const tokenRoutes = httpRoutes.filter((route) => route.tokenScope);
    for (const route of tokenRoutes) {
      const operation = built.document.paths[route.path][route.method.toLowerCase()];
      expect(operation['x-token-scope'], routeKey(route)).toBe(route.tokenScope);
      expect(operation.security, routeKey(route)).toContainEqual({ apiToken: [route.tokenScope] });
      expect(operation.description, routeKey(route)).toContain(`\`${route.tokenScope}\``);
      expect(operation['x-codeSamples'].map((s: { label: string }) => s.label)).toEqual(['curl', 'JavaScript (fetch)']);
      const success = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      if (!success.every((status) => status === '204')) expect(routeAnswers[routeKey(route)], routeKey(route)).toBeDefined();
    }
    const untokened = operations().filter(({ key }) => !tokenRoutes.some((route) => routeKey(route) === key));
    for (const { key, operation } of untokened) {
      expect(operation['x-token-scope'], key).toBeUndefined();
      expect(JSON.stringify(operation.security ?? []), key).not.toContain('apiToken');
    }
  });

  it("has examples the routes' schemas accept", () => {
    for (const { route, contract } of entries.filter((e) => e.route.tokenScope)) {
      const key = routeKey(route);
      const operation = built.document.paths[route.path][route.method.toLowerCase()];
      if (contract?.body) {
        const parsed = contract.body.safeParse(operation.requestBody.content['application/json'].example);
        expect(parsed.error?.issues ?? [], key).toEqual([]);
      }
      if (contract?.list) {
        const example = operation.parameters.find((p: { name: string }) => p.name === 'query').content['application/json'].example;
        expect(() => parseListQuery(JSON.stringify(example), contract.list!), key).not.toThrow();
      }
    }
  });

  it('is the committed document the site serves (else run `npm run openapi`)', async () => {
    const committed = await readDocument();
    expect(isDeepStrictEqual(committed, built.document), 'web/src/features/marketing/api-reference/openapi.json is stale: run `npm run openapi`').toBe(true);
  });
});

describe('what the document is built from', () => {
  const route = { method: 'GET', path: '/things/{id}', handler: 'things/get-thing' } as const;

  it('refuses a route whose handler declares no contract', () => {
    const { problems } = buildOpenApiDocument([{ route, contract: undefined, statuses: [200] }], '0');
    expect(problems).toEqual(['GET /things/{id}: the handler (functions/http/things/get-thing.ts) is not built with api(), so it declares no contract']);
  });

  it('refuses a path parameter without a schema', () => {
    const { problems } = buildOpenApiDocument([{ route, contract: { auth: 'member' }, statuses: [200] }], '0');
    expect(problems).toEqual(["GET /things/{id}: the path parameter {id} has no schema in the handler's contract (api({ params }))"]);
  });

  it('refuses a token route without an answer schema', () => {
    const tokenRoute = { method: 'GET', path: '/things', handler: 'things/list-things', tokenScope: 'contacts:read' } as const;
    const { problems } = buildOpenApiDocument([{ route: tokenRoute, contract: { auth: 'member' }, statuses: [200] }], '0');
    expect(problems).toEqual(["GET /things: a route an API token can call needs its answer's schema in routeAnswers (shared/contracts/api-responses.ts)"]);
  });

  it("reads a handler's success statuses from the response helpers it imports", () => {
    expect(successStatuses("import { created } from '#lib/responses.ts';")).toEqual([201]);
    expect(successStatuses("import { noContent, ok } from '#lib/responses.ts';")).toEqual([200, 204]);
    expect(successStatuses("import { api } from '#lib/api.ts';")).toEqual([200]);
  });

  it('writes curl and fetch with the token from the environment, the list query encoded and the body as JSON', () => {
    const [curl, fetchSample] = codeSamples('POST', '/contacts/{id}/things', { body: { a: 1 }, listQuery: undefined, answersJson: true });
    expect(curl?.source).toBe(
      'curl -X POST "$CONVERSA_URL/api/contacts/01JD5Z8X9K2M4N6P8Q0R2S4T6V/things" \\\n  -H "Authorization: Bearer $CONVERSA_TOKEN" \\\n  -H "Content-Type: application/json" \\\n  -d \'{"a":1}\'',
    );
    expect(fetchSample?.source).toContain("method: 'POST'");
    expect(fetchSample?.source).toContain('body: JSON.stringify({\n    "a": 1\n  }),');
    const [listCurl] = codeSamples('GET', '/contacts', { body: undefined, listQuery: { perPage: 20 }, answersJson: true });
    expect(listCurl?.source).toBe(
      'curl -G "$CONVERSA_URL/api/contacts" \\\n  --data-urlencode \'query={"perPage":20}\' \\\n  -H "Authorization: Bearer $CONVERSA_TOKEN"',
    );
  });
});
