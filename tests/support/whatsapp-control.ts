/**
 * The client of the WhatsApp socket double's control server (./runtime-with-whatsapp-double.ts):
 * makes a connection's socket emit Baileys events and reads what it was asked to send.
 */
import type { BaileysEventMap, proto } from 'baileys';

/** A `sendMessage` the double received: to whom, the text (null for media), the id it answered, and when (epoch ms). */
export interface SentToDouble {
  jid: string;
  text: string | null;
  id: string | null;
  at: number;
}

export interface DoubleSocketState {
  /** Sockets the connection's session has opened so far. */
  sockets: number;
  user: { id: string; name?: string } | null;
  sent: SentToDouble[];
  /** Read receipts the socket sent (`readMessages`), with the type Baileys chose. */
  reads: { keys: { remoteJid?: string | null; id?: string | null; participant?: string | null }[]; type: 'read' | 'read-self' }[];
  /** Ids of messages WhatsApp delivered again to this socket when it opened (their receipt had never reached it). */
  redelivered: string[];
  /** Calls the socket rejected (`rejectCall`), with the ids it was given. */
  rejectedCalls: { callId: string; callFrom: string }[];
}

/** Events as JSON: an upserted message is a plain object the server turns into a `proto.WebMessageInfo`. */
type EmittedArg<T extends keyof BaileysEventMap> = T extends 'messages.upsert'
  ? { type: 'notify' | 'append'; messages: proto.IWebMessageInfo[] }
  : BaileysEventMap[T];

export class WhatsAppControl {
  constructor(readonly url: string) {}

  /** The connection's latest socket, or null while its session has opened none. */
  async socket(serviceId: string): Promise<DoubleSocketState | null> {
    const res = await fetch(`${this.url}/sockets/${serviceId}`);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`control server answered ${res.status}`);
    return (await res.json()) as DoubleSocketState;
  }

  /** WhatsApp's directory for every socket: the JIDs of the numbers on WhatsApp (null: every number, as asked). */
  async register(jids: string[] | null): Promise<void> {
    const res = await fetch(`${this.url}/registered`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jids }) });
    if (res.status !== 204) throw new Error(`register: control server answered ${res.status}`);
  }

  async emit<T extends keyof BaileysEventMap>(serviceId: string, event: T, arg: EmittedArg<T>): Promise<void> {
    const res = await fetch(`${this.url}/sockets/${serviceId}/emit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event, arg }),
    });
    if (res.status !== 204) throw new Error(`emit ${event} on ${serviceId}: control server answered ${res.status} ${await res.text()}`);
  }

  /**
   * WhatsApp delivers customers' messages to the connection's latest socket (upserted as 'notify');
   * their receipts reach WhatsApp `receiptAfterMs` later, and a process killed before that gets
   * them again at its next socket's open (./runtime-with-whatsapp-double.ts).
   */
  async deliver(serviceId: string, messages: proto.IWebMessageInfo[], receiptAfterMs = 0): Promise<void> {
    const res = await fetch(`${this.url}/sockets/${serviceId}/deliver`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages, receiptAfterMs }),
    });
    if (res.status !== 204) throw new Error(`deliver on ${serviceId}: control server answered ${res.status} ${await res.text()}`);
  }

  /** A call rings on the connection's latest socket as Baileys reports it (`SocketDouble.ring`). */
  async ring(
    serviceId: string,
    call: { id: string; from: string; callerPn?: string; isVideo?: boolean; groupJid?: string; repeated?: boolean; rejectFails?: 'closed' | 'timeout' },
  ): Promise<void> {
    const res = await fetch(`${this.url}/sockets/${serviceId}/ring`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call),
    });
    if (res.status !== 204) throw new Error(`ring on ${serviceId}: control server answered ${res.status} ${await res.text()}`);
  }

  /**
   * Pairs the connection's socket as WhatsApp does once its QR is read: the creds get the account,
   * WhatsApp closes the socket asking for a restart (515), and the session's new socket opens.
   */
  async pair(serviceId: string, phone = '5511900000000', name = 'Loja'): Promise<void> {
    const before = (await this.socket(serviceId))?.sockets ?? 0;
    await this.emit(serviceId, 'creds.update', { me: { id: `${phone}:7@s.whatsapp.net`, name }, registered: true });
    const restartRequired = { message: 'Stream Errored (restart required)', output: { statusCode: 515 } } as unknown as Error;
    await this.emit(serviceId, 'connection.update', { connection: 'close', lastDisconnect: { error: restartRequired, date: new Date() } });
    await this.waitFor(serviceId, (state) => state.sockets > before);
    await this.emit(serviceId, 'connection.update', { connection: 'open' });
  }

  /** Polls the connection's latest socket until `check` holds (generous deadline, short steps). */
  async waitFor(serviceId: string, check: (state: DoubleSocketState) => boolean, ms = 30_000): Promise<DoubleSocketState> {
    const until = Date.now() + ms;
    for (;;) {
      const state = await this.socket(serviceId);
      if (state && check(state)) return state;
      if (Date.now() > until) throw new Error(`the socket double of ${serviceId} never got there: ${JSON.stringify(state)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
