/**
 * Who did not get a campaign's message, and why (GET /campaigns/{id}/recipients): those skipped
 * when their turn came, with the reason the lane recorded (feed-lane.ts), or those whose message
 * failed, with the channel's reason from the message. Paged in send order by a cursor over the
 * recipients' sort keys; a page reads at most `readCap` recipients, so a large campaign with few
 * of them answers a short page with a cursor rather than reading every recipient at once (ADR-0243).
 */
import {
  type CampaignRecipient,
  type CampaignRecipientsPage,
  type CampaignRecipientsQuery,
  type CampaignSkipReason,
  campaignRecipientsPageSize,
  campaignSkipReasons,
} from '#contracts/campaigns.ts';
import { errorTexts } from '#contracts/errors.ts';
import { getItems, isAt } from '#db/batch-get.ts';
import { getCampaignItem, type RecipientItem, recipientsWithOutcome } from '#db/campaigns.ts';
import type { ContactItem } from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import type { MessageItem } from '#db/messages.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

/** Recipients one page reads at most (the filter reads those it leaves out): about 90 read units (ADR-0243). */
export const readCap = 2000;

/** A failed message with no reason recorded (sent before reasons were kept). */
const failedText = 'O envio falhou';

const refusedCursor = () => fail.invalid(errorTexts.invalidParams, [{ path: 'after', message: 'Cursor de outra lista' }]);

function decodeAfter(after: string | undefined): string | undefined {
  if (after === undefined) return undefined;
  const sk = Buffer.from(after, 'base64url').toString('utf8');
  if (!sk.startsWith('R#') || Buffer.from(sk, 'utf8').toString('base64url') !== after) throw refusedCursor();
  return sk;
}

const skipText = (reason: string | undefined) =>
  reason && Object.hasOwn(campaignSkipReasons, reason) ? campaignSkipReasons[reason as CampaignSkipReason] : 'Deixado de fora da campanha';

export async function listCampaignRecipients(
  ports: Ports,
  session: AccountSession,
  campaignId: string,
  query: CampaignRecipientsQuery,
): Promise<CampaignRecipientsPage> {
  const after = decodeAfter(query.after);
  const campaign = await getCampaignItem(ports.table, session.accountId, campaignId);
  if (!campaign) throw fail.notFound();
  const { items, next } = await recipientsWithOutcome(
    ports.table,
    { accountId: session.accountId, campaignId },
    query.outcome,
    after,
    campaignRecipientsPageSize,
    readCap,
  );
  const contactKeys = items.map((r) => keys.contact(session.accountId, r.contactId));
  const messageKeys = items.flatMap((r) => (query.outcome === 'failed' && r.messageId ? [keys.message(session.accountId, r.contactId, r.messageId)] : []));
  const found = await getItems(ports.table, [...contactKeys, ...messageKeys]);
  const data = items.map((r): CampaignRecipient => {
    const contact = found.find(isAt(keys.contact(session.accountId, r.contactId))) as ContactItem | undefined;
    return {
      contactId: r.contactId,
      name: contact?.name ?? null,
      phoneNumber: contact?.phoneNumber ?? null,
      serviceId: r.serviceId,
      outcome: query.outcome,
      reason: query.outcome === 'skipped' ? skipText(r.reason) : failureOf(r, found),
      at: r.at ?? null,
    };
  });
  return { data, nextCursor: next === null ? null : Buffer.from(next, 'utf8').toString('base64url') };
}

function failureOf(r: RecipientItem, found: Record<string, unknown>[]): string {
  if (!r.messageId) return failedText;
  const message = found.find(isAt(keys.message(r.accountId, r.contactId, r.messageId))) as MessageItem | undefined;
  return message?.error || failedText;
}
