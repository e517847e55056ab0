import { afterEach, describe, expect, it, vi } from 'vitest';
import { alertNewMessage, alertQuietMs, notificationVolume } from './notifications.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the new-message alert', () => {
  it('rings at once, then a burst of fifty rings once more, with its last message, when it calms down', async () => {
    vi.useFakeTimers();
    const shown: (string | undefined)[] = [];
    class FakeNotification {
      static permission = 'granted';
      static requestPermission = vi.fn();
      constructor(_title: string, options?: NotificationOptions) {
        shown.push(options?.body);
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    const volumes: number[] = [];
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      volumes.push(this.volume);
      return Promise.resolve();
    });

    alertNewMessage('primeira');
    for (let i = 1; i <= 50; i++) {
      await vi.advanceTimersByTimeAsync(20);
      alertNewMessage(`mensagem ${i}`);
    }
    expect(shown).toEqual(['primeira']);
    await vi.advanceTimersByTimeAsync(alertQuietMs);
    expect(shown).toEqual(['primeira', 'mensagem 50']);
    expect(volumes).toEqual([notificationVolume, notificationVolume]);
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();

    // Once quiet again, the next message rings at once.
    await vi.advanceTimersByTimeAsync(alertQuietMs);
    alertNewMessage('depois');
    await vi.advanceTimersByTimeAsync(0);
    expect(shown.at(-1)).toBe('depois');
  });
});
