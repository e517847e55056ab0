/**
 * The channel worker: hosts a session for every connection whose adapter holds sessions
 * (`ports.channels`, each adapter's `sessions`: Telegram long polling where no webhook reaches,
 * WhatsApp's socket). It reconciles: the desired state of each connection is in the table (its
 * status and run), learnt from the running index at start (so started connections resume after a
 * restart) and from the table's stream; the worker opens, replaces or closes the connection's
 * session until what runs matches it. Changes of one connection are applied one at a time, in order.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { entityTypes } from '#db/keys.ts';
import { isRunningStatus, runningServices, type ServiceItem } from '#db/services.ts';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import type { ChannelSession } from '#domain/channels/port.ts';
import { sessionReport } from '#domain/channels/session-report.ts';
import type { Ports } from '#domain/ports.ts';

export interface ChannelWorker {
  /** Stream consumer: follows changes of connection items. */
  onStreamEvent(event: DynamoDBStreamEvent): Promise<void>;
  /** How many sessions are held. */
  readonly sessions: number;
  stop(): Promise<void>;
}

interface Held {
  runId: string;
  session: ChannelSession;
}

export async function startChannelWorker(ports: Ports): Promise<ChannelWorker> {
  const holders = ports.channels.all().filter((adapter) => adapter.sessions);
  const held = new Map<string, Held>();
  let stopped = false;
  // One change at a time, in order: a stop never overtakes the start before it.
  let queue: Promise<void> = Promise.resolve();

  const wanted = (item: ServiceItem | undefined): ServiceItem | undefined => {
    if (stopped || !item || !item.runId || !isRunningStatus(item.status)) return undefined;
    return ports.channels.get(item.channelType)?.sessions?.wants(item) ? item : undefined;
  };

  const reconcile = async (serviceId: string, item: ServiceItem | undefined) => {
    const current = held.get(serviceId);
    const want = wanted(item);
    if (current && want && current.runId === want.runId) return;
    if (current) {
      held.delete(serviceId);
      await current.session.stop();
    }
    if (!want) return;
    const sessions = ports.channels.get(want.channelType)!.sessions!;
    const run = {
      accountId: want.accountId,
      serviceId: want.id,
      type: want.channelType,
      token: want.tokenSealed ? await ports.vault.open(want.tokenSealed) : null,
      runId: want.runId!,
    };
    const session = sessions.open({ ports, run, report: sessionReport(ports, run), inbound: inboundSink(ports, run) });
    held.set(serviceId, { runId: run.runId, session });
  };
  const enqueue = (serviceId: string, item: ServiceItem | undefined) => {
    const next = queue.then(() => reconcile(serviceId, item));
    queue = next.catch((error) => console.error(`[worker] connection ${serviceId}`, error));
    return next;
  };

  for (const adapter of holders) {
    for (const item of await runningServices(ports.table, adapter.type)) void enqueue(item.id, item);
  }

  return {
    async onStreamEvent(event) {
      for (const record of event.Records) {
        const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
        if (!image) continue;
        const item = unmarshall(image as Record<string, AttributeValue>) as ServiceItem;
        if (item.type !== entityTypes.service || !ports.channels.get(item.channelType)?.sessions) continue;
        void enqueue(item.id, record.eventName === 'REMOVE' ? undefined : item);
      }
    },
    get sessions() {
      return held.size;
    },
    async stop() {
      stopped = true;
      await queue;
      await Promise.all([...held.values()].map((h) => h.session.stop()));
      held.clear();
    },
  };
}
