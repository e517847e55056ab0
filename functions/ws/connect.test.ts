/**
 * $connect and the only way in (ADR-0183): the
 * WebSocket API's own `wss://…execute-api…` URL skips CloudFront and its WAF, so in the cloud a
 * connection whose upgrade request lacks CloudFront's secret origin header is refused (403) before
 * its ticket is looked at. Locally, with no secret configured, the header is not asked for. The
 * ticket and the connection record are stubbed: realtime-ticket.test.ts covers them end to end.
 */
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#lib/caller-address.ts';

const redeemWsTicket = vi.fn();
const recordConnection = vi.fn();
vi.mock('#domain/realtime/ws-tickets.ts', () => ({ redeemWsTicket: (...args: unknown[]) => redeemWsTicket(...args) }));
vi.mock('#db/ws-connections.ts', () => ({ recordConnection: (...args: unknown[]) => recordConnection(...args) }));
vi.mock('#lib/ports.ts', () => ({ defaultPorts: () => ({ table: {}, clock: () => new Date('2025-01-01T00:00:00Z') }) }));

const { handler } = await import('./connect.ts');

const context = { awsRequestId: 'lambda-1', functionName: 'conversa-test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const connect = async (headers: Record<string, string>) =>
  (
    (await handler({ headers, queryStringParameters: { ticket: 'ticket-1' }, requestContext: { connectionId: 'conn-1' } } as never, context)) as {
      statusCode: number;
    }
  ).statusCode;

beforeEach(() => {
  redeemWsTicket.mockReset().mockResolvedValue({
    accountId: 'acc_1',
    user: { id: 'usr_1', isAdmin: false },
    claims: { jti: 'jti-1', gen: 1, exp: 1_900_000_000 },
  });
  recordConnection.mockReset().mockResolvedValue(undefined);
});
afterEach(() => {
  delete process.env.ORIGIN_VERIFY;
});

describe('$connect and the origin secret', () => {
  it('in the cloud, refuses (403) an upgrade that did not come through CloudFront (no or a wrong origin secret), before spending its ticket', async () => {
    process.env.ORIGIN_VERIFY = 'origin-secret';
    expect(await connect({})).toBe(403);
    expect(await connect({ [ORIGIN_VERIFY_HEADER]: 'guess' })).toBe(403);
    expect(redeemWsTicket).not.toHaveBeenCalled();
    expect(recordConnection).not.toHaveBeenCalled();
  });

  it('in the cloud, accepts an upgrade that carries the origin secret (any header case) and a good ticket', async () => {
    process.env.ORIGIN_VERIFY = 'origin-secret';
    expect(await connect({ [ORIGIN_VERIFY_HEADER]: 'origin-secret' })).toBe(200);
    expect(await connect({ 'X-Conversa-Origin-Verify': 'origin-secret' })).toBe(200);
    expect(recordConnection).toHaveBeenCalledTimes(2);
  });

  it('locally (no origin secret configured), accepts without the header, as before', async () => {
    expect(await connect({})).toBe(200);
    expect(recordConnection).toHaveBeenCalledTimes(1);
  });
});
