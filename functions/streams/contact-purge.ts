/**
 * Stream consumer: runs the next step of a deleted contact's purge (its messages, files and avatar)
 * for every change of its tombstone while the purge lasts (shared/domain/contacts/contact-purge.ts).
 */
import { contactPurgeJob } from '#domain/contacts/contact-purge.ts';
import { steppedJobConsumer } from './stepped-job-consumer.ts';

export const handler = steppedJobConsumer(contactPurgeJob);
