/**
 * Stream consumer: runs the next step of an export of an account's data for every change of its
 * item while it runs (shared/domain/accounts/account-export.ts).
 */
import { accountExportJob } from '#domain/accounts/account-export.ts';
import { steppedJobConsumer } from './stepped-job-consumer.ts';

export const handler = steppedJobConsumer(accountExportJob);
