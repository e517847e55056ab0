/**
 * The port of the send queue (an SQS FIFO queue in the cloud, its emulator locally): one lane per
 * connection, so one connection's sends go out in order and one at a time, and a connection the
 * channel asks to wait holds back its own lane only, never another account's.
 */

/** What the queue carries: which attempt of which message to hand to its channel. The message itself is read when it is sent. */
export interface DispatchRequest {
  accountId: string;
  contactId: string;
  messageId: string;
  /** The connection: the lane the request waits in. */
  serviceId: string;
  sendAttempt: number;
}

export interface OutboundQueue {
  /**
   * Adds requests at the end of their connections' lanes, in the order given. A request for the
   * same message and attempt as one added in the last five minutes is not added again.
   */
  enqueue(requests: readonly DispatchRequest[]): Promise<void>;
}

/** Where a request stands when it is handed over: how often it was handed over and since when it waits. */
export interface DispatchDelivery {
  /** 1 on the first hand-over. */
  receiveCount: number;
  enqueuedAt: Date;
}
