/**
 * The body of a stepped job's stream consumer (shared/domain/stepped-job.ts): the jobs whose items
 * changed in the batch, each once, get their next step in turn. Each step changes its item again,
 * which brings the step after it here, until the job is done.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runJobStep, type SteppedJob } from '#domain/stepped-job.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export function steppedJobConsumer<Ref, Job, Progress>(job: SteppedJob<Ref, Job, Progress>) {
  return observed(async (event: DynamoDBStreamEvent): Promise<void> => {
    const ports = defaultPorts();
    const refs = new Map<string, Ref>();
    for (const record of event.Records) {
      const next = imagesOf(record).next;
      const ref = next && job.refOf(next);
      if (ref !== undefined) refs.set(JSON.stringify(ref), ref);
    }
    // A failure retries the batch; every step does only what is still to do.
    for (const ref of refs.values()) await runJobStep(ports, job, ref);
  });
}
