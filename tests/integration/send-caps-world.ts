/**
 * The daily send caps' tests' world: a local runtime of the file's own whose worker sends through
 * WhatsApp socket doubles, paces sends 50 ms apart and reads a clock the test moves a day on; an
 * owner with a connection started and paired; contacts made, messages sent and read back.
 */
import { expect } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { liveConnections } from '#connectors/whatsapp/live.ts';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import { SocketDouble } from '../support/whatsapp-double.ts';
import { ownRuntime, pairWhatsapp, whatsappTeam } from './own-runtime.ts';

export function sendCapsWorld(name: string, caps: { dailySends: number; dailyNewChats: number }) {
  const live = liveConnections();
  const sockets = new Map<string, SocketDouble>();
  const base = whatsappWorkerChannel({ live });
  const adapter: ChannelAdapter = {
    ...base,
    sessions: {
      ...base.sessions!,
      open(context) {
        const socketFactory = () => {
          const socket = new SocketDouble();
          sockets.set(context.run.serviceId, socket);
          return socket;
        };
        return whatsappWorkerChannel({ live, socketFactory, backoff: { firstMs: 20, maxMs: 100 } }).sessions!.open(context);
      },
    },
  };

  /** The worker's clock, moved a day on by the tests. */
  const clock = { now: Date.now() };
  const own = ownRuntime(`conversa-wa-${name}-`, {
    channels: [adapter],
    worker: {
      pace: { intervalMs: 50, jitterMs: 0 },
      sendCaps: { ...caps, maxWaitSeconds: 1, now: () => clock.now },
      scanEverySeconds: 1,
      waitTimeSeconds: 1,
    },
  });
  const call = own.call;

  /** An owner with a WhatsApp connection, started and paired. */
  async function team() {
    const t = await whatsappTeam(call, name);
    const socket = await pairWhatsapp(call, t, (serviceId) => sockets.get(serviceId));
    return { ...t, socket };
  }
  type Team = Awaited<ReturnType<typeof team>>;

  let people = 0;
  async function contact(t: Team, contactName: string) {
    const phone = `55119${String((Date.now() + ++people) % 100000000).padStart(8, '0')}`;
    const made = await call('POST', '/contacts', {
      token: t.token,
      body: { name: contactName, serviceId: t.serviceId, data: { phoneNumber: phone, phoneCountry: 'BR' } },
    });
    expect(made.status).toBe(201);
    return made.body.id as string;
  }

  async function send(t: Team, contactId: string, text: string) {
    const answer = await call('POST', '/messages/send', { token: t.token, body: { contactId, serviceId: t.serviceId, text } });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  }

  async function messageOf(t: Team, contactId: string, id: string) {
    const page = await call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token: t.token });
    return (page.body.data as { id: string; ack: number; waiting: string | null; error: string | null }[]).find((m) => m.id === id)!;
  }

  return { own, clock, team, contact, send, messageOf };
}
