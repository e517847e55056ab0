/**
 * The API reference page's reading of the generated OpenAPI document (openapi.json beside this
 * file, written by `npm run openapi`; ADR-0238): operations grouped by area in
 * the document's tag order, token routes first within each, and the schema helpers the page
 * renders JSON Schema with.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | false;
  prefixItems?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema?: JsonSchema;
  content?: Record<string, { schema: JsonSchema; example?: unknown }>;
}

interface MediaType {
  schema: JsonSchema;
  example?: unknown;
}

export interface Response {
  $ref?: string;
  description?: string;
  content?: Record<string, MediaType>;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  'x-auth': 'public' | 'signedIn' | 'member' | 'admin';
  'x-token-scope'?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content: Record<string, MediaType> };
  responses: Record<string, Response>;
  'x-codeSamples'?: CodeSample[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, Response & { content: Record<string, MediaType> }>;
    securitySchemes: Record<string, { description: string }>;
  };
}

export interface ReferenceOperation {
  method: string;
  path: string;
  operation: Operation;
  /** The anchor of its section. */
  anchor: string;
}

export interface ReferenceArea {
  name: string;
  anchor: string;
  operations: ReferenceOperation[];
  /** How many of its operations an API token can call. */
  tokenCount: number;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];

/** A URL fragment from text: lower case, accents dropped, words joined by hyphens. */
export function anchorOf(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The operations by area, in the document's tag order; within an area the token routes first, then as listed. */
export function referenceAreas(document: OpenApiDocument): ReferenceArea[] {
  const byTag = new Map<string, ReferenceOperation[]>(document.tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags[0] ?? '';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)?.push({ method: method.toUpperCase(), path, operation, anchor: anchorOf(operation.operationId) });
    }
  }
  return [...byTag]
    .filter(([, operations]) => operations.length)
    .map(([name, operations]) => {
      const sorted = [...operations].sort((a, b) => Number(!a.operation['x-token-scope']) - Number(!b.operation['x-token-scope']));
      return { name, anchor: `area-${anchorOf(name)}`, operations: sorted, tokenCount: sorted.filter((o) => o.operation['x-token-scope']).length };
    });
}

/** The component a `$ref` names (`#/components/schemas/Contact` → its schema and `Contact`). */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema): { schema: JsonSchema; name?: string } {
  const ref = schema.$ref;
  if (!ref?.startsWith('#/components/schemas/')) return { schema };
  const name = ref.slice('#/components/schemas/'.length);
  const { $ref: _ref, ...rest } = schema;
  return { schema: { ...(document.components.schemas[name] ?? {}), ...rest }, name };
}

/** A shared response a `$ref` names (`#/components/responses/NotFound`). */
export function resolveResponse(document: OpenApiDocument, response: Response): Response {
  const ref = response.$ref;
  if (!ref?.startsWith('#/components/responses/')) return response;
  return document.components.responses[ref.slice('#/components/responses/'.length)] ?? response;
}

const typeNames: Record<string, string> = {
  string: 'texto',
  number: 'número',
  integer: 'inteiro',
  boolean: 'booleano',
  object: 'objeto',
  array: 'lista',
  null: 'null',
};

/** A schema's type in a few words: `texto ou null`, `lista de objeto`, `Contact`. */
export function typeLabel(document: OpenApiDocument, schema: JsonSchema): string {
  if (schema.$ref) return resolveSchema(document, schema).name ?? 'objeto';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((v) => typeLabel(document, v)))].join(' ou ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (!types.length) return schema.properties ? 'objeto' : 'qualquer JSON';
  return types
    .map((type) => {
      if (type === 'array' && schema.prefixItems) return `par [${schema.prefixItems.map((p) => typeLabel(document, p)).join(', ')}]`;
      if (type === 'array' && schema.items) return `lista de ${typeLabel(document, schema.items)}`;
      return typeNames[type] ?? type;
    })
    .join(' ou ');
}

/** The rules a value must follow, in pt-BR: lengths, bounds, formats, allowed values, default. */
export function constraintsOf(schema: JsonSchema): string[] {
  const rules: string[] = [];
  if (schema.enum) rules.push(`um de: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.format) rules.push(`formato ${schema.format}`);
  const characters = (n: number) => `${n} ${n === 1 ? 'caractere' : 'caracteres'}`;
  const items = (n: number) => `${n} ${n === 1 ? 'item' : 'itens'}`;
  if (schema.minLength !== undefined && schema.minLength > 0) rules.push(`mínimo ${characters(schema.minLength)}`);
  if (schema.maxLength !== undefined) rules.push(`máximo ${characters(schema.maxLength)}`);
  if (schema.minimum !== undefined) rules.push(`mínimo ${schema.minimum}`);
  if (schema.maximum !== undefined) rules.push(`máximo ${schema.maximum}`);
  if (schema.minItems !== undefined && schema.minItems > 0) rules.push(`mínimo ${items(schema.minItems)}`);
  if (schema.maxItems !== undefined) rules.push(`máximo ${items(schema.maxItems)}`);
  if (schema.pattern) rules.push(`padrão ${schema.pattern}`);
  if (schema.default !== undefined) rules.push(`padrão: ${JSON.stringify(schema.default)}`);
  return rules;
}

/** The schema whose fields a reader opens: an object's, or an array's items', or the non-null variant's. */
export function fieldsOwner(document: OpenApiDocument, schema: JsonSchema, seen: ReadonlySet<string>): { schema: JsonSchema; name?: string } | undefined {
  const resolved = resolveSchema(document, schema);
  if (resolved.name && seen.has(resolved.name)) return undefined;
  const inner = resolved.schema;
  if (inner.properties && Object.keys(inner.properties).length) return resolved;
  if (inner.items) {
    const items = fieldsOwner(document, inner.items, seen);
    return items && { ...items, name: items.name ?? resolved.name };
  }
  const variants = inner.anyOf ?? inner.oneOf;
  const objects = variants?.filter((v) => v.type !== 'null') ?? [];
  if (objects.length === 1 && objects[0]) return fieldsOwner(document, objects[0], seen);
  return undefined;
}
