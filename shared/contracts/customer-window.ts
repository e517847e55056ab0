/**
 * The WhatsApp Cloud API's customer-service window (ADR-0212): a business may send
 * free-form messages to a person only within 24 hours of that person's last message on the number;
 * outside it only approved templates go (Meta answers 131047). One rule for the composer and the
 * send route: the contact's `lastInboundAt` and a clock decide.
 */
import type { ServiceType } from './services.ts';

export const customerWindowMs = 24 * 60 * 60 * 1000;

/** The composer mentions the closing time only in the window's last two hours. */
export const customerWindowWarningMs = 2 * 60 * 60 * 1000;

export type CustomerWindow =
  /** The channel has no window (QR WhatsApp, Telegram): free text always goes. */
  | { kind: 'none' }
  | { kind: 'open'; closesAt: string }
  /** `lastInboundAt` null: the person never wrote on this number (or not since it was kept). */
  | { kind: 'closed'; lastInboundAt: string | null; closedAt: string | null };

/** Whether a connection type has the window. */
export const hasCustomerWindow = (type: ServiceType | null | undefined): boolean => type === 'whatsapp_cloud';

/**
 * The window of a contact at `now`: open while less than 24 hours (inclusive) have passed since
 * `lastInboundAt`, closed after, closed when the person never wrote.
 */
export function customerWindow(
  contact: { lastInboundAt: string | null | undefined; service: { type: ServiceType } | null | undefined },
  now: Date | number,
): CustomerWindow {
  if (!hasCustomerWindow(contact.service?.type)) return { kind: 'none' };
  const last = contact.lastInboundAt ? Date.parse(contact.lastInboundAt) : Number.NaN;
  if (Number.isNaN(last)) return { kind: 'closed', lastInboundAt: null, closedAt: null };
  const closes = last + customerWindowMs;
  const at = typeof now === 'number' ? now : now.getTime();
  const closesAt = new Date(closes).toISOString();
  return at <= closes ? { kind: 'open', closesAt } : { kind: 'closed', lastInboundAt: contact.lastInboundAt!, closedAt: closesAt };
}
