import { createStore, useStore } from './store.ts';
import { storage, storageKeys } from './storage.ts';

export type Theme = 'light' | 'dark';

function systemTheme(): Theme {
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function storedTheme(): Theme | null {
  const value = storage.get(storageKeys.theme);
  return value === 'light' || value === 'dark' ? value : null;
}

/** The theme in force: the stored choice, else the system preference. */
export function resolveTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

export const themeStore = createStore<Theme>(resolveTheme());

function apply(theme: Theme): void {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

/** Remembers an explicit choice and applies it. */
export function setTheme(theme: Theme): void {
  storage.set(storageKeys.theme, theme);
  themeStore.set(theme);
  apply(theme);
}

export function toggleTheme(): void {
  setTheme(themeStore.get() === 'dark' ? 'light' : 'dark');
}

/** Applies the current theme and follows the system while the user has not chosen. */
export function initTheme(): () => void {
  themeStore.set(resolveTheme());
  apply(themeStore.get());
  const query = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  if (!query) return () => {};
  const onChange = () => {
    if (storedTheme()) return;
    themeStore.set(systemTheme());
    apply(themeStore.get());
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The theme in force; 'light' while hydrating a prerendered page, which was rendered with no stored choice. */
export function useTheme(): Theme {
  return useStore(themeStore, () => 'light');
}
