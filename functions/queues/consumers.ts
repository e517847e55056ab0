/** The SQS queues and their consumers; the stack and the local runtime both read this list. */
export interface QueueConsumerDef {
  name: string;
  /** Module under functions/queues, without extension. */
  handler: string;
  /** The environment variable that gives the queue's URL to the consumer and the producers. */
  urlVariable: string;
  /** FIFO: one lane per message group, in order, one batch of a group in flight at a time. */
  fifo: true;
  /** Records per invocation (SQS allows 10 for FIFO queues). */
  batchSize: number;
  /** Handler timeout; the queue's visibility timeout is six times this. */
  timeoutSeconds: number;
  /** Receives after which a message goes to the dead-letter queue. */
  maxReceiveCount: number;
  /** Stream consumers (functions/streams/consumers.ts) that send to this queue. */
  producers: readonly string[];
}

export const queueConsumers: QueueConsumerDef[] = [
  {
    name: 'send-outbound',
    handler: 'send-outbound',
    urlVariable: 'OUTBOUND_QUEUE_URL',
    fifo: true,
    batchSize: 10,
    timeoutSeconds: 60,
    // Above dispatch's own bound (maxHandOvers), so a message the channel keeps delaying fails with
    // its reason (ack -2) instead of landing in the dead-letter queue.
    maxReceiveCount: 20,
    producers: ['dispatch-outbound'],
  },
];

/** The visibility timeout of a consumer's queue: AWS recommends six times the function's timeout. */
export function visibilityTimeoutSeconds(consumer: QueueConsumerDef): number {
  return consumer.timeoutSeconds * 6;
}
