import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { routeTable } from './route-table.ts';

const event = (routeKey: string) => ({ routeKey, rawPath: '/api/x', headers: {} }) as unknown as APIGatewayProxyEventV2;
const context = {} as Context;

describe('routeTable', () => {
  const handler = routeTable({
    'GET /api/contacts': async () => ({ statusCode: 200, body: 'list' }),
    'POST /api/contacts': async (e) => ({ statusCode: 201, body: e.routeKey }),
  });

  it('runs the handler of the route API Gateway matched, with its event', async () => {
    expect(await handler(event('GET /api/contacts'), context)).toEqual({ statusCode: 200, body: 'list' });
    expect(await handler(event('POST /api/contacts'), context)).toEqual({ statusCode: 201, body: 'POST /api/contacts' });
  });

  it('answers a route it does not serve with the catalogue 404, never with an inherited property', async () => {
    for (const key of ['DELETE /api/contacts', 'constructor', '__proto__']) {
      const answer = await handler(event(key), context);
      expect(answer.statusCode, key).toBe(404);
      expect(JSON.parse(String(answer.body))).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    }
  });
});
