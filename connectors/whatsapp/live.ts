/**
 * The WhatsApp sockets that are open, by connection id: a session puts its socket here when it
 * opens, and sends and logouts of that connection reach it here. Each worker adapter
 * (`whatsappWorkerChannel`) has its own registry; a worker that does not hold a connection's
 * session has no socket for it (the worker queue brings its sends to the worker that does).
 */
import type { WAMessage } from 'baileys';
import type { WhatsAppSocket } from './socket.ts';

export interface LiveConnection {
  socket: WhatsAppSocket;
  /** A message of this connection seen recently (sent or received), by WhatsApp id. */
  recent(id: string): WAMessage | undefined;
  /** Keeps a message this socket sent, for quotes and for Baileys' retries. */
  remember(message: WAMessage): void;
}

export interface LiveConnections {
  get(serviceId: string): LiveConnection | undefined;
  hold(serviceId: string, connection: LiveConnection): void;
  /** Forgets a connection's socket, if it is still this one (a newer run may have replaced it). */
  release(serviceId: string, connection: LiveConnection): void;
}

export function liveConnections(): LiveConnections {
  const live = new Map<string, LiveConnection>();
  return {
    get: (serviceId) => live.get(serviceId),
    hold: (serviceId, connection) => void live.set(serviceId, connection),
    release(serviceId, connection) {
      if (live.get(serviceId) === connection) live.delete(serviceId);
    },
  };
}
