/**
 * The curl and JavaScript (fetch) examples of the operations an API token can call (ADR-0238), as `x-codeSamples`. Their bodies and list queries are the hand-written ones
 * below, or built from the route's input JSON Schema; tests/unit/openapi-document.test.ts parses
 * every example with the route's zod schema, so an example the handler would refuse fails there.
 */

/** Example ids in the examples' paths and bodies (the shape of the API's ids). */
const exampleIds: Readonly<Record<string, string>> = {
  id: '01JD5Z8X9K2M4N6P8Q0R2S4T6V',
  contactId: '01JD5Z8X9K2M4N6P8Q0R2S4T6V',
  serviceId: '01JD5Z7A1B3C5D7E9F1G3H5J7K',
};
const fallbackId = '01JD5Z9M2N4P6Q8R0S2T4V6W8X';

/** Hand-written request bodies, by `METHOD /path`. */
export const exampleBodies: Readonly<Record<string, unknown>> = {
  'POST /contacts': {
    name: 'Maria Souza',
    serviceId: exampleIds.serviceId,
    data: { email: 'maria@exemplo.com.br', phoneNumber: '5511988887777', phoneCountry: 'BR' },
  },
  'PUT /contacts/{id}': {
    name: 'Maria Souza',
    serviceId: exampleIds.serviceId,
    data: { email: 'maria@exemplo.com.br', phoneNumber: '5511988887777', phoneCountry: 'BR' },
  },
  'POST /webhook-subscriptions': {
    url: 'https://n8n.exemplo.com.br/webhook/conversa',
    description: 'Pedidos no n8n',
    eventTypes: ['message.created', 'contact.created'],
  },
  'PUT /webhook-subscriptions/{id}': {
    url: 'https://n8n.exemplo.com.br/webhook/conversa',
    description: 'Pedidos no n8n',
    eventTypes: ['message.created', 'contact.created', 'contact.updated'],
    enabled: true,
  },
  'POST /files/generate-url-to-upload': {
    name: 'pedido-1234.pdf',
    mimetype: 'application/pdf',
    serviceId: exampleIds.serviceId,
    length: 48213,
    isPtt: false,
  },
  'POST /messages/send': { contactId: exampleIds.contactId, serviceId: exampleIds.serviceId, text: 'Olá, Maria! Seu pedido saiu para entrega.' },
};

/** Hand-written list queries (the `query` parameter's JSON), by `METHOD /path`. */
export const exampleListQueries: Readonly<Record<string, unknown>> = {
  'GET /contacts': { where: { name: { like: '%maria%' } }, perPage: 20 },
  'GET /messages': { where: { contactId: exampleIds.contactId }, perPage: 50 },
};

type JsonSchema = Record<string, any>;

/** A value the schema accepts, for an example: its required properties, the first enum value, the minimum. */
export function exampleOf(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return {};
  if ('default' in schema && schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return exampleOf(variants.find((v: JsonSchema) => v.type !== 'null') ?? variants[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties: Record<string, JsonSchema> = schema.properties ?? {};
      const required: string[] = schema.required ?? [];
      return Object.fromEntries(required.map((key) => [key, exampleOf(properties[key], key)]));
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleOf(schema.items, name));
    case 'string':
      if (schema.format === 'email') return 'maria@exemplo.com.br';
      if (/id$/i.test(name)) return exampleIds[name] ?? fallbackId;
      return 'texto';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** The path with its `{param}` segments filled with example ids. */
export function examplePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => exampleIds[name] ?? fallbackId);
}

export interface CodeSample {
  lang: 'Shell' | 'JavaScript';
  label: string;
  source: string;
}

/**
 * curl and fetch for one call: the base address and the token come from the environment
 * (`CONVERSA_URL`, `CONVERSA_TOKEN`), the list query URL-encoded, the body as JSON.
 */
export function codeSamples(method: string, path: string, example: { body: unknown; listQuery: unknown; answersJson: boolean }): CodeSample[] {
  const { body, listQuery } = example;
  const url = `$CONVERSA_URL/api${examplePath(path)}`;
  const json = body === undefined ? undefined : JSON.stringify(body);
  const curl = [`curl -X ${method} "${url}"`, '  -H "Authorization: Bearer $CONVERSA_TOKEN"'];
  if (listQuery !== undefined) curl.splice(0, 1, `curl -G "${url}"`, `  --data-urlencode 'query=${JSON.stringify(listQuery)}'`);
  if (json !== undefined) curl.push('  -H "Content-Type: application/json"', `  -d '${json}'`);
  const search = listQuery === undefined ? '' : `?query=\${encodeURIComponent(JSON.stringify(${JSON.stringify(listQuery)}))}`;
  const init = [`  method: '${method}',`, '  headers: {', `    Authorization: \`Bearer \${process.env.CONVERSA_TOKEN}\`,`];
  if (json !== undefined) init.push("    'Content-Type': 'application/json',");
  init.push('  },');
  if (json !== undefined) init.push(`  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`);
  const fetchSource = [
    `const response = await fetch(\`\${process.env.CONVERSA_URL}/api${examplePath(path)}${search}\`, {`,
    ...init,
    '});',
    `if (!response.ok) throw new Error(\`\${response.status}: \${(await response.json()).message}\`);`,
    ...(example.answersJson ? ['const answer = await response.json();'] : []),
  ].join('\n');
  return [
    { lang: 'Shell', label: 'curl', source: curl.join(' \\\n') },
    { lang: 'JavaScript', label: 'JavaScript (fetch)', source: fetchSource },
  ];
}
