/**
 * Writes the OpenAPI 3.1 document of the REST API (ADR-0238) to
 * web/src/features/marketing/api-reference/openapi.json, where the reference page (/docs/api)
 * reads it and the web build serves it as /openapi.json. Run after changing a route, a handler's
 * contract or a response schema: `npm run openapi`; tests/unit/openapi-document.test.ts fails while
 * the committed document differs from a fresh one.
 */
import { httpRoutes } from '#functions/http/routes.ts';
import { openApiFile, packageVersion, writeDocument } from './openapi/document-file.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { readRouteContracts } from './openapi/route-contracts.ts';

const { document, problems } = buildOpenApiDocument(await readRouteContracts(httpRoutes), await packageVersion());
if (problems.length) {
  console.error(`openapi: not written, ${problems.length} route(s) cannot be documented:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
await writeDocument(document);
console.log(`openapi: ${Object.keys(document.paths).length} paths written to ${openApiFile.pathname}`);
