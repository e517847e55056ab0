import { shownMessage, shownTitle } from '#contracts/errors.ts';
import { ApiError, NetworkError } from './api-client.ts';
import { showErrorModal, showToast } from './notify.ts';

/** How an error reaches the person: the 'Entendi' modal, a toast (network) or nothing. */
export type ShownError = { kind: 'modal'; title: string; message: string } | { kind: 'toast'; title: string; message: string } | { kind: 'none' };

/** Maps any thrown value through the catalogue of docs/product.md#error-catalogue. */
export function describeError(error: unknown): ShownError {
  if (error instanceof NetworkError) {
    return { kind: 'toast', title: shownTitle('FETCH_ERROR'), message: shownMessage('Failed to fetch') };
  }
  if (error instanceof DOMException && error.name === 'AbortError') return { kind: 'none' };
  if (error instanceof ApiError) {
    if (error.sessionExpired) return { kind: 'none' };
    return { kind: 'modal', title: shownTitle(error.title), message: shownMessage(error.message) };
  }
  return { kind: 'modal', title: shownTitle(undefined), message: shownMessage(undefined) };
}

/** Shows an error to the person the way the catalogue says. */
export function reportError(error: unknown): void {
  const shown = describeError(error);
  if (shown.kind === 'modal') showErrorModal({ title: shown.title, message: shown.message });
  else if (shown.kind === 'toast') showToast({ tone: 'error', title: shown.title, message: shown.message });
  if (shown.kind !== 'none' && !(error instanceof ApiError)) console.warn(error);
}
