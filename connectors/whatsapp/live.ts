/**
 * The WhatsApp sockets that are open in this process, by connection id. The worker's session holds
 * the socket, so a send (or a logout) must reach it here; a process that holds no session of the
 * connection has none. Reaching the worker that holds a session from another process (the cloud's
 * Lambda functions) is a later step of the WhatsApp issue.
 */
import type { WAMessage } from 'baileys';
import type { WhatsAppSocket } from './socket.ts';

export interface LiveConnection {
  socket: WhatsAppSocket;
  /** A message of this connection seen recently (sent or received), by WhatsApp id. */
  recent(id: string): WAMessage | undefined;
  /** Keeps a message this socket sent, for quotes and for Baileys' retries. */
  remember(message: WAMessage): void;
  /** Unpairs on WhatsApp and ends the session without reporting it as a logout from the phone. */
  logout(): Promise<void>;
}

const live = new Map<string, LiveConnection>();

export function liveConnection(serviceId: string): LiveConnection | undefined {
  return live.get(serviceId);
}

export function holdLive(serviceId: string, connection: LiveConnection): void {
  live.set(serviceId, connection);
}

/** Forgets a connection's socket, if it is still this one (a newer run may have replaced it). */
export function releaseLive(serviceId: string, connection: LiveConnection): void {
  if (live.get(serviceId) === connection) live.delete(serviceId);
}
