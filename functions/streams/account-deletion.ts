/**
 * Stream consumer: runs the next step of an account's purge for every change of its job item
 * (shared/domain/accounts/account-deletion.ts), until the job is done and its item removed.
 */
import { accountDeletionJob } from '#domain/accounts/account-deletion.ts';
import { steppedJobConsumer } from './stepped-job-consumer.ts';

export const handler = steppedJobConsumer(accountDeletionJob);
