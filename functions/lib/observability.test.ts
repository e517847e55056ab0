/**
 * The observability middlewares as handlers run them: JSON logs with the request ids and, once the
 * caller is authenticated, the tenant's ids, which never outlive the invocation; metrics flushed
 * once per invocation; HTTP errors rendered exactly as before.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ports } from '#domain/ports.ts';
import { keys } from '#db/keys.ts';

// Powertools reads its settings when the instances are made: dev mode writes through the global
// console (which the test watches), and metrics are published even so.
vi.stubEnv('POWERTOOLS_DEV', 'true');
vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
const { api } = await import('./api.ts');
const { count, logger, metrics, observed } = await import('./observability.ts');
const { MetricUnit } = await import('@aws-lambda-powertools/metrics');
const { ok } = await import('./responses.ts');
const { fail } = await import('#domain/errors.ts');

const accountA = 'ACCOUNT-A';
const userA = 'USER-A';

/** Just enough ports for a session: the token names account A's user, who exists and is not revoked. */
function sessionPorts(): Ports {
  const user = {
    ...keys.user(accountA, userA),
    type: 'User',
    id: userA,
    accountId: accountA,
    name: 'Ana',
    email: 'ana@example.com',
    isAdmin: true,
    archivedAt: null,
  };
  // The session reads the token's revocation and its user in one BatchGetItem: answer it as DynamoDB does.
  const doc = {
    send: async (command: { input: { RequestItems: Record<string, { Keys: { pk: string; sk: string }[] }> } }) => {
      const Responses = Object.fromEntries(
        Object.entries(command.input.RequestItems).map(([table, { Keys }]) => [
          table,
          Keys.filter((key) => key.pk === user.pk && key.sk === user.sk).map(() => user),
        ]),
      );
      return { Responses, UnprocessedKeys: {} };
    },
  };
  return {
    table: { name: 'test', doc },
    tokens: { verify: async (token: string) => (token === 'good' ? { sub: userA, acc: accountA, jti: 'jti-1', gen: 0 } : null) },
  } as unknown as Ports;
}

function httpEvent(requestId: string, token?: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /api/test',
    rawPath: '/api/test',
    rawQueryString: '',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    requestContext: { requestId, http: { method: 'GET', path: '/api/test', sourceIp: '127.0.0.1' } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

function context(awsRequestId: string): Context {
  return {
    awsRequestId,
    functionName: 'conversa-test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:conversa-test',
    memoryLimitInMB: '512',
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context;
}

/** Every JSON line written through the console during a test. */
let lines: Record<string, unknown>[] = [];
beforeAll(() => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((text: unknown) => {
      lines.push(JSON.parse(String(text)) as Record<string, unknown>);
    });
  }
});
beforeEach(() => {
  lines = [];
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const logs = () => lines.filter((line) => !('_aws' in line));
const emf = () => lines.filter((line) => '_aws' in line);

describe('the HTTP middleware stack', () => {
  const handler = api({ auth: 'member', ports: sessionPorts }).handler(async ({ session }) => {
    logger.info('handled', { userName: session.user.name });
    return ok({ accountId: session.accountId });
  });
  const publicHandler = api({ auth: 'public', ports: sessionPorts }).handler(async () => {
    logger.info('handled');
    return ok({});
  });

  it("logs JSON with Lambda's and API Gateway's request ids and the authenticated account and user", async () => {
    const response = await handler(httpEvent('apigw-1', 'good'), context('lambda-1'));

    expect(response.statusCode).toBe(200);
    expect(logs()).toHaveLength(1);
    expect(logs()[0]).toMatchObject({
      level: 'INFO',
      message: 'handled',
      service: 'conversa',
      function_request_id: 'lambda-1',
      correlation_id: 'apigw-1',
      accountId: accountA,
      userId: userA,
    });
  });

  it("does not carry one invocation's account, user or request ids into the next (a warm function)", async () => {
    await handler(httpEvent('apigw-1', 'good'), context('lambda-1'));
    await publicHandler(httpEvent('apigw-2'), context('lambda-2'));

    const second = logs().at(-1)!;
    expect(second).toMatchObject({ function_request_id: 'lambda-2', correlation_id: 'apigw-2' });
    expect(second).not.toHaveProperty('accountId');
    expect(second).not.toHaveProperty('userId');
  });

  it('removes the keys after a failed invocation too, and still renders the failure from the catalogue', async () => {
    const failing = api({ auth: 'member', ports: sessionPorts }).handler(async () => {
      throw fail.notFound();
    });
    const response = await failing(httpEvent('apigw-3', 'good'), context('lambda-3'));
    expect(response).toMatchObject({ statusCode: 404 });
    expect(JSON.parse(String(response.body))).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });

    await publicHandler(httpEvent('apigw-4'), context('lambda-4'));
    expect(logs().at(-1)).not.toHaveProperty('accountId');
  });

  it('renders an unauthenticated call as 401 as before, and an unexpected error as a 500 that hides its details but logs them with the ids', async () => {
    const refused = await handler(httpEvent('apigw-5', 'bad'), context('lambda-5'));
    expect(refused).toMatchObject({ statusCode: 401 });

    const broken = api({ auth: 'member', ports: sessionPorts }).handler(async () => {
      throw new Error('table exploded');
    });
    const response = await broken(httpEvent('apigw-6', 'good'), context('lambda-6'));
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(String(response.body))).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' });
    const error = logs().find((line) => line.level === 'ERROR')!;
    expect(error).toMatchObject({ message: 'Unhandled error', function_request_id: 'lambda-6', correlation_id: 'apigw-6', accountId: accountA });
    expect(JSON.stringify(error)).toContain('table exploded');
  });

  it('never logs the event, so tokens and bodies stay out of the logs', async () => {
    await handler(httpEvent('apigw-7', 'good'), context('lambda-7'));
    expect(JSON.stringify(lines)).not.toContain('Bearer');
  });
});

describe('metrics', () => {
  it('stored during an invocation are flushed by the middleware when it ends, failed or not', async () => {
    // EMF lines already written while each invocation runs: none of its own yet.
    const duringInvocation: number[] = [];
    const handler = observed(async (event: { fail: boolean }) => {
      metrics.addMetric('Probe', MetricUnit.Count, 1);
      duringInvocation.push(emf().length);
      if (event.fail) throw new Error('boom');
      return 'ok';
    });
    await handler({ fail: false }, context('lambda-10'));
    await expect(handler({ fail: true }, context('lambda-11'))).rejects.toThrow('boom');

    expect(duringInvocation).toEqual([0, 1]);
    expect(emf()).toHaveLength(2);
    for (const line of emf()) expect(line).toMatchObject({ Probe: 1, service: 'conversa' });
  });

  it('counted by channel are EMF lines with the service and that one low-cardinality dimension, never a tenant', async () => {
    const handler = observed(async () => {
      count('MessagesSent', { channel: 'telegram' });
      count('MessagesFailed', { channel: 'telegram' });
      return 'ok';
    });
    await handler({}, context('lambda-8'));

    expect(emf()).toHaveLength(2);
    expect(emf()[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          { Namespace: 'Conversa', Dimensions: [expect.arrayContaining(['service', 'channel'])], Metrics: [{ Name: 'MessagesSent', Unit: 'Count' }] },
        ],
      },
      service: 'conversa',
      channel: 'telegram',
      MessagesSent: 1,
    });
    expect(JSON.stringify(emf())).not.toContain(accountA);
  });

  it('counted outside any invocation (the channel worker) are printed at once, with the fields its metric filters read', () => {
    count('InboundMessages', { channel: 'whatsapp' });
    expect(emf()).toHaveLength(1);
    // infra/constructs/channel-worker.ts: `{ $.InboundMessages >= 1 }`, value `$.InboundMessages`, dimensions `$.channel`, `$.service`.
    expect(emf()[0]).toMatchObject({ service: 'conversa', channel: 'whatsapp', InboundMessages: 1 });
  });

  it('an invocation that publishes none writes no warning', async () => {
    await observed(async () => 'ok')({}, context('lambda-9'));
    expect(lines).toEqual([]);
  });
});
