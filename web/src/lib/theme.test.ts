import { afterEach, describe, expect, it, vi } from 'vitest';
import { initTheme, resolveTheme, setTheme, themeStore, toggleTheme } from './theme.ts';

function mockSystem(dark: boolean) {
  const listeners: (() => void)[] = [];
  const query = { matches: dark, addEventListener: (_: string, l: () => void) => listeners.push(l), removeEventListener: () => {} };
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => query),
  );
  return {
    change(next: boolean) {
      query.matches = next;
      for (const l of listeners) l();
    },
  };
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the theme', () => {
  it('defaults to the system preference', () => {
    mockSystem(true);
    expect(resolveTheme()).toBe('dark');
    mockSystem(false);
    expect(resolveTheme()).toBe('light');
  });

  it('remembers an explicit choice in local storage, over the system preference', () => {
    mockSystem(true);
    setTheme('light');
    expect(localStorage.getItem('conversa-theme')).toBe('light');
    expect(resolveTheme()).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    toggleTheme();
    expect(themeStore.get()).toBe('dark');
    expect(localStorage.getItem('conversa-theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });

  it('follows system changes only while the user has not chosen', () => {
    const system = mockSystem(false);
    const stop = initTheme();
    expect(themeStore.get()).toBe('light');
    system.change(true);
    expect(themeStore.get()).toBe('dark');
    setTheme('light');
    system.change(true);
    expect(themeStore.get()).toBe('light');
    stop();
  });
});
