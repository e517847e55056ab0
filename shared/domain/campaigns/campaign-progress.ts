/**
 * A campaign's live counts beyond sent and skipped (ADR-0227), from the stream: its
 * messages' acks (delivered, read, failed) and what the people did after (replied, opted out).
 * Each step is counted once per recipient: the recipient's item records what was counted, on
 * condition that it was not yet, in the transaction that adds to its lane's tallies; a stream
 * record delivered twice finds it counted and adds nothing.
 */
import { ack } from '#contracts/messages.ts';
import { type LaneTallies, laneTalliesStep } from '#db/campaigns.ts';
import type { ContactItem } from '#db/contacts.ts';
import type { MessageItem } from '#db/messages.ts';
import { refusedBy, type UpdateStep, writeTogether } from '#db/transaction.ts';
import { keys } from '#db/keys.ts';
import type { Ports } from '../ports.ts';

/** A reply or an opt-out counts on the campaign when it comes within this long of its message. */
export const campaignAttributionMs = 7 * 24 * 3600_000;

type Mark = 'delivered' | 'read' | 'failed' | 'replied' | 'optedOut';

/** The recipient gets `mark` once; `undo`: a failure a later success took back. */
function markStep(accountId: string, campaignId: string, recipient: string, mark: Mark, undo: boolean): UpdateStep {
  return {
    Update: {
      Key: { pk: keys.campaignRecipients(accountId, campaignId).pk, sk: recipient },
      UpdateExpression: undo ? 'REMOVE #mark' : 'SET #mark = :yes',
      ConditionExpression: undo ? '#mark = :yes' : 'attribute_not_exists(#mark)',
      ExpressionAttributeNames: { '#mark': mark },
      ExpressionAttributeValues: { ':yes': true },
    },
  };
}

async function count(
  ports: Ports,
  at: { accountId: string; campaignId: string; serviceId: string; recipient: string },
  mark: Mark,
  add: Partial<LaneTallies>,
  undo = false,
): Promise<boolean> {
  try {
    await writeTogether(ports.table, {
      recipient: markStep(at.accountId, at.campaignId, at.recipient, mark, undo),
      lane: laneTalliesStep({ accountId: at.accountId, campaignId: at.campaignId, serviceId: at.serviceId }, add),
    });
    return true;
  } catch (error) {
    // Counted already (or never failed), or the campaign is gone (its account or the campaign purged).
    if (refusedBy(error, 'recipient', 'lane')) return false;
    throw error;
  }
}

/** A campaign message changed: count the ack thresholds it crossed. */
export async function countMessageProgress(ports: Ports, previous: MessageItem | undefined, next: MessageItem): Promise<void> {
  if (!next.campaign) return;
  const at = { accountId: next.accountId, campaignId: next.campaign.id, serviceId: next.serviceId, recipient: next.campaign.recipient };
  const before = previous?.ack ?? ack.sending;
  if (next.ack === ack.error && before !== ack.error) await count(ports, at, 'failed', { failed: 1 });
  if (next.ack >= ack.sent && before === ack.error) {
    // A retry went through after a failure: it is not failed any more.
    await count(ports, at, 'failed', { failed: -1 }, true);
  }
  if (next.ack >= ack.delivered && before < ack.delivered) await count(ports, at, 'delivered', { delivered: 1 });
  if (next.ack >= ack.read && before < ack.read) await count(ports, at, 'read', { read: 1 });
}

/** A contact that received a campaign changed: a message from the person, or an opt-out, after it counts. */
export async function countContactProgress(ports: Ports, previous: ContactItem | undefined, next: ContactItem): Promise<void> {
  const last = next.lastCampaign;
  if (!last) return;
  const at = { accountId: next.accountId, campaignId: last.id, serviceId: last.serviceId, recipient: last.recipient };
  const sentAt = Date.parse(last.at);
  const within = (iso: string | null | undefined) => !!iso && Date.parse(iso) > sentAt && Date.parse(iso) - sentAt <= campaignAttributionMs;
  if (within(next.lastInboundAt) && next.lastInboundAt !== previous?.lastInboundAt) await count(ports, at, 'replied', { replied: 1 });
  if (within(next.optedOutAt) && !previous?.optedOutAt) await count(ports, at, 'optedOut', { optedOut: 1 });
}
