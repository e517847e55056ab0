/**
 * A message's delivery states (acks), as stored and sent: a plain value without zod, so the inbox's
 * list (which shows the last message's ticks) does not fetch and build the schemas (messages.ts
 * holds those, and re-exports this for the API).
 */
export const ack = {
  error: -2,
  deleted: -1,
  sending: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  played: 4,
} as const;
