/**
 * The scheduled resume of background jobs whose chain of steps broke (functions/schedules/resume-jobs.ts):
 * account purges, contact purges, account exports and contact imports whose last step is older than `stallAfterMs`
 * are moved on once, each conditionally on the round it was seen at, so a live chain or a second
 * resumer is never doubled.
 */
import { resumeAccountDeletions } from './accounts/account-deletion.ts';
import { resumeAccountExports } from './accounts/account-export.ts';
import { resumeContactImports } from './contact-import/contact-import.ts';
import { resumeContactPurges } from './contacts/contact-purge.ts';
import { stallAfterMs } from './job-staleness.ts';
import type { Ports } from './ports.ts';

export interface ResumedJobs {
  accountDeletions: number;
  contactPurges: number;
  accountExports: number;
  contactImports: number;
}

export async function resumeStalledJobs(ports: Pick<Ports, 'table' | 'clock'>, stalledFor = stallAfterMs): Promise<ResumedJobs> {
  const options = { stalledFor };
  return {
    accountDeletions: await resumeAccountDeletions(ports, options),
    contactPurges: await resumeContactPurges(ports, options),
    accountExports: await resumeAccountExports(ports, options),
    contactImports: await resumeContactImports(ports, options),
  };
}
