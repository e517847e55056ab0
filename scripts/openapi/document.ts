/**
 * The OpenAPI 3.1 document of the REST API, built from the route list and the handlers' zod
 * contracts (ADR-0238): paths and methods from functions/http/routes.ts; path
 * and query parameters, request bodies and list queries from each contract, as JSON Schema
 * draft 2020-12 (`z.toJSONSchema`, the dialect OpenAPI 3.1 uses); who may call from the auth mode
 * and the route's `tokenScope`; success statuses from the handler; answers from
 * shared/contracts/api-responses.ts where a schema exists, else any JSON; the error catalogue's
 * body as shared responses. What cannot be documented (no contract, a path parameter without a
 * schema) is returned as a problem and the document is not written.
 */
import { z } from 'zod';
import { answerSchemas, apiErrorBodySchema, routeAnswers } from '#contracts/api-responses.ts';
import { apiTokenScopeLabels } from '#contracts/api-tokens.ts';
import { errorTexts, errorTitles } from '#contracts/errors.ts';
import { listQuerySchema, whereSchema } from '#contracts/list-query-schema.ts';
import { apiTokenLimit } from '#domain/api-tokens/api-token-calls.ts';
import type { HttpRoute } from '#functions/http/routes.ts';
import { codeSamples, exampleBodies, exampleListQueries, exampleOf } from './code-samples.ts';
import type { RouteContract } from './route-contracts.ts';
import { areaLabels, authLabels, documentTitle, introduction, summaries } from './texts.ts';

type Json = Record<string, any>;

export interface OpenApiBuild {
  document: Json;
  /** Why a route could not be documented; the document is only written without any. */
  problems: string[];
}

export const routeKey = (route: Pick<HttpRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** The area of a route: its handler's folder, or the inbound webhooks for handlers outside functions/http. */
export function areaOf(route: HttpRoute): string {
  if (route.handler.startsWith('../')) return 'inbound-webhooks';
  const slash = route.handler.indexOf('/');
  return slash === -1 ? route.handler : route.handler.slice(0, slash);
}

const errorResponses = {
  400: ['BadRequest', errorTitles.badRequest, errorTexts.invalidParams, 'Dados inválidos: `details` diz o campo e o motivo.'],
  401: ['Unauthorized', errorTitles.unauthorized, errorTexts.unauthorized, 'Token ausente, inválido, expirado ou revogado.'],
  402: ['PaymentRequired', errorTitles.paymentRequired, errorTexts.contactOrUserLimit, 'Limite do plano atingido.'],
  403: ['Forbidden', errorTitles.forbidden, errorTexts.forbidden, 'Sem permissão: o papel do usuário ou a permissão do token não bastam.'],
  404: ['NotFound', errorTitles.notFound, errorTexts.notFound, 'Não encontrado (também para ids de outra conta).'],
  409: ['Conflict', errorTitles.conflict, errorTexts.conversationTaken, 'Conflito com o estado atual.'],
  429: ['TooManyRequests', errorTitles.tooManyRequests, errorTexts.tooManyAttempts, 'Muitas requisições: aguarde e tente de novo.'],
  500: ['InternalServerError', errorTitles.internal, errorTexts.internal, 'Erro interno (os detalhes ficam só nos registros do servidor).'],
  503: ['ServiceUnavailable', errorTitles.unavailable, errorTexts.paymentsNotConfigured, 'Um serviço externo não está disponível.'],
} as const;
type ErrorStatus = keyof typeof errorResponses;

const errorRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/${errorResponses[status][0]}` });

/** Input schemas several requests share, as components of their own: a list query's `where` is also a segment's. */
const inputRegistry = z.registry<{ id: string }>();
inputRegistry.add(whereSchema, { id: 'Where' });
const inputNames = new Set(['Where']);

/** Holds the component schemas and turns zod schemas into JSON Schema, moving recursive parts into components. */
class SchemaConverter {
  readonly components: Json = {};

  constructor() {
    const registry = z.registry<{ id: string }>();
    registry.add(apiErrorBodySchema, { id: 'ErrorBody' });
    for (const [name, schema] of Object.entries(answerSchemas)) registry.add(schema, { id: name });
    const { schemas } = z.toJSONSchema(registry, { io: 'output', target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
    // An answer's fields are all there: the defaults the realtime schemas fill for old stored items say nothing to a reader.
    for (const [name, schema] of Object.entries(schemas)) this.components[name] = withoutDefaults(this.clean(schema as Json, name));
    this.components.ListQuery = this.input(listQuerySchema, 'ListQuery');
  }

  /** The schema a request accepts (zod's input side: defaults make fields optional). */
  input(schema: z.ZodType, name: string): Json {
    return this.clean(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any', metadata: inputRegistry }) as Json, name);
  }

  /** Without `$schema`/`$id`; local `$defs` (recursive schemas) become components named after their owner. */
  private clean(schema: Json, owner: string): Json {
    const { $schema: _schema, $id: _id, $defs, ...rest } = schema;
    const renamed = new Map<string, string>();
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [key, key === '$ref' && renamed.has(inner as string) ? renamed.get(inner as string) : rewrite(inner)]),
      );
    };
    // Named definitions (`inputNames`) are shared components; others are named after their owner.
    const defs = Object.entries<Json>($defs ?? {}).map(([name, def]) => [name, def, inputNames.has(name) ? name : `${owner}_${name}`] as const);
    for (const [name, , component] of defs) renamed.set(`#/$defs/${name}`, `#/components/schemas/${component}`);
    for (const [, def, component] of defs) this.components[component] = rewrite(def);
    // A root that refers to itself ("#") is a component too.
    if (JSON.stringify(rest).includes('"$ref":"#"')) {
      renamed.set('#', `#/components/schemas/${owner}`);
      this.components[owner] = rewrite(rest);
      return { $ref: `#/components/schemas/${owner}` };
    }
    return rewrite(rest) as Json;
  }
}

function withoutDefaults(value: any): any {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, inner]) => (key === 'default' ? [] : [[key, withoutDefaults(inner)]])));
}

function operationIdOf(route: HttpRoute, taken: Set<string>): string {
  const camel = (text: string) => text.replace(/[-/.]+(\w)/g, (_, c: string) => c.toUpperCase());
  const base = camel(
    route.handler
      .replace(/^\.\.\//, '')
      .split('/')
      .pop() ?? route.handler,
  );
  const id = taken.has(base) ? camel(route.handler.replace(/^\.\.\//, '')) : base;
  taken.add(id);
  return id;
}

/** Path and query parameters from the contract's `params` and `query` object schemas. */
function parametersOf(
  route: HttpRoute,
  contract: NonNullable<RouteContract['contract']>,
  converter: SchemaConverter,
  operationId: string,
  problems: string[],
): Json[] {
  const parameters: Json[] = [];
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const params = contract.params ? converter.input(contract.params, `${operationId}Params`) : undefined;
  for (const name of pathNames) {
    const schema = params?.properties?.[name];
    if (!schema) problems.push(`${routeKey(route)}: the path parameter {${name}} has no schema in the handler's contract (api({ params }))`);
    parameters.push({ name, in: 'path', required: true, schema: schema ?? {} });
  }
  if (contract.query) {
    const query = converter.input(contract.query, `${operationId}Query`);
    for (const [name, schema] of Object.entries<Json>(query.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: (query.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  }
  if (contract.list) {
    const { fields, includes = [], cursor } = contract.list;
    const lines = [
      'A consulta da lista em JSON: `{ where, include, order, page, perPage, withCount, after }`.',
      `Campos em \`where\` e \`order\`: ${fields.map((f) => `\`${f}\``).join(', ')}.`,
      includes.length ? `Relações em \`include\`: ${includes.map((i) => `\`${i}\``).join(', ')}.` : '',
      cursor ? 'Pagina por cursor: envie em `after` o `nextCursor` da resposta anterior (com `page` 0).' : '',
    ].filter(Boolean);
    parameters.push({
      name: 'query',
      in: 'query',
      required: false,
      description: lines.join(' '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ListQuery' } } },
      'x-list-fields': fields,
      ...(includes.length ? { 'x-list-includes': includes } : {}),
    });
  }
  return parameters;
}

function operationOf(entry: RouteContract, converter: SchemaConverter, taken: Set<string>, problems: string[]): Json | undefined {
  const { route, contract, statuses } = entry;
  const key = routeKey(route);
  if (!contract) {
    problems.push(`${key}: the handler (functions/http/${route.handler}.ts) is not built with api(), so it declares no contract`);
    return undefined;
  }
  const operationId = operationIdOf(route, taken);
  const scope = route.tokenScope;
  const parameters = parametersOf(route, contract, converter, operationId, problems);
  const body = contract.body ? converter.input(contract.body, `${operationId}Body`) : undefined;
  const answer = routeAnswers[key];
  if (scope && !answer && statuses.some((s) => s !== 204))
    problems.push(`${key}: a route an API token can call needs its answer's schema in routeAnswers (shared/contracts/api-responses.ts)`);

  const responses: Json = {};
  for (const status of statuses) {
    if (status === 204) responses[status] = { description: 'Sem conteúdo.' };
    else
      responses[status] = {
        description: answer ? `\`${answer}\`` : 'Resposta JSON (sem esquema publicado nesta referência).',
        content: { 'application/json': { schema: answer ? { $ref: `#/components/schemas/${answer}` } : {} } },
      };
  }
  const errors: ErrorStatus[] = [];
  if (body || contract.params || contract.query || contract.list || contract.rawBody) errors.push(400);
  if (contract.auth !== 'public') errors.push(401, 403);
  if (route.path.includes('{')) errors.push(404);
  if (scope || route.path.startsWith('/auth/')) errors.push(429);
  errors.push(500);
  for (const status of errors) responses[status] = errorRef(status);

  const who: string[] = [authLabels[contract.auth]];
  if (scope) who.push(`Token de API com a permissão \`${scope}\` (${apiTokenScopeLabels[scope]}).`);
  else if (contract.auth !== 'public') who.push('Não aceita token de API.');

  const operation: Json = {
    operationId,
    summary: summaries[key] ?? key,
    description: who.join(' '),
    tags: [areaLabels[areaOf(route)] ?? areaOf(route)],
    security: contract.auth === 'public' ? [] : [{ sessionToken: [] }, ...(scope ? [{ apiToken: [scope] }] : [])],
    'x-auth': contract.auth,
    ...(scope ? { 'x-token-scope': scope } : {}),
    ...(parameters.length ? { parameters } : {}),
  };
  if (body) operation.requestBody = { required: !contract.body?.safeParse({}).success, content: { 'application/json': { schema: body } } };
  if (contract.rawBody)
    operation.requestBody = {
      required: true,
      description: 'O corpo bruto, verificado pela assinatura do remetente antes de ser lido.',
      content: { 'application/json': { schema: {} } },
    };
  operation.responses = responses;
  if (scope) {
    // The examples sit on the body's and the list query's media types too, where the test parses them.
    const exampleBody = body ? (exampleBodies[key] ?? exampleOf(body)) : undefined;
    const listQuery = contract.list ? (exampleListQueries[key] ?? { perPage: 20 }) : undefined;
    if (body) operation.requestBody.content['application/json'].example = exampleBody;
    const queryParameter = parameters.find((p) => p.name === 'query' && p.content);
    if (queryParameter) queryParameter.content['application/json'].example = listQuery;
    operation['x-codeSamples'] = codeSamples(route.method, route.path, { body: exampleBody, listQuery, answersJson: !statuses.includes(204) });
  }
  return operation;
}

export function buildOpenApiDocument(entries: readonly RouteContract[], version: string): OpenApiBuild {
  const problems: string[] = [];
  const converter = new SchemaConverter();
  const taken = new Set<string>();
  const paths: Json = {};
  const byArea = [...entries].sort((a, b) => areaRank(areaOf(a.route)) - areaRank(areaOf(b.route)));
  for (const entry of byArea) {
    const operation = operationOf(entry, converter, taken, problems);
    if (!operation) continue;
    paths[entry.route.path] ??= {};
    paths[entry.route.path][entry.route.method.toLowerCase()] = operation;
  }
  const areas = [...new Set(byArea.map((e) => areaOf(e.route)))];
  const document = {
    openapi: '3.1.0',
    info: { title: documentTitle, version, description: introduction },
    servers: [{ url: '/api', description: 'O endereço em que você acessa o Conversa, seguido de /api.' }],
    tags: areas.map((area) => ({ name: areaLabels[area] ?? area })),
    paths,
    components: {
      securitySchemes: {
        sessionToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'O token de acesso de uma sessão do app (`accessToken` de POST /auth/login).',
        },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description: `Um token de API criado em Tokens de API, com as permissões que a rota pede (\`x-token-scope\`). Até ${apiTokenLimit.max} chamadas a cada ${apiTokenLimit.windowSeconds} s por token; acima disso, 429 com o cabeçalho \`Retry-After\`.`,
          'x-scopes': apiTokenScopeLabels,
          'x-rate-limit': { calls: apiTokenLimit.max, windowSeconds: apiTokenLimit.windowSeconds },
        },
      },
      schemas: converter.components,
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, [name, error, message, description]]) => [
          name,
          {
            description,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/ErrorBody' },
                example: { statusCode: Number(status), error, message },
              },
            },
          },
        ]),
      ),
    },
  };
  return { document, problems };
}

const areaOrder = Object.keys(areaLabels);
/** Areas in the order of `areaLabels`; unknown ones last. */
function areaRank(area: string): number {
  const rank = areaOrder.indexOf(area);
  return rank === -1 ? areaOrder.length : rank;
}
