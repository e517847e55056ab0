/**
 * Starting and stopping WhatsApp connections. Start answers `starting`: the worker's session opens
 * the socket and reports the rest (QR, connected, stopped). Stop leaves the socket to the session,
 * which ends when the worker sees the status change; logout also unpairs the device on WhatsApp
 * when this process holds the live socket, and removes the auth state from the table either way.
 */
import type { ChannelLifecycle } from '#domain/channels/port.ts';
import { clearAuthState } from './auth-records.ts';
import { liveConnection } from './live.ts';

export const whatsappLifecycle: ChannelLifecycle = {
  async start() {
    return 'starting';
  },

  async stop(ports, connection, { logout }) {
    if (!logout) return;
    const live = liveConnection(connection.serviceId);
    if (live) {
      try {
        await live.logout();
      } catch (error) {
        // Unreachable WhatsApp: the device stays listed on the phone until removed there; the state goes anyway.
        console.warn(`[whatsapp] ${connection.serviceId}: logout on WhatsApp failed:`, (error as Error).message);
      }
    }
    await clearAuthState(ports, connection);
  },
};
