/**
 * An account's webhook subscriptions (ADR-0233): admins create, edit, pause,
 * enable and delete them. Each has its own signing secret, sealed with the data key like a
 * connection's credentials; its whole value is answered only by the create and rotate calls. A
 * rotation keeps signing with the previous secret too for a day (two `v1` entries), so receivers
 * can switch without losing deliveries.
 */
import { randomBytes } from 'node:crypto';
import {
  maxWebhookSubscriptions,
  type WebhookSubscription,
  type WebhookSubscriptionPayload,
  type WebhookSubscriptionStatus,
  type WebhookSubscriptionWithSecret,
  webhookSubscriptionPayload,
  webhookTexts,
} from '#contracts/webhooks.ts';
import { errorTexts } from '#contracts/errors.ts';
import {
  deleteWebhookSubscription,
  getWebhookSubscription,
  putNewWebhookSubscription,
  replaceWebhookSubscription,
  type WebhookSubscriptionItem,
  webhookSubscriptionItem,
  webhookSubscriptionsOf,
} from '#db/webhooks.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

/** How long a rotated-out secret still signs deliveries beside the new one. */
export const previousSecretGraceMs = 24 * 3600_000;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function statusOf(item: Pick<WebhookSubscriptionItem, 'enabled' | 'disabledAt'>): WebhookSubscriptionStatus {
  if (item.enabled) return 'active';
  return item.disabledAt ? 'auto_disabled' : 'paused';
}

export function toWebhookSubscription(item: WebhookSubscriptionItem): WebhookSubscription {
  return {
    id: item.id,
    url: item.url,
    description: item.description,
    eventTypes: item.eventTypes,
    enabled: item.enabled,
    status: statusOf(item),
    disabledAt: item.disabledAt,
    consecutiveFailures: item.consecutiveFailures,
    lastSuccessAt: item.lastSuccessAt,
    lastFailureAt: item.lastFailureAt,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** The account's subscriptions, oldest first. */
export async function listWebhookSubscriptions(ports: Ports, session: AccountSession): Promise<WebhookSubscription[]> {
  const items = await webhookSubscriptionsOf(ports.table, session.accountId);
  return items.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(toWebhookSubscription);
}

export async function loadWebhookSubscription(ports: Ports, session: AccountSession, id: string): Promise<WebhookSubscriptionItem> {
  const item = await getWebhookSubscription(ports.table, session.accountId, id);
  if (!item) throw fail.notFound();
  return item;
}

export async function getWebhookSubscriptionOf(ports: Ports, session: AccountSession, id: string): Promise<WebhookSubscription> {
  return toWebhookSubscription(await loadWebhookSubscription(ports, session, id));
}

export async function createWebhookSubscription(
  ports: Ports,
  session: AccountSession,
  payload: WebhookSubscriptionPayload,
): Promise<WebhookSubscriptionWithSecret> {
  const fields = webhookSubscriptionPayload.parse(payload);
  const existing = await webhookSubscriptionsOf(ports.table, session.accountId);
  if (existing.length >= maxWebhookSubscriptions) throw fail.invalid(errorTexts.invalidParams, [{ path: 'url', message: webhookTexts.tooMany }]);
  const secret = newWebhookSecret();
  const now = ports.clock().toISOString();
  const item = webhookSubscriptionItem({
    id: ports.newId(),
    accountId: session.accountId,
    url: fields.url,
    description: fields.description,
    eventTypes: fields.eventTypes,
    enabled: fields.enabled,
    disabledAt: null,
    sealedSecret: await ports.vault.seal(secret),
    consecutiveFailures: 0,
    lastSuccessAt: null,
    lastFailureAt: null,
    createdBy: session.user.id,
    createdAt: now,
    updatedAt: now,
  });
  await putNewWebhookSubscription(ports.table, item);
  return { ...toWebhookSubscription(item), secret };
}

/** Writes the next version of a subscription the caller read; a concurrent change answers 409. */
async function replace(ports: Ports, current: WebhookSubscriptionItem, next: WebhookSubscriptionItem): Promise<WebhookSubscriptionItem> {
  if (!(await replaceWebhookSubscription(ports.table, next, current.updatedAt))) {
    throw fail.invalid(errorTexts.invalidParams, [{ path: '', message: webhookTexts.changedMeanwhile }]);
  }
  return next;
}

/** Switching a subscription on (by the form or 'Reativar') starts its failure count over. */
function switched(current: WebhookSubscriptionItem, enabled: boolean): Partial<WebhookSubscriptionItem> {
  if (enabled === current.enabled) return {};
  return enabled ? { enabled, disabledAt: null, consecutiveFailures: 0 } : { enabled, disabledAt: null };
}

export async function updateWebhookSubscription(
  ports: Ports,
  session: AccountSession,
  id: string,
  payload: WebhookSubscriptionPayload,
): Promise<WebhookSubscription> {
  const fields = webhookSubscriptionPayload.parse(payload);
  const current = await loadWebhookSubscription(ports, session, id);
  const next = await replace(ports, current, {
    ...current,
    url: fields.url,
    description: fields.description,
    eventTypes: fields.eventTypes,
    ...switched(current, fields.enabled),
    updatedAt: laterThan(ports, current.updatedAt),
  });
  return toWebhookSubscription(next);
}

/** 'Reativar': a paused or automatically disabled subscription delivers again (new events only). */
export async function enableWebhookSubscription(ports: Ports, session: AccountSession, id: string): Promise<WebhookSubscription> {
  const current = await loadWebhookSubscription(ports, session, id);
  if (current.enabled) return toWebhookSubscription(current);
  return toWebhookSubscription(await replace(ports, current, { ...current, ...switched(current, true), updatedAt: laterThan(ports, current.updatedAt) }));
}

/** A new secret, answered once; the previous one keeps signing beside it for a day. */
export async function rotateWebhookSecret(ports: Ports, session: AccountSession, id: string): Promise<WebhookSubscriptionWithSecret> {
  const current = await loadWebhookSubscription(ports, session, id);
  const secret = newWebhookSecret();
  const next = await replace(ports, current, {
    ...current,
    sealedSecret: await ports.vault.seal(secret),
    previousSealedSecret: current.sealedSecret,
    previousSecretUntil: new Date(ports.clock().getTime() + previousSecretGraceMs).toISOString(),
    updatedAt: laterThan(ports, current.updatedAt),
  });
  return { ...toWebhookSubscription(next), secret };
}

export async function removeWebhookSubscription(ports: Ports, session: AccountSession, id: string): Promise<void> {
  await loadWebhookSubscription(ports, session, id);
  await deleteWebhookSubscription(ports.table, session.accountId, id);
}

/** Now, or just after `previous` when the clock has not moved past it (versions must differ). */
function laterThan(ports: Ports, previous: string): string {
  const now = ports.clock().getTime();
  return new Date(Math.max(now, Date.parse(previous) + 1)).toISOString();
}
