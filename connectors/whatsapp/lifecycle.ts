/**
 * Starting and stopping WhatsApp connections. Start answers `starting`: the worker's session opens
 * the socket and reports the rest (QR, connected, stopped). Stop leaves the socket to the session,
 * which ends when the worker sees the status change. A logout must unpair through the socket, which
 * lives in the worker holding the session: it is queued for that worker as a `logout` command
 * (with no worker holding one, a worker clears the auth state itself; see `whatsappWorkerChannel`).
 * The same code runs in the functions and in the local runtime.
 */
import type { ChannelLifecycle } from '#domain/channels/port.ts';

export const whatsappLifecycle: ChannelLifecycle = {
  async start() {
    return 'starting';
  },

  async stop(ports, connection, { logout }) {
    if (!logout) return;
    const { accountId, serviceId, type } = connection;
    await ports.workerQueue.enqueue([{ kind: 'logout', accountId, serviceId, channelType: type, requestId: ports.newId() }]);
  },
};
