/**
 * Delivering webhook events (ADR-0233). Every attempt of a delivery is claimed
 * first (a conditional write on its attempt count), then signed with the subscription's secret at
 * the attempt's time and posted through the `WebhookSender` port, which refuses private and
 * internal destinations. A 2xx is a success; any other status, or a refusal, is a failure whose
 * reason goes to the log, and the delivery waits for its next attempt (retry-schedule.ts).
 *
 * The first attempt comes from the stream as the delivery is written (`webhook-deliveries`); the
 * retries from the minute poller (`deliverDueWebhooks`). When a delivery's last attempt fails and
 * its subscription has had no success since that delivery began (a day of failures), the
 * subscription is switched off and the account's admins get an e-mail, once.
 */
import { signWebhookPayload, webhookSignatureHeader } from './webhook-signature.ts';
import type { WebhookPostResult } from './webhook-sender.ts';
import { type WebhookAttempt, type WebhookDelivery, type WebhookEventBody, webhookTestEventType } from '#contracts/webhooks.ts';
import { accountUsers } from '#db/users.ts';
import {
  autoDisableWebhookSubscription,
  claimWebhookAttempt,
  dueWebhookDeliveriesOf,
  getWebhookSubscription,
  noteWebhookFailure,
  noteWebhookSuccess,
  putNewWebhookDelivery,
  recordWebhookAttempt,
  type WebhookDeliveryItem,
  type WebhookSubscriptionItem,
  webhookDeliveriesOf,
  webhookDeliveryItem,
  webhookShards,
} from '#db/webhooks.ts';
import { getAccountItem } from '#db/accounts.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { webhookDisabledMail } from './disabled-mail.ts';
import { nextAttemptAt } from './retry-schedule.ts';
import { loadWebhookSubscription } from './subscriptions.ts';

/** How long a claimed attempt is held: longer than the sender's whole timeout; a run that dies leaves the delivery due again after it. */
const claimMs = 2 * 60_000;

/** Deliveries posted at once by one poller run. */
const parallelPosts = 10;

/** How much of the receiver's answer the log keeps. */
const snippetLength = 200;

export type AttemptResult = 'delivered' | 'retry' | 'failed' | 'cancelled' | 'taken';

/** The signature header: the current secret's, and the previous one's beside it while a rotation's grace lasts. */
async function signatureOf(ports: Ports, subscription: WebhookSubscriptionItem, body: string, at: Date): Promise<string> {
  const t = Math.floor(at.getTime() / 1000);
  const header = signWebhookPayload(await ports.vault.open(subscription.sealedSecret), t, body);
  const previous = subscription.previousSealedSecret;
  if (!previous || !subscription.previousSecretUntil || subscription.previousSecretUntil <= at.toISOString()) return header;
  const old = signWebhookPayload(await ports.vault.open(previous), t, body);
  return `${header},${old.slice(old.indexOf('v1='))}`;
}

async function post(
  ports: Ports,
  subscription: WebhookSubscriptionItem,
  delivery: Pick<WebhookDeliveryItem, 'eventId' | 'eventType' | 'body'>,
  attempt: number,
  at: Date,
) {
  return ports.webhooks.post({
    url: subscription.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Conversa-Webhooks/1.0',
      [webhookSignatureHeader]: await signatureOf(ports, subscription, delivery.body, at),
      'Conversa-Event-Id': delivery.eventId,
      'Conversa-Event-Type': delivery.eventType,
      'Conversa-Delivery-Attempt': String(attempt),
    },
    body: delivery.body,
  });
}

function attemptOf(result: WebhookPostResult, attempt: number, at: Date): WebhookAttempt {
  if (result.outcome === 'answered') {
    const ok = result.status >= 200 && result.status < 300;
    return {
      attempt,
      at: at.toISOString(),
      outcome: ok ? 'success' : 'http_error',
      status: result.status,
      ms: result.ms,
      detail: result.bodySnippet.slice(0, snippetLength),
    };
  }
  return { attempt, at: at.toISOString(), outcome: result.reason, status: null, ms: result.ms, detail: result.detail.slice(0, snippetLength) };
}

/** Makes the delivery's next attempt, if it is still due and no one else took it. */
export async function attemptWebhookDelivery(ports: Ports, delivery: WebhookDeliveryItem): Promise<AttemptResult> {
  const at = ports.clock();
  const claimUntil = new Date(at.getTime() + claimMs).toISOString();
  // Due by the caller's reading of it: the stream's first attempt may run on a host whose clock is
  // a little behind the one that wrote the delivery (the attempt count still makes it one attempt).
  const dueBy = delivery.nextAttemptAt && delivery.nextAttemptAt > at.toISOString() ? delivery.nextAttemptAt : at.toISOString();
  if (!(await claimWebhookAttempt(ports.table, delivery, dueBy, claimUntil))) return 'taken';
  const number = delivery.attemptCount + 1;
  const subscription = await getWebhookSubscription(ports.table, delivery.accountId, delivery.subscriptionId);
  if (!subscription?.enabled) {
    const attempt: WebhookAttempt = { attempt: number, at: at.toISOString(), outcome: 'subscription_off', status: null, ms: 0, detail: '' };
    await recordWebhookAttempt(ports.table, delivery, attempt, { state: 'cancelled' });
    return 'cancelled';
  }
  const attempt = attemptOf(await post(ports, subscription, delivery, number, at), number, at);
  if (attempt.outcome === 'success') {
    await recordWebhookAttempt(ports.table, delivery, attempt, { state: 'delivered' });
    await noteWebhookSuccess(ports.table, delivery.accountId, delivery.subscriptionId, at.toISOString());
    return 'delivered';
  }
  const next = nextAttemptAt(number, at.getTime());
  await recordWebhookAttempt(
    ports.table,
    delivery,
    attempt,
    next === null ? { state: 'failed' } : { state: 'pending', nextAttemptAt: new Date(next).toISOString() },
  );
  await noteWebhookFailure(ports.table, delivery.accountId, delivery.subscriptionId, at.toISOString());
  if (next !== null) return 'retry';
  // The last attempt failed: a day without a success switches the subscription off.
  if (await autoDisableWebhookSubscription(ports.table, delivery.accountId, delivery.subscriptionId, delivery.createdAt, at.toISOString())) {
    await mailAdmins(ports, subscription, at);
  }
  return 'failed';
}

async function mailAdmins(ports: Ports, subscription: WebhookSubscriptionItem, at: Date): Promise<void> {
  const [users, account] = await Promise.all([accountUsers(ports.table, subscription.accountId), getAccountItem(ports.table, subscription.accountId)]);
  const admins = users.filter((u) => u.isAdmin && !u.archivedAt && u.email);
  for (const admin of admins) {
    await ports.mailer.send(
      webhookDisabledMail({ to: admin.email, name: admin.name, accountName: account?.name ?? '', url: subscription.url, at, appUrl: ports.appUrl }),
    );
  }
}

export interface WebhookRun {
  delivered: number;
  retry: number;
  failed: number;
  cancelled: number;
  taken: number;
}

/**
 * The minute poller: makes every attempt due by the ports' clock, `parallelPosts` at a time, and
 * takes no new one after `until` (epoch ms): what is left stays due for the next run.
 */
export async function deliverDueWebhooks(ports: Ports, until = Number.POSITIVE_INFINITY): Promise<WebhookRun> {
  const run: WebhookRun = { delivered: 0, retry: 0, failed: 0, cancelled: 0, taken: 0 };
  const now = ports.clock().toISOString();
  for (let shard = 0; shard < webhookShards; shard++) {
    for (;;) {
      const due = await dueWebhookDeliveriesOf(ports.table, shard, now);
      for (let i = 0; i < due.length && Date.now() < until; i += parallelPosts) {
        const results = await Promise.all(due.slice(i, i + parallelPosts).map((delivery) => attemptWebhookDelivery(ports, delivery)));
        for (const result of results) run[result]++;
      }
      if (due.length < 100 || Date.now() >= until) break;
    }
  }
  return run;
}

export function toWebhookDelivery(item: WebhookDeliveryItem): WebhookDelivery {
  return {
    id: item.id,
    eventId: item.eventId,
    eventType: item.eventType,
    state: item.state,
    attempts: item.attempts,
    nextAttemptAt: item.state === 'pending' ? item.nextAttemptAt : null,
    createdAt: item.createdAt,
  };
}

/** A subscription's last deliveries, newest first. */
export async function listWebhookDeliveries(ports: Ports, session: AccountSession, subscriptionId: string): Promise<WebhookDelivery[]> {
  await loadWebhookSubscription(ports, session, subscriptionId);
  return (await webhookDeliveriesOf(ports.table, session.accountId, subscriptionId, 50)).map(toWebhookDelivery);
}

/**
 * 'Enviar evento de teste': a `ping` posted now, whether the subscription is on or not, its
 * answer returned and kept in the log. It is not retried and does not count for switching off.
 */
export async function sendWebhookTestEvent(ports: Ports, session: AccountSession, subscriptionId: string): Promise<WebhookDelivery> {
  const subscription = await loadWebhookSubscription(ports, session, subscriptionId);
  const at = ports.clock();
  const id = `evt_${ports.newId(at.getTime())}`;
  const body: WebhookEventBody = {
    id,
    type: webhookTestEventType,
    createdAt: at.toISOString(),
    accountId: session.accountId,
    data: { subscriptionId, message: 'Evento de teste do Conversa' },
  };
  const delivery = webhookDeliveryItem({
    id,
    accountId: session.accountId,
    subscriptionId,
    eventId: id,
    eventType: webhookTestEventType,
    body: JSON.stringify(body),
    nextAttemptAt: null,
    createdAt: at.toISOString(),
  });
  const attempt = attemptOf(await post(ports, subscription, delivery, 1, at), 1, at);
  const done: WebhookDeliveryItem = { ...delivery, state: attempt.outcome === 'success' ? 'delivered' : 'failed', attemptCount: 1, attempts: [attempt] };
  await putNewWebhookDelivery(ports.table, done);
  return toWebhookDelivery(done);
}
