/**
 * The WhatsApp channel as the channel worker runs it: the functions' registration
 * (`adapter.ts`) plus the sessions (Baileys sockets), the sends through them and the logout of a
 * connection no worker holds. Each call makes an adapter with its own registry of open sockets, so
 * two workers in one process (tests) do not reach each other's sockets.
 *
 * Baileys (and the session code that uses it) is loaded at the first session or logout, not with
 * the adapter: a process that holds no WhatsApp connection (most local runtimes, a worker with
 * Telegram only) never pays its 20-odd MB (ADR-0136).
 * Sends need no Baileys code of their own: they go through the socket a session registered.
 */
import type { ChannelAdapter, ChannelSession } from '#domain/channels/port.ts';
import { whatsappChannel } from './adapter.ts';
import { liveConnections } from './live.ts';
import { checkThrough } from './lookup.ts';
import { readThrough } from './read-receipts.ts';
import { sendThrough } from './send.ts';
import type { SessionOptions } from './session.ts';

/** A session whose module is still loading: it starts once loaded, and stop or logout wait for it. */
function loadingSession(opening: Promise<ChannelSession>): ChannelSession {
  return {
    stop: async () => (await opening).stop(),
    logout: async () => (await opening).logout?.(),
  };
}

export function whatsappWorkerChannel(overrides: Partial<SessionOptions> = {}): ChannelAdapter {
  const live = overrides.live ?? liveConnections();
  let loading: Promise<{ session: typeof import('./session.ts'); options: SessionOptions }> | undefined;
  const load = () => {
    loading ??= import('./session.ts').then((session) => ({ session, options: { ...session.defaultSessionOptions, live, ...overrides } }));
    return loading;
  };
  return {
    ...whatsappChannel,
    send: sendThrough(live),
    sessions: {
      ...whatsappChannel.sessions!,
      open(context) {
        return loadingSession(
          load().then(({ session, options }) => {
            const opened = new session.WhatsAppSession(context, options);
            opened.start();
            return opened;
          }),
        );
      },
      markRead: readThrough(live),
      checkContact: checkThrough(live),
      logoutWithoutSession: async (ports, connection) => {
        const [{ options }, { logoutWithoutSession }] = await Promise.all([load(), import('./unpair.ts')]);
        await logoutWithoutSession(ports, connection, options);
      },
    },
  };
}
