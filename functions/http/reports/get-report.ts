/** GET /api/reports?from&to&compare=previous: the period's figures (admins: the account's; members: their own). */
import { reportQuerySchema } from '#contracts/reports.ts';
import { getReport } from '#domain/reports/report-summary.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', query: reportQuerySchema }).handler(async ({ ports, session, query }) =>
  ok(await getReport(ports, session, query)),
);
