/**
 * Queue consumer: hands each queued send to its channel (`dispatchQueued`) and reports partial
 * batch failures. Records are processed one at a time in the batch's order (FIFO semantics of
 * Powertools' `SqsFifoPartialProcessorAsync`); after a failure in a lane (a connection), the rest
 * of that lane in the batch is not processed and is reported failed (`skipGroupOnError`), while
 * other lanes go on.
 *
 * Nothing waits here. When the channel asks to come back in N seconds, or a send fails
 * unexpectedly, the failed records of that lane are kept out of sight for N seconds (or a growing
 * back-off) with ChangeMessageVisibility; SQS FIFO holds a group back while any of its messages is
 * in flight, so only that connection waits.
 *
 * Each answer counts as `MessagesSent` or `MessagesFailed` by channel.
 */
import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { backoffSeconds, dispatchQueued } from '#domain/messages/dispatch.ts';
import type { DispatchRequest } from '#domain/messages/outbound-queue.ts';
import { count, logger, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { sqsOutboundQueue } from '#lib/sqs-outbound-queue.ts';

const queue = sqsOutboundQueue();

/** The channel asked the lane to wait. */
class SendLater extends Error {
  constructor(readonly seconds: number) {
    super(`the channel asked to wait ${seconds} s`);
    this.name = 'SendLater';
  }
}

const groupOf = (record: SQSRecord) => record.attributes.MessageGroupId ?? '';
const receiveCountOf = (record: SQSRecord) => Number(record.attributes.ApproximateReceiveCount) || 1;

export const handler = observed(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const ports = defaultPorts();
  // How long each lane that failed in this batch must wait, set by its first failure.
  const waits = new Map<string, number>();

  const sendOne = async (record: SQSRecord) => {
    try {
      const outcome = await dispatchQueued(ports, JSON.parse(record.body) as DispatchRequest, {
        receiveCount: receiveCountOf(record),
        enqueuedAt: new Date(Number(record.attributes.SentTimestamp)),
      });
      if (outcome.kind === 'later') throw new SendLater(outcome.seconds);
      if (outcome.answer) count(outcome.answer.sent ? 'MessagesSent' : 'MessagesFailed', { channel: outcome.answer.channel ?? 'none' });
    } catch (error) {
      if (!(error instanceof SendLater)) logger.error('A queued send failed', { sqsMessageId: record.messageId, error: error as Error });
      waits.set(groupOf(record), error instanceof SendLater ? error.seconds : backoffSeconds(receiveCountOf(record)));
      throw error;
    }
  };

  // A processor per invocation: the local runtime may run batches of other lanes concurrently in one process.
  const response = await processPartialResponse(event, sendOne, new SqsFifoPartialProcessorAsync(), {
    context,
    skipGroupOnError: true,
    throwOnFullBatchFailure: false,
  });

  // The failed record and those skipped after it in its lane all wait the lane's time; left alone
  // they would stay in flight for the queue's whole visibility timeout, holding the lane.
  const records = new Map(event.Records.map((record) => [record.messageId, record]));
  const held = await Promise.allSettled(
    response.batchItemFailures.map(({ itemIdentifier }) => {
      const record = records.get(itemIdentifier)!;
      return queue.postpone(record.receiptHandle, waits.get(groupOf(record)) ?? backoffSeconds(receiveCountOf(record)));
    }),
  );
  // Not fatal: a record whose visibility could not be changed comes back after the queue's timeout.
  for (const result of held) if (result.status === 'rejected') logger.error('Could not postpone a record', { error: result.reason as Error });
  return response;
});
