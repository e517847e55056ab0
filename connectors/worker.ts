/**
 * The channel worker of the local runtime: hosts a Telegram long-poller for every Telegram
 * connection that should run. It learns what should run from the table (the running index at
 * start, so started connections resume after a restart) and from the table's stream (every change
 * of a connection item), and stops every poller when the runtime stops.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { entityTypes } from '#db/keys.ts';
import { isRunningStatus, runningServices, type ServiceItem } from '#db/services.ts';
import type { Ports } from '#domain/ports.ts';
import { TelegramPoller } from './telegram/poller.ts';

export interface ChannelWorker {
  /** Stream consumer: follows changes of connection items. */
  onStreamEvent(event: DynamoDBStreamEvent): Promise<void>;
  /** How many connections are being polled. */
  readonly polling: number;
  stop(): Promise<void>;
}

export async function startChannelWorker(ports: Ports): Promise<ChannelWorker> {
  const pollers = new Map<string, TelegramPoller>();
  let stopped = false;
  // One change at a time, in order: a stop never overtakes the start before it.
  let queue: Promise<void> = Promise.resolve();

  const reconcile = async (serviceId: string, item: ServiceItem | undefined) => {
    const current = pollers.get(serviceId);
    const wanted = !stopped && item && item.channelType === 'telegram' && isRunningStatus(item.status) && item.runId && item.tokenSealed ? item : undefined;
    if (current && wanted && current.target.runId === wanted.runId) return;
    if (current) {
      pollers.delete(serviceId);
      await current.stop();
    }
    if (!wanted) return;
    const poller = new TelegramPoller(ports, {
      accountId: wanted.accountId,
      serviceId: wanted.id,
      token: await ports.vault.open(wanted.tokenSealed!),
      runId: wanted.runId!,
    });
    pollers.set(serviceId, poller);
    poller.start();
  };
  const enqueue = (serviceId: string, item: ServiceItem | undefined) => {
    const next = queue.then(() => reconcile(serviceId, item));
    queue = next.catch((error) => console.error(`[worker] connection ${serviceId}`, error));
    return next;
  };

  for (const item of await runningServices(ports.table, 'telegram')) void enqueue(item.id, item);

  return {
    async onStreamEvent(event) {
      for (const record of event.Records) {
        const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
        if (!image) continue;
        const item = unmarshall(image as Record<string, AttributeValue>) as ServiceItem;
        if (item.type !== entityTypes.service || item.channelType !== 'telegram') continue;
        void enqueue(item.id, record.eventName === 'REMOVE' ? undefined : item);
      }
    },
    get polling() {
      return pollers.size;
    },
    async stop() {
      stopped = true;
      await queue;
      await Promise.all([...pollers.values()].map((p) => p.stop()));
      pollers.clear();
    },
  };
}
