/**
 * A logout while no worker holds the connection's session (its socket closed after the connection
 * was stopped, or the worker that held it died): a short-lived socket with the stored creds unpairs
 * the device on WhatsApp, then the auth state is deleted. Bounded: the socket has `openTimeoutMs`
 * to open and the logout `logoutTimeoutMs` to be confirmed; past either, or when WhatsApp has
 * already forgotten the device, only the auth state is deleted (the device then stays listed on the
 * phone until it is removed there). A connection that never paired has nothing to unpair.
 */
import type { ChannelConnection } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { isIgnoredChat } from './jids.ts';
import { type SessionOptions, withinMs } from './session.ts';

type UnpairOptions = Pick<SessionOptions, 'socketFactory' | 'loadAuth' | 'logoutTimeoutMs' | 'liveness'> & { openTimeoutMs?: number };

export async function logoutWithoutSession(ports: Ports, connection: ChannelConnection, options: UnpairOptions): Promise<void> {
  const auth = await options.loadAuth(ports, connection);
  if (auth.state.creds.me) {
    const socket = options.socketFactory({
      auth: auth.state,
      getMessage: async () => undefined,
      keepAliveIntervalMs: options.liveness.keepAliveIntervalMs,
      shouldIgnoreJid: isIgnoredChat,
    });
    const opened = new Promise<void>((resolve, reject) => {
      socket.ev.on('connection.update', (update) => {
        if (update.connection === 'open') resolve();
        else if (update.connection === 'close') reject(update.lastDisconnect?.error ?? new Error('closed before opening'));
        else if (update.qr) reject(new Error('WhatsApp no longer knows this device'));
      });
    });
    try {
      await withinMs(opened, options.openTimeoutMs ?? 15_000);
      await withinMs(socket.logout(), options.logoutTimeoutMs);
    } catch (error) {
      console.warn(`[whatsapp] ${connection.serviceId}: unpairing with no session failed; the auth state is deleted anyway:`, (error as Error).message);
    } finally {
      await Promise.resolve(socket.end(undefined)).catch(() => undefined);
    }
  }
  await auth.clear();
}
