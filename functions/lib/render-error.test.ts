import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { logger } from '#lib/observability.ts';
import { errorResponse } from '#lib/render-error.ts';
import { fail } from '#domain/errors.ts';
import { shownMessage, shownTitle } from '#contracts/errors.ts';
import { emailField } from '#contracts/fields.ts';

const body = (r: ReturnType<typeof errorResponse>) => JSON.parse(String(r.body));

describe('error rendering', () => {
  it('renders each failure kind with its status and server title', () => {
    expect(errorResponse(fail.invalid())).toMatchObject({ statusCode: 400 });
    expect(body(errorResponse(fail.unauthorized()))).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' });
    expect(body(errorResponse(fail.limit('The maximum number of services allowed on the account has been reached'))).error).toBe('Payment Required');
    expect(errorResponse(fail.forbidden()).statusCode).toBe(403);
    expect(errorResponse(fail.notFound()).statusCode).toBe(404);
    expect(errorResponse(fail.tooMany()).statusCode).toBe(429);
  });

  it('hides the details of unexpected errors', () => {
    const log = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const answer = body(errorResponse(new Error('secret stack detail')));
    expect(answer).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' });
    expect(log).toHaveBeenCalledWith('Unhandled error', expect.objectContaining({ message: 'secret stack detail' }));
    log.mockRestore();
  });

  it('turns a bad e-mail into the catalogue text, other validation into Invalid params', () => {
    const bad = z.object({ email: emailField('Email inválido') }).safeParse({ email: 'nope' });
    expect(body(errorResponse(bad.error)).message).toBe('Email must be a valid email');
    const missing = z.object({ name: z.string() }).safeParse({});
    expect(body(errorResponse(missing.error))).toMatchObject({ message: 'Invalid params', details: [{ path: 'name' }] });
  });

  it('every server text the API sends has a pt-BR text to show', async () => {
    const { errorTexts } = await import('../../shared/contracts/errors.ts');
    for (const text of Object.values(errorTexts)) {
      expect(shownMessage(text), text).not.toBe('Um erro inesperado aconteceu');
    }
    expect(shownTitle('Payment Required')).toBe('Pagamento obrigatório');
    expect(shownTitle('Whatever')).toBe('Erro inesperado');
  });
});
