/**
 * The tests' stand-in for the channel worker: the same domain calls a connector makes (status
 * changes, inbound messages, acks), made from the test process against the runtime's table and
 * bucket, as the worker process does in the cloud.
 */
import { inject } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ports } from '#domain/ports.ts';
import type { ChannelWorker, CommandOutcome } from '#connectors/worker.ts';
import { keys } from '#db/keys.ts';
import type { ServiceStatus } from '#contracts/services.ts';
import { runtimePorts } from '../support/runtime-ports.ts';

let ports: Ports | undefined;

export function workerPorts(): Ports {
  if (!ports) {
    ports = runtimePorts({
      url: inject('baseUrl'),
      dynamoUrl: inject('dynamoUrl'),
      tableName: inject('tableName'),
      s3Url: inject('s3Url'),
      bucketName: inject('bucketName'),
      dataDir: inject('dataDir'),
      outboxDir: inject('outboxDir'),
    });
  }
  return ports;
}

/** Sets a connection's status, as the worker does when a channel connects or drops. */
export async function setServiceStatus(accountId: string, serviceId: string, status: ServiceStatus): Promise<void> {
  const { table } = workerPorts();
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.service(accountId, serviceId),
      UpdateExpression: 'SET #status = :status, updatedAt = :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':now': new Date().toISOString() },
    }),
  );
}

export const fakeChannel = {
  async sent(): Promise<any[]> {
    return (await fetch(`${inject('fakeChannelUrl')}/sent`)).json() as Promise<any[]>;
  },
  async script(answers: unknown[]): Promise<void> {
    await fetch(`${inject('fakeChannelUrl')}/script`, { method: 'POST', body: JSON.stringify(answers) });
  },
};

/** Waits until `check` answers something truthy (polling), or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Tells a worker that a connection changed, as the `changed` command `notify-worker` queues would. */
export function tellChanged(worker: ChannelWorker, accountId: string, serviceId: string): Promise<CommandOutcome> {
  return worker.run({ kind: 'changed', accountId, serviceId, change: `test-${Date.now()}` }, { receiveCount: 1, enqueuedAt: new Date() });
}
