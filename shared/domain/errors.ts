/**
 * Typed failures of the business rules. The HTTP edge renders each kind with its status and title
 * (functions/lib/render-error.ts); the text is always one of the catalogue's server texts.
 */
import { errorTexts, type ErrorText } from '#contracts/errors.ts';

export type FailureKind = 'invalid' | 'unauthorized' | 'limit' | 'forbidden' | 'notFound' | 'conflict' | 'tooMany' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly text: ErrorText,
    readonly details?: { path: string; message: string }[],
    /** For `tooMany`: when the caller may try again (the answer's Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(text);
    this.name = 'DomainError';
  }
}

export const fail = {
  invalid: (text: ErrorText = errorTexts.invalidParams, details?: { path: string; message: string }[]) => new DomainError('invalid', text, details),
  unauthorized: (text: ErrorText = errorTexts.unauthorized) => new DomainError('unauthorized', text),
  limit: (text: ErrorText) => new DomainError('limit', text),
  forbidden: (text: ErrorText = errorTexts.forbidden) => new DomainError('forbidden', text),
  notFound: () => new DomainError('notFound', errorTexts.notFound),
  /** Someone else's write won (409): the text says what, `details` may name who. */
  conflict: (text: ErrorText, details?: { path: string; message: string }[]) => new DomainError('conflict', text, details),
  tooMany: (text: ErrorText = errorTexts.tooManyAttempts, retryAfterSeconds?: number) => new DomainError('tooMany', text, undefined, retryAfterSeconds),
  /** An outside service we depend on is not configured or not answering (503). */
  unavailable: (text: ErrorText) => new DomainError('unavailable', text),
};
