import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { batchRefusalTexts, unbatchablePrefixes } from '#contracts/batch.ts';
import { httpRoutes } from '#functions/http/routes.ts';
import { functionOf, stackLayout } from '../../infra/constructs/http-function-groups.ts';
import { batchRoute, readBatch } from './read-batch.ts';
import { routeTable } from './route-table.ts';

const context = { functionName: 'http-api' } as Context;
const batchEvent = {
  routeKey: 'POST /api/batch',
  rawPath: '/api/batch',
  headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'accept-encoding': 'br', 'x-origin-verify': 's' },
  body: '{}',
  isBase64Encoded: false,
  requestContext: { requestId: 'r1', routeKey: 'POST /api/batch', http: { method: 'POST', path: '/api/batch', sourceIp: '198.51.100.7' } },
} as unknown as APIGatewayProxyEventV2;

describe('the read batch', () => {
  it("the web client's unbatchable paths are exactly the GETs of another function than the batch's", () => {
    const batchGroup = functionOf(stackLayout, batchRoute);
    for (const route of httpRoutes.filter((r) => r.method === 'GET')) {
      const elsewhere = functionOf(stackLayout, route) !== batchGroup;
      expect(
        unbatchablePrefixes.some((prefix) => route.path.startsWith(prefix)),
        route.path,
      ).toBe(elsewhere);
    }
  });

  it("runs each GET through this process's route table with the event API Gateway would build for it alone", async () => {
    const seen: APIGatewayProxyEventV2[] = [];
    routeTable({
      'GET /api/contacts/{id}': async (event) => {
        seen.push(event);
        return { statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"statusCode":404}' };
      },
      'GET /api/tags': async (event) => {
        seen.push(event);
        return { statusCode: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '{"data":[]}' };
      },
      'GET /api/users': async () => ({ statusCode: 204 }),
    });
    const answers = await readBatch(batchEvent, context, [
      { path: '/contacts/a%20b' },
      { path: '/tags', query: { query: '{"perPage":5}', x: 'a&b' } },
      { path: '/users' },
    ]);
    expect(answers).toEqual([
      { status: 404, body: { statusCode: 404 } },
      { status: 200, body: { data: [] } },
      { status: 204, body: null },
    ]);
    const [contact, tags] = seen;
    expect(contact).toMatchObject({ routeKey: 'GET /api/contacts/{id}', rawPath: '/api/contacts/a%20b', pathParameters: { id: 'a b' }, body: undefined });
    expect(contact!.requestContext.http.method).toBe('GET');
    // The caller's headers, not the batch body's nor its compression.
    expect(contact!.headers).toEqual({ authorization: 'Bearer t', 'x-origin-verify': 's' });
    expect(tags).toMatchObject({ queryStringParameters: { query: '{"perPage":5}', x: 'a&b' }, rawQueryString: 'query=%7B%22perPage%22%3A5%7D&x=a%26b' });
  });

  it('refuses another function’s route, a path no GET has, and a failing handler answers as API Gateway would', async () => {
    routeTable({
      'GET /api/tags': async () => {
        throw new Error('boom');
      },
    });
    await expect(readBatch(batchEvent, context, [{ path: '/payments/checkout-session' }, { path: '/batch' }])).rejects.toMatchObject({
      kind: 'invalid',
      details: [
        { path: 'requests.0.path', message: batchRefusalTexts.otherFunction },
        { path: 'requests.1.path', message: batchRefusalTexts.notARoute },
      ],
    });
    expect(await readBatch(batchEvent, context, [{ path: '/tags' }])).toEqual([{ status: 500, body: { message: 'Internal Server Error' } }]);
  });
});
