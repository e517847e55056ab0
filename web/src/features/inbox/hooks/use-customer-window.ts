import { useEffect, useState } from 'react';
import type { Contact } from '#contracts/contacts.ts';
import { customerWindow, customerWindowWarningMs, type CustomerWindow } from '#contracts/customer-window.ts';

export interface CustomerWindowState {
  status: CustomerWindow;
  /** Open and closing within two hours: the composer says until when. */
  closingSoon: boolean;
}

/**
 * The contact's WhatsApp Cloud API 24-hour window (customer-window.ts) as it is now, kept current
 * without polling: a timer to its next change (the start of its last two hours, then its closing
 * moment), and a new `lastInboundAt` (the contact's realtime event) reopens it at once.
 */
export function useCustomerWindow(contact: Pick<Contact, 'lastInboundAt' | 'service'>): CustomerWindowState {
  // Bumped by the timer: the render after it reads the clock again.
  const [tick, setTick] = useState(0);
  const now = Date.now();
  const status = customerWindow(contact, now);
  const closesAt = status.kind === 'open' ? Date.parse(status.closesAt) : null;

  const closingSoon = closesAt !== null && closesAt - now <= customerWindowWarningMs;

  // The next change is decided from what this render showed, not from the clock read again in the
  // effect: a timer that fires a little early (or a clock that steps) re-renders with nothing new
  // and arms again for what is left, instead of skipping the closing line for two hours.
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick re-arms the timer after it fired
  useEffect(() => {
    if (closesAt === null) return;
    // 1 ms past the closing moment: the window is open up to it, inclusive.
    const next = closingSoon ? closesAt + 1 : closesAt - customerWindowWarningMs;
    const timer = setTimeout(() => setTick((t) => t + 1), Math.max(0, next - Date.now()));
    return () => clearTimeout(timer);
  }, [closesAt, closingSoon, tick]);

  return { status, closingSoon };
}
