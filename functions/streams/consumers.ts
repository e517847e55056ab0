/** The table stream's consumers; the stack and the local runtime both read this list. */
export interface StreamConsumerDef {
  name: string;
  /** Module under functions/streams, without extension. */
  handler: string;
  batchSize: number;
}

export const streamConsumers: StreamConsumerDef[] = [
  { name: 'fanout', handler: 'fanout', batchSize: 100 },
  { name: 'dispatch-outbound', handler: 'dispatch-outbound', batchSize: 10 },
];
