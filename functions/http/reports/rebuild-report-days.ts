/** POST /api/reports/rebuild {from, to}: admins compute the period's daily rollups again from their events. */
import { reportRebuildSchema } from '#contracts/reports.ts';
import { rebuildReportDays } from '#domain/reports/report-rollups.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: reportRebuildSchema }).handler(async ({ ports, session, body }) =>
  ok(await rebuildReportDays(ports, session.accountId, body)),
);
