/**
 * Recomputes an account's report days from their conversation events (ADR-0234):
 * for operators, after a consumer failure or to fill in days from before the consumer existed; an
 * account's admins do the same with POST /api/reports/rebuild. Runs against the table TABLE_NAME
 * names, with the AWS credentials and region of the environment.
 *
 *   TABLE_NAME=Conversa-prod-Table… npx tsx scripts/rebuild-report-days.ts <accountId> <from YYYY-MM-DD> <to YYYY-MM-DD>
 *
 * A period longer than 92 days is done 92 days at a time.
 */
import { reportRebuildSchema } from '#contracts/reports.ts';
import { defaultTable } from '#db/client.ts';
import { nextDate } from '#domain/business-hours/zoned-time.ts';
import { rebuildReportDays } from '#domain/reports/report-rollups.ts';

const [accountId, from, to] = process.argv.slice(2);
if (!accountId || !from || !to || !process.env.TABLE_NAME) {
  console.error('usage: TABLE_NAME=<table> npx tsx scripts/rebuild-report-days.ts <accountId> <from YYYY-MM-DD> <to YYYY-MM-DD>');
  process.exit(2);
}
const ports = { table: defaultTable(), clock: () => new Date() };
let totals = { days: 0, events: 0 };
for (let start = from; start <= to; start = nextDate(start, 92)) {
  const end = [nextDate(start, 91), to].sort()[0]!;
  const period = reportRebuildSchema.safeParse({ from: start, to: end });
  if (!period.success) {
    console.error(period.error.issues.map((issue) => issue.message).join('; '));
    process.exit(2);
  }
  const done = await rebuildReportDays(ports, accountId, period.data);
  totals = { days: totals.days + done.days, events: totals.events + done.events };
  console.log(`${start} to ${end}: ${done.days} days, ${done.events} events`);
}
console.log(`rebuild-report-days: ${totals.days} days of ${accountId} computed again from ${totals.events} events`);
