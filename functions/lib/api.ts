/**
 * The HTTP handler builder: a middy chain that logs, measures and traces the invocation
 * (`observability()`), reads the caller's session (and adds its account and user ids to the logs), parses and validates the
 * JSON body, path parameters and the list query with zod, calls the business glue, renders any
 * failure from the catalogue, and compresses the answer for the request's Accept-Encoding. A handler file is then a few lines:
 *
 *   export const handler = api({ auth: 'admin', body: userCreatePayload })
 *     .handler(async ({ body, session }) => created(await createUser(ports(), session, body)));
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { z } from 'zod';
import type { ListQuery } from '#contracts/list-query.ts';
import { fail } from '#domain/errors.ts';
import { parseListQuery, type ListRules } from '#domain/list-query.ts';
import type { Ports } from '#domain/ports.ts';
import type { AccountSession, Session } from '#domain/session.ts';
import { resolveSession } from '#domain/auth/resolve-session.ts';
import { admitApiTokenCall } from '#domain/api-tokens/api-token-calls.ts';
import { isApiTokenSecret } from '#domain/api-tokens/api-token-session.ts';
import { errorTexts } from '#contracts/errors.ts';
import { auditTokenCalls, markTokenCall, tokenScopeOf } from './api-token-gate.ts';
import { callerAddress } from './caller-address.ts';
import { compressResponse } from './compress-response.ts';
import { logTenant, observability } from './observability.ts';
import { defaultPorts } from './ports.ts';
import { renderError, validationError } from './render-error.ts';
import type { HttpResult } from './responses.ts';

/** public: anyone; signedIn: a valid session, with or without an account; member: in an account; admin: an account's admin. */
export type AuthMode = 'public' | 'signedIn' | 'member' | 'admin';

type SessionFor<A extends AuthMode> = A extends 'public' ? undefined : A extends 'signedIn' ? Session : AccountSession;

export interface ApiOptions<
  A extends AuthMode,
  B extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined = undefined,
  R = never,
> {
  auth: A;
  body?: B;
  params?: P;
  /** Schema of the URL query parameters (other than a list route's `query`). */
  query?: Q;
  /** Rules for the `query` URL parameter of a list route. */
  list?: ListRules;
  /**
   * The body is left unread: the handler takes the bytes from `event` itself (a webhook whose
   * signature covers the raw body is checked before anything parses it). No `body` schema then.
   */
  rawBody?: boolean;
  /**
   * Table reads the route needs that follow from the token's account and the valid body alone:
   * started while the session is checked (one round trip less before the handler's own), and
   * handed to it as `prefetched` only once the session holds. Not started for a body that fails
   * its schema (that error is answered after the session's, as without it).
   */
  prefetch?: (ports: Ports, accountId: string, body: B extends z.ZodType ? z.output<B> : undefined) => Promise<R>;
  ports?: () => Ports;
}

export interface ApiInput<A extends AuthMode, B, P, Q = undefined, R = never> {
  body: B extends z.ZodType ? z.output<B> : undefined;
  params: P extends z.ZodType ? z.output<P> : Record<string, string>;
  query: Q extends z.ZodType ? z.output<Q> : undefined;
  list: ListQuery;
  session: SessionFor<A>;
  ports: Ports;
  /** The route's `prefetch`, when it was started (a member's session with an account and a valid body). */
  prefetched: Promise<R> | undefined;
  /** The caller's address, for rate limits: the viewer's behind CloudFront (caller-address.ts). */
  address: string;
  event: APIGatewayProxyEventV2;
}

/**
 * What a handler accepts, readable from outside (the property tests generate inputs for every
 * route from it, so a new route with a schema is covered or the tests fail).
 */
export interface ApiContract {
  auth: AuthMode;
  body?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
  list?: ListRules;
  /** The body is not parsed (the handler reads the raw bytes). */
  rawBody?: boolean;
}

/** Inline voice notes (base64) are the largest bodies. */
const maxBodyBytes = 6_000_000;

function readJsonBody(event: APIGatewayProxyEventV2): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text) > maxBodyBytes) throw fail.invalid(undefined, [{ path: '', message: 'Body too large' }]);
  try {
    return JSON.parse(text);
  } catch {
    throw fail.invalid(undefined, [{ path: '', message: 'Body must be JSON' }]);
  }
}

function bearer(event: APIGatewayProxyEventV2): string | undefined {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

export function api<
  A extends AuthMode,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R = never,
>(options: ApiOptions<A, B, P, Q, R>) {
  return {
    handler(fn: (input: ApiInput<A, B, P, Q, R>) => Promise<HttpResult>) {
      const run = async (event: APIGatewayProxyEventV2, _context: Context): Promise<HttpResult> => {
        // First: in the cloud, a request that did not come through CloudFront is refused here.
        const address = await callerAddress(event);
        const ports = (options.ports ?? defaultPorts)();
        let session: Session | undefined;
        const parse = (schema: z.ZodType | undefined, value: unknown) => {
          if (!schema) return value;
          const result = schema.safeParse(value ?? {});
          if (!result.success) throw validationError(result.error);
          return result.data;
        };
        // The body is read and validated once: early when a prefetch wants it, its error always
        // answered after the session's.
        let bodyOutcome: { body: unknown } | { error: unknown } | undefined;
        const readBody = () => {
          if (!bodyOutcome) {
            try {
              bodyOutcome = { body: options.rawBody ? undefined : parse(options.body, readJsonBody(event)) };
            } catch (error) {
              bodyOutcome = { error };
            }
          }
          return bodyOutcome;
        };
        let prefetched: Promise<R> | undefined;
        const { prefetch } = options;
        const startPrefetch =
          prefetch &&
          (({ acc }: { acc: string | null }) => {
            const read = readBody();
            if (!acc || !('body' in read)) return;
            prefetched = prefetch(ports, acc, read.body as B extends z.ZodType ? z.output<B> : undefined);
            // Unread when the session fails: no unhandled rejection then.
            prefetched.catch(() => undefined);
          });
        const token = bearer(event);
        // An API token (ADR-0232) opens no public route either (sign-in, sign-up...).
        if (options.auth === 'public' && token && isApiTokenSecret(token)) throw fail.forbidden(errorTexts.apiTokenRouteRefused);
        if (options.auth !== 'public') {
          session = await resolveSession(ports, token, startPrefetch);
          logTenant({ accountId: session.accountId, userId: session.user.id });
          if (session.apiToken) {
            markTokenCall(event, { ports, accountId: session.accountId!, tokenId: session.apiToken.id, address });
            await admitApiTokenCall(ports, session.apiToken, tokenScopeOf(event));
          }
          if (options.auth !== 'signedIn' && !session.accountId) throw fail.forbidden();
          if (options.auth === 'admin' && !session.user.isAdmin) throw fail.forbidden();
        }
        const read = readBody();
        if ('error' in read) throw read.error;
        const { body } = read;
        const params = parse(options.params, event.pathParameters ?? {});
        const query = options.query ? parse(options.query, event.queryStringParameters ?? {}) : undefined;
        const list = options.list ? parseListQuery(event.queryStringParameters?.query, options.list) : (undefined as unknown as ListQuery);
        return fn({
          body,
          params,
          query,
          list,
          session,
          ports,
          prefetched,
          address,
          event,
        } as ApiInput<A, B, P, Q, R>);
      };
      // renderError is last, so its onError runs first and the others see the rendered response;
      // compressResponse then encodes answers and rendered errors alike for the Accept-Encoding, and
      // auditTokenCalls records a token's call with the status it answered.
      const handler = middy<APIGatewayProxyEventV2, HttpResult>()
        .use(observability())
        .use(auditTokenCalls())
        .use(compressResponse())
        .use(renderError())
        .handler(run);
      const contract: ApiContract = {
        auth: options.auth,
        body: options.body,
        params: options.params,
        query: options.query,
        list: options.list,
        ...(options.rawBody ? { rawBody: true } : {}),
      };
      return Object.assign(handler, { contract });
    },
  };
}

/** Path parameter `{id}`. */
export const idParam = z.object({ id: z.string().min(1).max(64) });
