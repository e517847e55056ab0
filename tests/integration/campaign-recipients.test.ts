/**
 * A campaign's recipients who did not get its message, read from the table as the route reads them
 * (shared/db/campaigns.ts `recipientsWithOutcome`): dynalite applies a Query's `Limit` before its
 * filter, as DynamoDB does, so a page of the few skipped among many sent is read in rounds, capped,
 * and continued by a cursor without losing or repeating anyone.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { putRecipients, type RecipientItem, recipientItem, recipientsWithOutcome } from '#db/campaigns.ts';
import type { Table } from '#db/client.ts';

const table: Table = {
  name: inject('tableName'),
  doc: DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: inject('dynamoUrl'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  ),
};

describe("a campaign's recipients by outcome", () => {
  it('pages the skipped and the failed among 1,300 recipients in send order, each once, a page reading at most its cap', async () => {
    const at = { accountId: `acc-${process.pid}-${Date.now().toString(36)}`, campaignId: 'camp-1' };
    const items: RecipientItem[] = [];
    // Two connections; every 13th recipient skipped, every 17th failed (marked as campaign-progress.ts does).
    for (let i = 0; i < 1300; i++) {
      const item = recipientItem({ ...at, serviceId: i < 650 ? 'svc-a' : 'svc-b', contactId: `c-${String(i).padStart(4, '0')}`, fresh: i % 2 === 0 });
      if (i % 13 === 0) items.push({ ...item, state: 'skipped', reason: 'optedOut', at: '2026-11-28T10:00:00.000Z' });
      else if (i % 17 === 0) items.push({ ...item, state: 'sent', messageId: `m-${i}`, failed: true } as RecipientItem);
      else items.push({ ...item, state: 'sent', messageId: `m-${i}` });
    }
    await putRecipients(table, items);
    const inOrder = [...items].sort((a, b) => (a.sk < b.sk ? -1 : 1));

    const readAll = async (outcome: 'skipped' | 'failed', want: number, cap: number) => {
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const page = await recipientsWithOutcome(table, at, outcome, after, want, cap);
        expect(page.items.length).toBeLessThanOrEqual(want);
        seen.push(...page.items.map((r) => r.contactId));
        pages++;
        if (page.next === null) return { seen, pages };
        after = page.next;
      }
    };
    const skipped = inOrder.filter((r) => r.state === 'skipped').map((r) => r.contactId);
    const failed = inOrder.filter((r) => (r as { failed?: boolean }).failed).map((r) => r.contactId);
    expect(skipped).toHaveLength(100);
    expect(failed).toHaveLength(71);

    // Pages of 50 with room to read everything: two full pages and a last one that finds the end.
    const roomy = await readAll('skipped', 50, 2000);
    expect(roomy.seen).toEqual(skipped);
    expect(roomy.pages).toBeLessThanOrEqual(3);
    // A cap of 200 read a page: short pages with a cursor, nobody lost or repeated.
    const capped = await readAll('failed', 50, 200);
    expect(capped.seen).toEqual(failed);
    expect(capped.pages).toBeGreaterThanOrEqual(1300 / 200);
    // Another campaign of the account shares nothing.
    expect((await recipientsWithOutcome(table, { ...at, campaignId: 'camp-2' }, 'skipped', undefined, 50, 2000)).items).toEqual([]);
  });
});
