/**
 * Deleting an account (LGPD): the request ends the account at once (its users, so every session
 * and sign-in of it is refused, and the account item), and a purge job removes everything else in
 * the background, a bounded step at a time (`runDeletionStep`, called by the `account-deletion`
 * stream consumer for every change of the job item, which each step makes). Every step is
 * idempotent: it deletes what is still there, so a step retried or a purge resumed after a restart
 * (`resumeAccountDeletions`) does no harm. See ADR-0115.
 */
import {
  accountDeletionItem,
  advanceAccountDeletion,
  getAccountDeletion,
  newDeletionStep,
  pendingAccountDeletions,
  rememberDeletedServices,
  removeAccountDeletion,
  startDeletionStep,
  type AccountDeletionItem,
  type DeletionPhase,
} from '#db/account-deletions.ts';
import { getAccountItem } from '#db/accounts.ts';
import { releaseClaimStep } from '#db/channel-records.ts';
import { deleteCloudWebhookStep } from '#db/cloud-webhooks.ts';
import { accountObjectPrefix, keys, type Key } from '#db/keys.ts';
import { readLease } from '#db/leases.ts';
import { deleteKeys, firstItems, purgePartition } from '#db/partition-purge.ts';
import { accountServices } from '#db/services.ts';
import { deleteStep, refusedBy, writeTogether } from '#db/transaction.ts';
import { accountUsers, deleteAccountUsers } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import type { ResumeOptions } from '../job-staleness.ts';
import { forgetConnection } from '../services/lifecycle.ts';
import { exclusiveClaim } from '../services/services.ts';
import { resumeJobs, runJobStep, type SteppedJob, type StepResult } from '../stepped-job.ts';
import { apiTokenLimit } from '../api-tokens/api-token-calls.ts';
import { accountDeletedMail } from './deletion-mail.ts';
import { eventMonths } from '../reports/event-months.ts';

/** Items deleted by one step at most, so a step ends well inside its function's timeout. */
const stepBudget = 400;
/** How long the purge waits for the channel worker to let go of the account's sessions. */
const sessionWaitMs = 90_000;
/** A request that stopped before starting its job (a crash) is taken over after this long. */
const requestGraceMs = 60_000;

/**
 * 'Excluir conta' (the owner only). Answers once the account is unusable: the job is stored first
 * (so a request that dies half way still ends in a purge), then the users go (every session ends),
 * then the account item goes as the job starts.
 */
export async function deleteAccount(ports: Ports, session: AccountSession, id: string): Promise<void> {
  if (id !== session.accountId) throw fail.notFound();
  const account = await getAccountItem(ports.table, session.accountId);
  if (!account) throw fail.notFound();
  if (!session.user.isOwner) throw fail.forbidden();
  const users = await accountUsers(ports.table, account.id);
  const job = accountDeletionItem({
    accountId: account.id,
    accountName: account.name,
    ownerName: session.user.name,
    ownerEmail: session.user.email,
    userIds: users.map((u) => u.id),
    stripeCustomerId: account.stripeCustomerId ?? null,
    accountCreatedAt: account.createdAt,
    requestedAt: ports.clock().toISOString(),
  });
  try {
    await writeTogether(ports.table, { job: newDeletionStep(job) });
  } catch (error) {
    // A deletion already asked for (a repeated request): it runs.
    if (refusedBy(error, 'job')) return;
    throw error;
  }
  await deleteAccountUsers(ports.table, account.id, users);
  await writeTogether(ports.table, { start: startDeletionStep(account.id, ports.clock().toISOString()), account: deleteStep(keys.account(account.id)) });
}

interface Progress {
  phase?: DeletionPhase;
  waitingSince?: string | null;
  removedItems?: number;
  removedObjects?: number;
}

const next = (phase: DeletionPhase): DeletionPhase => {
  const order: DeletionPhase[] = ['requested', 'connections', 'sessions', 'contacts', 'partitions', 'files', 'notify'];
  return order[order.indexOf(phase) + 1] ?? 'notify';
};

/** Stops, logs out and removes the account's connections, a few at a time. */
async function removeConnections(ports: Ports, job: AccountDeletionItem): Promise<Progress> {
  const services = (await accountServices(ports.table, job.accountId)).slice(0, 25);
  if (!services.length) return { phase: next(job.phase) };
  await rememberDeletedServices(
    ports.table,
    job.accountId,
    services.map((s) => s.id),
  );
  for (const service of services) {
    // Unpairs on the channel (WhatsApp: a logout queued for the worker holding the session;
    // Telegram: the webhook goes); a failure there does not keep the data.
    await forgetConnection(ports, service);
    const claim = exclusiveClaim(ports, service.channelType, service.tokenSealed ? await ports.vault.open(service.tokenSealed) : null);
    await writeTogether(ports.table, {
      service: deleteStep(keys.service(job.accountId, service.id)),
      claim: claim && releaseClaimStep(claim, { serviceId: service.id }),
      hook: service.channelType === 'whatsapp_cloud' ? deleteCloudWebhookStep(service.id) : null,
    });
  }
  return { removedItems: services.length };
}

/** Waits (up to `sessionWaitMs`) until no channel worker holds a session of the account's connections. */
async function awaitSessions(ports: Ports, job: AccountDeletionItem): Promise<StepResult<Progress>> {
  const now = ports.clock().getTime();
  const leases = await Promise.all([...(job.serviceIds ?? [])].map((id) => readLease(ports.table, id)));
  const held = leases.filter((l) => l && l.expiresAt > now);
  const since = job.waitingSince ? Date.parse(job.waitingSince) : now;
  // Still held: ask again in a second.
  if (held.length && now - since < sessionWaitMs) return { progress: { waitingSince: new Date(since).toISOString() }, pauseMs: 1000 };
  return { progress: { phase: next(job.phase), waitingSince: null } };
}

/** Removes contacts (and deleted contacts not purged yet) with all their messages. */
async function removeContacts(ports: Ports, job: AccountDeletionItem): Promise<Progress> {
  const partition = keys.accountPartition(job.accountId).pk;
  let removed = 0;
  while (removed < stepBudget) {
    const contacts = await firstItems<Key & { id: string }>(ports.table, partition, 25, keys.accountContacts(job.accountId).skPrefix.slice(0, -1));
    if (!contacts.length) return { phase: next(job.phase), removedItems: removed };
    for (const contact of contacts) {
      const messages = await purgePartition(ports.table, keys.contactPartition(job.accountId, contact.id).pk, stepBudget - removed);
      removed += messages.removed;
      if (!messages.empty) return { removedItems: removed };
      removed += await deleteKeys(ports.table, [contact]);
    }
  }
  return { removedItems: removed };
}

/**
 * Everything else of the account in the table: its connections' partitions (channel contacts and
 * messages, adapters' records such as WhatsApp's auth state), session leases, realtime connections,
 * its campaigns' partitions, its API tokens' calls, its conversation events' month partitions, the
 * rest of its own partition, its users' one-time codes and its payment customer.
 */
async function removePartitions(ports: Ports, job: AccountDeletionItem): Promise<Progress> {
  let removed = 0;
  const budget = () => stepBudget - removed;
  for (const serviceId of job.serviceIds ?? []) {
    const result = await purgePartition(ports.table, keys.servicePartition(job.accountId, serviceId).pk, budget());
    removed += result.removed;
    if (!result.empty) return { removedItems: removed };
  }
  const sockets = keys.accountConnections(job.accountId).pk;
  for (;;) {
    const items = await firstItems<Key & { connectionId: string }>(ports.table, sockets, Math.min(100, budget()));
    if (!items.length) break;
    removed += await deleteKeys(ports.table, [...items.map((i) => keys.connection(i.connectionId)), ...items]);
    if (budget() <= 0) return { removedItems: removed };
  }
  // Campaigns' own partitions (recipients and lanes: ADR-0227), found through their items before the account's partition goes.
  for (;;) {
    const campaigns = await firstItems<Key & { id: string }>(
      ports.table,
      keys.accountPartition(job.accountId).pk,
      25,
      keys.accountCampaigns(job.accountId).skPrefix,
    );
    if (!campaigns.length) break;
    for (const campaign of campaigns) {
      const result = await purgePartition(ports.table, keys.campaignRecipients(job.accountId, campaign.id).pk, budget());
      removed += result.removed;
      if (!result.empty) return { removedItems: removed };
    }
    removed += await deleteKeys(
      ports.table,
      campaigns.map(({ pk, sk }) => ({ pk, sk })),
    );
    if (budget() <= 0) return { removedItems: removed };
  }
  // API tokens (ADR-0232): each token's audited calls, lookup item and rate log live outside the account's partition.
  for (;;) {
    const tokens = await firstItems<Key & { id: string; digest: string }>(
      ports.table,
      keys.accountPartition(job.accountId).pk,
      25,
      keys.accountApiTokens(job.accountId).skPrefix,
    );
    if (!tokens.length) break;
    for (const token of tokens) {
      const result = await purgePartition(ports.table, keys.apiTokenCalls(job.accountId, token.id).pk, budget());
      removed += result.removed;
      if (!result.empty) return { removedItems: removed };
    }
    removed += await deleteKeys(ports.table, [
      ...tokens.flatMap((t) => [keys.apiTokenLookup(t.digest), keys.rate(apiTokenLimit.scope, t.id)]),
      ...tokens.map(({ pk, sk }) => ({ pk, sk })),
    ]);
    if (budget() <= 0) return { removedItems: removed };
  }
  // Conversation events (ADR-0234) live in a partition per month, outside the account's.
  for (const month of eventMonths(job, ports.clock())) {
    const result = await purgePartition(ports.table, keys.conversationEventsOf(job.accountId, month).pk, budget());
    removed += result.removed;
    if (!result.empty) return { removedItems: removed };
  }
  const own = await purgePartition(ports.table, keys.accountPartition(job.accountId).pk, budget());
  removed += own.removed;
  if (!own.empty) return { removedItems: removed };
  removed += await deleteKeys(ports.table, [
    ...[...(job.serviceIds ?? [])].map((id) => keys.sessionLease(id)),
    ...job.userIds.map((id) => keys.verifyCode(id)),
    ...(job.stripeCustomerId ? [keys.billingCustomer(job.stripeCustomerId)] : []),
  ]);
  return { phase: next(job.phase), removedItems: removed };
}

/** Every object of the account in the bucket (files, avatars). */
async function removeObjects(ports: Ports, job: AccountDeletionItem): Promise<Progress> {
  const objects = await ports.storage.list(accountObjectPrefix(job.accountId), stepBudget);
  if (!objects.length) return { phase: next(job.phase) };
  await ports.storage.remove(objects);
  return { removedObjects: objects.length };
}

/** One step of an account's purge, by its phase. */
async function deletionStep(ports: Ports, job: AccountDeletionItem): Promise<StepResult<Progress>> {
  switch (job.phase) {
    case 'requested':
      // The request starts its job; one that died before it did is taken over after a while.
      if (ports.clock().getTime() - Date.parse(job.requestedAt) < requestGraceMs) return null;
      await deleteAccountUsers(ports.table, job.accountId, await accountUsers(ports.table, job.accountId));
      return { progress: { phase: next(job.phase) } };
    case 'connections':
      return { progress: await removeConnections(ports, job) };
    case 'sessions':
      return awaitSessions(ports, job);
    case 'contacts':
      return { progress: await removeContacts(ports, job) };
    case 'partitions':
      return { progress: await removePartitions(ports, job) };
    case 'files':
      return { progress: await removeObjects(ports, job) };
    case 'notify':
      await ports.mailer.send(accountDeletedMail(job));
      return { done: true };
  }
}

/** An account's purge as a stepped job: its item goes once the owner is told. */
export const accountDeletionJob: SteppedJob<string, AccountDeletionItem, Progress> = {
  refOf: (image) => (typeof image.accountId === 'string' ? image.accountId : undefined),
  get: getAccountDeletion,
  isRunning: () => true,
  step: deletionStep,
  advance: advanceAccountDeletion,
  nudge: () => ({}),
  finish: (table, job) => removeAccountDeletion(table, job.accountId),
  pending: pendingAccountDeletions,
  steppedAt: (job) => job.steppedAt ?? job.requestedAt,
};

/** One step of an account's purge, for a change of its job item (`runJobStep`). */
export const runDeletionStep = (ports: Ports, accountId: string) => runJobStep(ports, accountDeletionJob, accountId);

/** Moves unfinished purges on: every one (a restart), or those stalled (`resumeJobs`). */
export const resumeAccountDeletions = (ports: Pick<Ports, 'table' | 'clock'>, options: ResumeOptions = {}) => resumeJobs(ports, accountDeletionJob, options);
