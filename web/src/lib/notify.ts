import { createStore } from './store.ts';

export type ToastTone = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  message?: string;
  /** Milliseconds on screen; 0 keeps it until dismissed. */
  duration: number;
}

export interface ErrorModalState {
  title: string;
  message: string;
}

export const toastStore = createStore<Toast[]>([]);
export const errorModalStore = createStore<ErrorModalState | null>(null);

let nextId = 1;

export function showToast(toast: { tone?: ToastTone; title: string; message?: string; duration?: number }): number {
  const id = nextId++;
  const full: Toast = { id, tone: toast.tone ?? 'info', title: toast.title, message: toast.message, duration: toast.duration ?? 5000 };
  toastStore.set((list) => [...list.slice(-3), full]);
  return id;
}

export function dismissToast(id: number): void {
  toastStore.set((list) => list.filter((t) => t.id !== id));
}

export function showErrorModal(error: ErrorModalState): void {
  errorModalStore.set(error);
}

export function closeErrorModal(): void {
  errorModalStore.set(null);
}
