/**
 * The caller's address behind CloudFront (ADR-0183): rate limits keyed by
 * `requestContext.http.sourceIp` counted CloudFront's edge servers, not people. In the cloud the
 * address comes from the header CloudFront's viewer-request function writes, trusted only on a
 * request that carries CloudFront's secret origin header; a request that does not (the API's own
 * execute-api URL, past the WAF) is refused. The local runtime, with no CloudFront, keeps sourceIp.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ports } from '#domain/ports.ts';
import { api } from './api.ts';
import { ORIGIN_VERIFY_HEADER, parseViewerAddress, VIEWER_ADDRESS_HEADER } from './caller-address.ts';
import { ok } from './responses.ts';

const context = { awsRequestId: 'lambda-1', functionName: 'conversa-test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const event = (headers: Record<string, string>) =>
  ({
    version: '2.0',
    routeKey: 'POST /api/test',
    rawPath: '/api/test',
    rawQueryString: '',
    headers,
    requestContext: { requestId: 'apigw-1', http: { method: 'POST', path: '/api/test', sourceIp: '130.176.0.10' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const handler = api({ auth: 'public', ports: () => ({}) as Ports }).handler(async ({ address }) => ok({ address }));
const addressOf = async (headers: Record<string, string>) => {
  const answer = (await handler(event(headers), context)) as { statusCode: number; body: string };
  return { status: answer.statusCode, address: answer.statusCode === 200 ? (JSON.parse(answer.body) as { address: string }).address : undefined };
};

afterEach(() => {
  delete process.env.ORIGIN_VERIFY;
});

describe('parseViewerAddress', () => {
  it('reads CloudFront-Viewer-Address (ip:port, [ipv6]:port) and a bare address, and nothing else', () => {
    expect(parseViewerAddress('203.0.113.7:46532')).toBe('203.0.113.7');
    expect(parseViewerAddress('[2001:db8:85a3::8a2e:370:7334]:46532')).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(parseViewerAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(parseViewerAddress('2001:db8::1')).toBe('2001:db8::1');
    for (const bad of [undefined, '', 'unknown', '1.2.3.4, 5.6.7.8', '[2001:db8::1', '999.1.1.1', 'a:b'])
      expect(parseViewerAddress(bad), String(bad)).toBeUndefined();
  });
});

describe("the caller's address", () => {
  it('in the cloud, is the viewer’s, from CloudFront, when the request carries the origin secret', async () => {
    process.env.ORIGIN_VERIFY = 'origin-secret';
    expect(await addressOf({ [ORIGIN_VERIFY_HEADER]: 'origin-secret', [VIEWER_ADDRESS_HEADER]: '198.51.100.23' })).toEqual({
      status: 200,
      address: '198.51.100.23',
    });
    expect(await addressOf({ [ORIGIN_VERIFY_HEADER]: 'origin-secret', [VIEWER_ADDRESS_HEADER]: '[2001:db8::5]:443' })).toEqual({
      status: 200,
      address: '2001:db8::5',
    });
  });

  it('in the cloud, refuses a request that did not come through CloudFront (no or a wrong origin secret), whatever address it claims', async () => {
    process.env.ORIGIN_VERIFY = 'origin-secret';
    expect((await addressOf({ [VIEWER_ADDRESS_HEADER]: '198.51.100.23' })).status).toBe(403);
    expect((await addressOf({ [ORIGIN_VERIFY_HEADER]: 'guess', [VIEWER_ADDRESS_HEADER]: '198.51.100.23' })).status).toBe(403);
  });

  it('locally (no CloudFront, no origin secret), is the connection’s, and a claimed viewer address is ignored', async () => {
    expect(await addressOf({ [VIEWER_ADDRESS_HEADER]: '198.51.100.23' })).toEqual({ status: 200, address: '130.176.0.10' });
  });
});
