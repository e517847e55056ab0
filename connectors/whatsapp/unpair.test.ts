/** A logout while no worker holds the session: a short-lived socket unpairs, the auth state goes either way. */
import { describe, expect, it } from 'vitest';
import type { Ports } from '#domain/ports.ts';
import { memoryAuth, SocketDouble } from '../../tests/support/whatsapp-double.ts';
import { defaultSessionOptions } from './session.ts';
import { logoutWithoutSession } from './unpair.ts';

const connection = { accountId: 'ACC1', serviceId: 'SVC-UNPAIR', type: 'whatsapp' as const, token: null };
const ports = {} as Ports;

function setup(opens: boolean, paired = true) {
  const auth = memoryAuth();
  if (paired) auth.state.creds.me = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
  const sockets: SocketDouble[] = [];
  const options = {
    ...defaultSessionOptions,
    loadAuth: async () => auth,
    logoutTimeoutMs: 50,
    openTimeoutMs: 50,
    socketFactory: () => {
      const socket = new SocketDouble();
      sockets.push(socket);
      if (opens) setTimeout(() => socket.emit('connection.update', { connection: 'open' }), 5);
      return socket;
    },
  };
  return { auth, sockets, options };
}

describe('a WhatsApp logout with no session held', () => {
  it('opens a socket with the stored creds, unpairs the device through it, closes it and deletes the auth state', async () => {
    const { auth, sockets, options } = setup(true);
    await logoutWithoutSession(ports, connection, options);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.logouts).toBe(1);
    expect(auth.clears).toBe(1);
  });

  it('deletes the auth state anyway when the socket does not open in time', async () => {
    const { auth, sockets, options } = setup(false);
    await logoutWithoutSession(ports, connection, options);
    expect(sockets[0]!.logouts).toBe(0);
    expect(sockets[0]!.ended).toHaveLength(1);
    expect(auth.clears).toBe(1);
  });

  it('opens no socket for a connection that never paired', async () => {
    const { auth, sockets, options } = setup(true, false);
    await logoutWithoutSession(ports, connection, options);
    expect(sockets).toEqual([]);
    expect(auth.clears).toBe(1);
  });
});
