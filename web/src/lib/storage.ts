/** Local storage that never throws (private mode, disabled storage, quota). */
export const storage = {
  get(key: string): string | null {
    try {
      return globalThis.localStorage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      globalThis.localStorage?.setItem(key, value);
    } catch {
      /* storage unavailable: the choice lasts for this page only */
    }
  },
  remove(key: string): void {
    try {
      globalThis.localStorage?.removeItem(key);
    } catch {
      /* ignore */
    }
  },
};

/** Every local-storage key the app writes, in one place. */
export const storageKeys = {
  auth: 'conversa-auth',
  theme: 'conversa-theme',
  sidebarCollapsed: 'conversa-sidebar-collapsed',
  whatsappWidgetDismissed: 'conversa-whatsapp-widget-dismissed',
} as const;
