/**
 * The channel worker's queue (SQS FIFO, one message group per connection): what must reach the
 * worker that holds a connection's session. Connection changes (so the worker converges on the
 * desired state without waiting for its scan), sends of channels whose socket lives in the worker
 * (WhatsApp) and logouts. Its consumer is the channel worker process (Fargate in the cloud, inside
 * `npm start` locally), not a function; the stack and the local runtime both read this definition.
 * The commands are `shared/domain/channels/worker-commands.ts`.
 */
export interface WorkerQueueDef {
  name: string;
  /** The environment variable that gives the queue's URL to the worker and the producers. */
  urlVariable: string;
  /** How long a received command stays out of sight before another worker may receive it. */
  visibilityTimeoutSeconds: number;
  /** Receives after which a command goes to the dead-letter queue. */
  maxReceiveCount: number;
  /** Stream consumers (functions/streams/consumers.ts) that send to this queue. */
  producers: readonly string[];
  /**
   * HTTP handler modules (under functions/http, without extension) that send to this queue: a
   * logout of a channel whose session is held by the worker is queued for it (the lifecycle's
   * `stop` with `logout`, reached by the logout and delete routes), and the read receipts of a
   * conversation an agent opened (the mark-read route), and the check of a contact made by hand
   * (the create-contact route).
   */
  routeProducers: readonly string[];
}

export const workerQueue: WorkerQueueDef = {
  name: 'channel-worker',
  urlVariable: 'WORKER_QUEUE_URL',
  visibilityTimeoutSeconds: 120,
  // Receives count every worker that gave a command back to the holder (about one per other live
  // worker before the holder gets it), so this sits well above dispatch's maxHandOvers.
  maxReceiveCount: 50,
  producers: ['dispatch-outbound', 'notify-worker', 'account-deletion'],
  routeProducers: ['services/logout-service', 'services/delete-service', 'contacts/mark-contact-read', 'contacts/create-contact'],
};
