/**
 * `api()`'s prefetch: a route's reads that follow from the token's account and the valid body start
 * while the session is checked, reach the handler only once the session holds, and never start for a
 * bad token or a body that fails its schema (whose 400 still comes after the session's 401).
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { keys } from '#db/keys.ts';
import type { Ports, TokenClaims } from '#domain/ports.ts';
import { api } from './api.ts';
import { ok } from './responses.ts';

const claims: TokenClaims = { sub: 'U1', acc: 'A1', jti: 'J1', exp: 4_000_000_000, gen: 0 };
const user = { ...keys.user('A1', 'U1'), id: 'U1', accountId: 'A1', name: 'Ana', email: 'ana@example.com', isAdmin: true, sessionGeneration: 0 };

/** Ports whose session read waits until `release` is called, and records what happened when. */
function fakePorts(revoked = false) {
  const log: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const ports = {
    tokens: { verify: async (token: string) => (token === 'good' ? claims : null) },
    table: {
      name: 'T',
      doc: {
        send: async () => {
          log.push('session read');
          await released;
          log.push('session answered');
          return { Responses: { T: revoked ? [user, keys.revokedToken('J1')] : [user] } };
        },
      },
    },
  } as unknown as Ports;
  return { ports, log, release };
}

const event = (body: unknown, token = 'good') =>
  ({
    version: '2.0',
    routeKey: 'POST /api/test',
    rawPath: '/api/test',
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    requestContext: { requestId: 'apigw-1', http: { method: 'POST', path: '/api/test', sourceIp: '127.0.0.1' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;
const context = { awsRequestId: 'lambda-1', functionName: 'conversa-test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const payload = z.object({ contactId: z.string().min(1) });

function route(
  ports: Ports,
  log: string[],
  prefetch = vi.fn(async (_ports: Ports, accountId: string, body: { contactId: string }) => `${accountId}/${body.contactId}`),
) {
  const handler = vi.fn(async ({ prefetched }: { prefetched: Promise<string> | undefined }) => {
    log.push('handler');
    return ok({ read: await prefetched });
  });
  const wrapped = api({
    auth: 'member',
    body: payload,
    prefetch: (p, accountId, body) => {
      log.push('prefetch');
      return prefetch(p, accountId, body);
    },
    ports: () => ports,
  }).handler(handler);
  return { wrapped, handler, prefetch };
}

describe('api() prefetch', () => {
  it('starts the reads while the session is checked and hands them to the handler once it holds', async () => {
    const { ports, log, release } = fakePorts();
    const { wrapped, prefetch } = route(ports, log);
    const answer = wrapped(event({ contactId: 'C1' }), context);
    await vi.waitFor(() => expect(log).toEqual(['prefetch', 'session read']));
    release();
    const result = await answer;
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toEqual({ read: 'A1/C1' });
    expect(log).toEqual(['prefetch', 'session read', 'session answered', 'handler']);
    expect(prefetch).toHaveBeenCalledWith(ports, 'A1', { contactId: 'C1' });
  });

  it('gives nothing read to a revoked session (401), and a failed read then is no unhandled rejection', async () => {
    const { ports, log, release } = fakePorts(true);
    const { wrapped, handler } = route(
      ports,
      log,
      vi.fn(async () => Promise.reject(new Error('lida e descartada'))),
    );
    release();
    const result = await wrapped(event({ contactId: 'C1' }), context);
    expect(result.statusCode).toBe(401);
    expect(handler).not.toHaveBeenCalled();
    expect(log).toEqual(['prefetch', 'session read', 'session answered']);
  });

  it('starts nothing for a bad token (401) or a body that fails its schema (400, after the session)', async () => {
    const bad = fakePorts();
    const first = route(bad.ports, bad.log);
    expect((await first.wrapped(event({ contactId: 'C1' }, 'forged'), context)).statusCode).toBe(401);
    expect(bad.log).toEqual([]);

    const invalid = fakePorts();
    const second = route(invalid.ports, invalid.log);
    invalid.release();
    expect((await second.wrapped(event({ contactId: '' }), context)).statusCode).toBe(400);
    expect(invalid.log).toEqual(['session read', 'session answered']);
    expect(second.prefetch).not.toHaveBeenCalled();
  });
});
