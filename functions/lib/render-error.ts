/**
 * Renders every failure as the catalogue's JSON error body, last in the middleware chain. Details
 * of unexpected errors are logged (JSON, with the request's ids), never sent: the client gets
 * 'Internal server error'.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ZodError } from 'zod';
import { errorTexts, errorTitles, type ApiErrorBody } from '#contracts/errors.ts';
import { DomainError, type FailureKind } from '#domain/errors.ts';
import { logger } from './observability.ts';
import { json, type HttpResult } from './responses.ts';

const statusOf: Record<FailureKind, [number, string]> = {
  invalid: [400, errorTitles.badRequest],
  unauthorized: [401, errorTitles.unauthorized],
  limit: [402, errorTitles.paymentRequired],
  forbidden: [403, errorTitles.forbidden],
  notFound: [404, errorTitles.notFound],
  conflict: [409, errorTitles.conflict],
  tooMany: [429, errorTitles.tooManyRequests],
  unavailable: [503, errorTitles.unavailable],
};

/** A zod failure as 'Invalid params', unless the catalogue has a more precise text for it. */
export function validationError(error: ZodError): DomainError {
  const details = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const badEmail = error.issues.some((i) => i.path[i.path.length - 1] === 'email' && i.code === 'invalid_format');
  return new DomainError('invalid', badEmail ? errorTexts.emailInvalid : errorTexts.invalidParams, details);
}

export function errorResponse(error: unknown): HttpResult {
  const failure = error instanceof ZodError ? validationError(error) : error;
  if (failure instanceof DomainError) {
    const [statusCode, title] = statusOf[failure.kind];
    const body: ApiErrorBody = { statusCode, error: title, message: failure.text, ...(failure.details ? { details: failure.details } : {}) };
    const answer = json(statusCode, body);
    return failure.retryAfterSeconds === undefined ? answer : { ...answer, headers: { ...answer.headers, 'retry-after': String(failure.retryAfterSeconds) } };
  }
  logger.error('Unhandled error', error as Error);
  const body: ApiErrorBody = { statusCode: 500, error: errorTitles.internal, message: errorTexts.internal };
  return json(500, body);
}

export const renderError = (): MiddlewareObj<APIGatewayProxyEventV2, HttpResult> => ({
  onError: async (request) => {
    request.response = errorResponse(request.error);
  },
});
