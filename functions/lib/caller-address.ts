/**
 * The caller's address, for rate limits, and the check that a request came through CloudFront
 * (ADR-0183). Behind CloudFront,
 * `requestContext.http.sourceIp` is an edge server's address, shared by everyone that edge serves.
 * The distribution's viewer-request function on `/api/*` writes the viewer's address into
 * `VIEWER_ADDRESS_HEADER` (over anything the viewer sent), and its origin adds `ORIGIN_VERIFY_HEADER`
 * holding a generated secret. Where that secret is configured (`ORIGIN_VERIFY`, or `ORIGIN_VERIFY_ARN`
 * read once per cold start: the cloud), a request without it did not come through CloudFront and
 * its WAF (the API's own execute-api URL) and is refused; one with it is from the viewer the header
 * names. Where none is configured (the local runtime, which has no CloudFront) the connection's
 * address is the caller's and the header is ignored. The WebSocket API's `$connect` makes the same
 * check (`cameThroughCloudFront`): CloudFront's `/ws` origin sends the same secret.
 */
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { fail } from '#domain/errors.ts';
import { secretBytes } from './signing-secret.ts';

/** Set by CloudFront on every origin request to the HTTP and WebSocket APIs, from the stack's generated secret. */
export const ORIGIN_VERIFY_HEADER = 'x-conversa-origin-verify';
/** Set by the distribution's viewer-request function on `/api/*`: the viewer's address. */
export const VIEWER_ADDRESS_HEADER = 'x-conversa-viewer-address';

/**
 * The IP address in a viewer address: `203.0.113.7`, `203.0.113.7:46532`, `2001:db8::1` or
 * `[2001:db8::1]:46532` (the forms of CloudFront-Viewer-Address and of a bare address); undefined
 * for anything else.
 */
export function parseViewerAddress(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return isIP(bracketed[1]!) === 6 ? bracketed[1] : undefined;
  if (isIP(text)) return text;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  return withPort && isIP(withPort[1]!) === 4 ? withPort[1] : undefined;
}

const configured = () => Boolean(process.env.ORIGIN_VERIFY || process.env.ORIGIN_VERIFY_ARN);

type Headers = Record<string, string | undefined> | undefined;

function header(headers: Headers, name: string): string | undefined {
  return headers?.[name] ?? Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * Whether a request may be served: in the cloud, only when its headers carry the origin secret
 * (it came through CloudFront); locally, where no secret is configured, always. The HTTP API's
 * requests (below) and the WebSocket API's `$connect` (functions/ws/connect.ts) ask it first.
 */
export async function cameThroughCloudFront(headers: Headers): Promise<boolean> {
  if (!configured()) return true;
  const expected = await secretBytes('ORIGIN_VERIFY');
  const given = new TextEncoder().encode(header(headers, ORIGIN_VERIFY_HEADER) ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The caller's address. In the cloud, throws forbidden for a request that did not come through
 * CloudFront; locally, the connection's address.
 */
export async function callerAddress(event: APIGatewayProxyEventV2): Promise<string> {
  const sourceIp = event.requestContext?.http?.sourceIp ?? 'unknown';
  if (!configured()) return sourceIp;
  if (!(await cameThroughCloudFront(event.headers))) throw fail.forbidden();
  return parseViewerAddress(header(event.headers, VIEWER_ADDRESS_HEADER)) ?? sourceIp;
}
