/**
 * A WhatsApp session on the socket double, started and connected: auth and ledger in memory (or
 * the test's own), its first socket paired and open. The tests of one behaviour of a connected
 * session start here instead of repeating the set-up.
 */
import { liveConnections } from '#connectors/whatsapp/live.ts';
import { defaultSessionOptions, type SessionOptions, WhatsAppSession } from '#connectors/whatsapp/session.ts';
import { memoryAuth, memoryLedger, sessionContext, SocketDouble, until } from './whatsapp-double.ts';

/** Opens a session with `options` over the defaults; `sessions` collects it for the caller's clean-up. */
export async function connectedSession(sessions: WhatsAppSession[], options: Partial<SessionOptions> = {}) {
  const sockets: SocketDouble[] = [];
  const harness = sessionContext();
  const session = new WhatsAppSession(harness.context, {
    ...defaultSessionOptions,
    live: liveConnections(),
    loadAuth: async () => memoryAuth(),
    ledger: () => memoryLedger(),
    socketFactory: (socketOptions) => {
      const socket = new SocketDouble(socketOptions);
      sockets.push(socket);
      return socket;
    },
    ...options,
  });
  sessions.push(session);
  session.start();
  await until(() => sockets.length === 1);
  const socket = sockets[0]!;
  socket.user = { id: '5511900000000:7@s.whatsapp.net' };
  socket.emit('connection.update', { connection: 'open' });
  await until(() => harness.report.said.includes('connected'));
  return { session, socket, sockets, ...harness };
}
