/**
 * The subscriptions the event consumer reads for every record, kept per account for a short while
 * in the process (ADR-0233): an account without subscriptions costs one Query
 * every `subscriptionCacheMs` in a busy consumer, and nothing more. A subscription's own change
 * on the stream drops its account's entry, so the consumer that sees it follows at once; another
 * process follows within the cache's time.
 */
import type { WebhookEventType } from '#contracts/webhooks.ts';
import { type WebhookSubscriptionItem, webhookSubscriptionsOf } from '#db/webhooks.ts';
import type { Ports } from '../ports.ts';

export const subscriptionCacheMs = 30_000;

/** At most this many accounts are kept (the oldest entry goes first). */
const maxAccounts = 5_000;

export type SubscriptionCache = ReturnType<typeof subscriptionCache>;

export function subscriptionCache(ttlMs = subscriptionCacheMs) {
  const entries = new Map<string, { until: number; subscriptions: Promise<WebhookSubscriptionItem[]> }>();
  return {
    /** The account's enabled subscriptions (that take `type`, when given). */
    async subscribersOf(ports: Ports, accountId: string, type?: WebhookEventType): Promise<WebhookSubscriptionItem[]> {
      const now = Date.now();
      let entry = entries.get(accountId);
      if (!entry || entry.until <= now) {
        entry = { until: now + ttlMs, subscriptions: webhookSubscriptionsOf(ports.table, accountId) };
        entries.delete(accountId);
        entries.set(accountId, entry);
        if (entries.size > maxAccounts) entries.delete(entries.keys().next().value!);
        entry.subscriptions.catch(() => entries.delete(accountId));
      }
      return (await entry.subscriptions).filter((s) => s.enabled && (!type || s.eventTypes.includes(type)));
    },
    /** Forgets an account's subscriptions (one of them changed). */
    forget(accountId: string): void {
      entries.delete(accountId);
    },
  };
}
