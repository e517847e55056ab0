/**
 * The check of a contact made by hand is queued by the create-contact route, which runs with the
 * functions' channel registry (functions/lib/channels.ts), not the worker's: the WhatsApp adapter
 * the functions register must declare the check, or the cloud would never ask (only the worker's
 * adapter has `checkContact`). Telegram has nothing to check.
 */
import { describe, expect, it } from 'vitest';
import type { ContactItem } from '#db/contacts.ts';
import type { ServiceItem } from '#db/services.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import type { WorkerCommand } from '#domain/channels/worker-commands.ts';
import { queueContactCheck } from '#domain/contacts/contact-check.ts';
import type { Ports } from '#domain/ports.ts';
import { productChannels } from '#lib/channels.ts';

function portsRecording(queued: WorkerCommand[], failing = false): Ports {
  return {
    channels: channelRegistry(productChannels),
    workerQueue: {
      enqueue: async (commands: readonly WorkerCommand[]) => {
        if (failing) throw new Error('queue unreachable');
        queued.push(...commands);
      },
    },
  } as unknown as Ports;
}

const contact = { accountId: 'A1', id: 'C1', idFromService: '5511987654321@s.whatsapp.net' } as ContactItem;
const service = (channelType: 'whatsapp' | 'telegram') => ({ id: 'S1', accountId: 'A1', channelType }) as ServiceItem;

describe('queueContactCheck with the functions’ registry', () => {
  it('queues a check for a WhatsApp contact, naming the id it was made with', async () => {
    const queued: WorkerCommand[] = [];
    await queueContactCheck(portsRecording(queued), contact, service('whatsapp'));
    expect(queued).toEqual([{ kind: 'check', accountId: 'A1', serviceId: 'S1', channelType: 'whatsapp', contactId: 'C1', id: '5511987654321@s.whatsapp.net' }]);
  });

  it('queues nothing for Telegram, and a queue that fails does not fail the creation', async () => {
    const queued: WorkerCommand[] = [];
    await queueContactCheck(portsRecording(queued), contact, service('telegram'));
    expect(queued).toEqual([]);
    await expect(queueContactCheck(portsRecording(queued, true), contact, service('whatsapp'))).resolves.toBeUndefined();
  });
});
