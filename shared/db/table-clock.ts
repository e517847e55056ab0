/**
 * The table's clock: DynamoDB's time as this process best knows it, learned from the `Date` header
 * of the table's answers. The contact change index is stamped with it, and the contact directory
 * reads the index by it, instead of by the host's own clock: a Lambda host, worker or channel whose
 * clock runs ahead or behind cannot put a change where readers look forever or never.
 *
 * The header carries whole seconds, so one reading is off by up to half a second plus the round
 * trip; readings are averaged. Until the first answer the host's clock stands in.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

let offsetMs: number | undefined;

/** DynamoDB's time now (epoch ms), as far as this process knows it. */
export function tableNow(): number {
  return Date.now() + (offsetMs ?? 0);
}

/** Takes one `Date` header the table answered with, received at `receivedAt` by the host's clock. */
export function observeTableDate(header: string | undefined, receivedAt: number = Date.now()): void {
  const stamped = header ? Date.parse(header) : Number.NaN;
  if (Number.isNaN(stamped)) return;
  // The server read its clock somewhere in [stamped, stamped + 1000) before the answer arrived.
  const reading = stamped + 500 - receivedAt;
  offsetMs = offsetMs === undefined || Math.abs(reading - offsetMs) > 5_000 ? reading : offsetMs + (reading - offsetMs) / 8;
}

/** Makes a client report the table's `Date` headers to the table clock. */
export function followTableClock<C extends Pick<DynamoDBClient, 'middlewareStack'>>(client: C): C {
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const headers = (result.response as { headers?: Record<string, string> } | undefined)?.headers;
      observeTableDate(headers?.date ?? headers?.Date);
      return result;
    },
    { step: 'deserialize', name: 'followTableClock', override: true },
  );
  return client;
}
