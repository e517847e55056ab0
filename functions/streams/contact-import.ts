/**
 * Stream consumer: runs the next step of a contact import's check or import for every change of its
 * item while a pass runs (shared/domain/contact-import/contact-import.ts).
 */
import { contactImportJob } from '#domain/contact-import/contact-import.ts';
import { steppedJobConsumer } from './stepped-job-consumer.ts';

export const handler = steppedJobConsumer(contactImportJob);
