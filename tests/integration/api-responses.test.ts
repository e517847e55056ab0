/**
 * The answer schemas the OpenAPI document publishes (shared/contracts/api-responses.ts, ADR-0238) against real answers of the local runtime, called with an API token holding
 * every scope: each route an API token can call is called here, answers the success status the
 * document gives it, and its body is exactly what its schema describes (no field missing, none
 * undocumented). A new token route, or a schema in `routeAnswers`, that this file does not call fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { answerSchemas, routeAnswers } from '#contracts/api-responses.ts';
import { apiTokenScopes } from '#contracts/api-tokens.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { httpRoutes } from '#functions/http/routes.ts';
import openApi from '../../web/src/features/marketing/api-reference/openapi.json' with { type: 'json' };
import { type Answer, call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';

type Team = Awaited<ReturnType<typeof inboxTeam>>;
let team: Team;
let secret: string;
const checked = new Set<string>();

beforeAll(async () => {
  team = await inboxTeam();
  const made = await call('POST', '/api-tokens', { token: team.owner.token, body: { name: 'Referência da API', scopes: [...apiTokenScopes] } });
  expect(made.status).toBe(201);
  secret = made.body.secret;
});

/** Calls a route with the token and checks the answer against the document and the route's schema. */
async function check(routeKey: string, path: string, body?: unknown): Promise<Answer> {
  const [method = '', route = ''] = routeKey.split(' ');
  const answer = await call(method, path, { token: secret, ...(body === undefined ? {} : { body }) });
  const documented = Object.keys((openApi.paths as Record<string, Record<string, { responses: object }>>)[route]?.[method.toLowerCase()]?.responses ?? {});
  expect(documented, `${routeKey}: answered ${answer.status} ${JSON.stringify(answer.body)}`).toContain(String(answer.status));
  expect(answer.status, routeKey).toBeLessThan(300);
  const name = routeAnswers[routeKey];
  if (answer.status === 204) expect(name, routeKey).toBeUndefined();
  else {
    expect(name, `${routeKey} has no answer schema`).toBeDefined();
    const parsed = answerSchemas[name as keyof typeof answerSchemas].safeParse(answer.body);
    expect(parsed.error?.issues ?? [], routeKey).toEqual([]);
    // Parsing strips what the schema does not name and fills what the answer left out: equal only when neither happened.
    expect(parsed.data, routeKey).toEqual(answer.body);
  }
  checked.add(routeKey);
  return answer;
}

describe('the answer schemas of the routes an API token can call', () => {
  it('describe the contacts, messages and upload answers exactly', async () => {
    const { contact, service } = team;
    await check('GET /contacts', '/contacts');
    await check('GET /contacts', `/contacts${listQueryString({ where: { name: { like: '%cliente%' } }, perPage: 5 })}`);
    const made = await check('POST /contacts', '/contacts', {
      name: 'Maria Souza',
      serviceId: service.id,
      data: { email: 'maria@exemplo.com.br', phoneNumber: `55119${String(Date.now() % 1e8).padStart(8, '0')}`, phoneCountry: 'BR' },
    });
    await check('GET /contacts/{id}', `/contacts/${made.body.id}`);
    await check('PUT /contacts/{id}', `/contacts/${made.body.id}`, { name: 'Maria S. Souza', serviceId: service.id, data: made.body.data });
    await check('POST /messages/send', '/messages/send', { contactId: contact.id, serviceId: service.id, text: 'Olá! Seu pedido saiu para entrega.' });
    await check('GET /messages', `/messages${listQueryString({ where: { contactId: contact.id } })}`);
    await check('POST /files/generate-url-to-upload', '/files/generate-url-to-upload', {
      name: 'pedido.pdf',
      mimetype: 'application/pdf',
      serviceId: service.id,
      length: 1000,
    });
    await check('DELETE /contacts/{id}', `/contacts/${made.body.id}`);
  });

  it('describe the webhook subscriptions and their deliveries exactly', async () => {
    // A closed port on loopback: the test event's one attempt is refused at once, whether loopback is allowed or blocked.
    const made = await check('POST /webhook-subscriptions', '/webhook-subscriptions', {
      url: 'http://127.0.0.1:9/conversa',
      description: 'Referência da API',
      eventTypes: ['message.created'],
    });
    const path = `/webhook-subscriptions/${made.body.id}`;
    await check('GET /webhook-subscriptions', '/webhook-subscriptions');
    await check('GET /webhook-subscriptions/{id}', path);
    await check('PUT /webhook-subscriptions/{id}', path, {
      url: 'http://127.0.0.1:9/conversa',
      eventTypes: ['message.created', 'contact.created'],
      enabled: false,
    });
    await check('POST /webhook-subscriptions/{id}/enable', `${path}/enable`);
    await check('POST /webhook-subscriptions/{id}/rotate-secret', `${path}/rotate-secret`);
    await check('POST /webhook-subscriptions/{id}/test', `${path}/test`);
    await check('GET /webhook-subscriptions/{id}/deliveries', `${path}/deliveries`);
    await check('DELETE /webhook-subscriptions/{id}', path);
  });

  it('leave no token route and no published schema unchecked', () => {
    const tokenRoutes = httpRoutes.filter((route) => route.tokenScope).map((route) => `${route.method} ${route.path}`);
    expect([...new Set([...tokenRoutes, ...Object.keys(routeAnswers)])].filter((key) => !checked.has(key)).sort()).toEqual([]);
  });
});
