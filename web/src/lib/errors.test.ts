import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from './api-client.ts';
import { describeError, reportError } from './errors.ts';
import { closeErrorModal, errorModalStore, toastStore } from './notify.ts';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  closeErrorModal();
  toastStore.set([]);
});

describe('the error mapping (docs/product.md#error-catalogue)', () => {
  it('maps server titles and texts through the catalogue into the modal', () => {
    expect(describeError(new ApiError(401, { error: 'Unauthorized', message: 'Invalid credentials' }))).toEqual({
      kind: 'modal',
      title: 'Acesso não autorizado',
      message: 'Credenciais inválidas',
    });
    expect(describeError(new ApiError(400, { error: 'Bad Request', message: 'Invalid params' }))).toEqual({
      kind: 'modal',
      title: 'Requisição inválida',
      message: 'Os dados fornecidos são inválidos',
    });
    expect(describeError(new ApiError(402, { error: 'Payment Required', message: 'Strong password is required' }))).toMatchObject({
      title: 'Pagamento obrigatório',
      message: 'A senha precisa ser forte',
    });
  });

  it('falls back to the generic title and text for anything unknown', () => {
    expect(describeError(new ApiError(418, { error: "I'm a teapot", message: 'Short and stout' }))).toEqual({
      kind: 'modal',
      title: 'Erro inesperado',
      message: 'Um erro inesperado aconteceu',
    });
    expect(describeError(new Error('boom'))).toMatchObject({ title: 'Erro inesperado', message: 'Um erro inesperado aconteceu' });
  });

  it('shows a network failure as a toast with the FETCH_ERROR title', () => {
    expect(describeError(new NetworkError(new TypeError('Failed to fetch')))).toEqual({
      kind: 'toast',
      title: 'Falha na requisição',
      message: 'Não foi possível completar sua requisição. Tente novamente mais tarde.',
    });
  });

  it('shows nothing for a 401 that already ended the session', () => {
    expect(describeError(new ApiError(401, { error: 'Unauthorized', message: 'Unauthorized' }, true))).toEqual({ kind: 'none' });
  });

  it('reports to the modal or the toasts', () => {
    reportError(new ApiError(400, { error: 'Bad Request', message: 'Email already exists' }));
    expect(errorModalStore.get()).toEqual({ title: 'Requisição inválida', message: 'Email já existe' });
    reportError(new NetworkError());
    expect(toastStore.get().at(-1)).toMatchObject({ tone: 'error', title: 'Falha na requisição' });
  });
});
