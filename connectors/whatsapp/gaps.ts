/**
 * Gaps after an outage. When a socket opens again after the session was down (a reconnect, or a
 * new session of a connection that was already paired), WhatsApp's offline delivery hands over
 * what waited for this device (`messages.upsert`, 'notify' or 'append'), and Baileys signals the
 * end of it with `receivedPendingNotifications`. Offline delivery can miss messages (the phone
 * answered them meanwhile, or the device's queue was dropped), so for every chat that had activity
 * in that batch the session asks the phone for the messages just before the oldest one it got
 * (`fetchMessageHistory`, an on-demand history sync that arrives as `messaging-history.set` with
 * sync type ON_DEMAND). What comes back is handed over like any message (the domain stores each
 * WhatsApp id once), but only messages newer than the moment the session was last known alive:
 * older history is not this outage's gap.
 */
import type { WAMessage, WAMessageKey } from 'baileys';
import { isIgnoredChat } from './jids.ts';
import { secondsOf } from './time.ts';

export interface GapOptions {
  /** Messages asked for per chat. */
  historyCount: number;
  /** Chats asked about per reopening (the busiest first). */
  maxChats: number;
  /** How long after the open the offline batch is collected when Baileys never says it is over. */
  settleMs: number;
  /**
   * After Baileys' `receivedPendingNotifications`, how long without an offline message ('append')
   * before the batch counts as processed: Baileys emits the signal when WhatsApp's `<ib><offline/>`
   * arrives, while its offline node processor may still be decrypting the batch's stanzas.
   */
  batchQuietMs: number;
  /** History requests per number (connection) in any hour, whatever the reconnections. */
  maxRequestsPerHour: number;
  /** Where the requests of the last hour are counted (one per process, shared by its sessions). */
  budget: HistoryBudget;
  /** For a session's first socket (the process restarted), how far back its outage is taken to reach. */
  firstOpenLookbackMs: number;
  /** Slack between our clock (when the socket was last alive) and WhatsApp's message times. */
  clockSlackMs: number;
}

/** History requests made per connection in the last hour. */
export class HistoryBudget {
  private readonly made = new Map<string, number[]>();

  constructor(private readonly windowMs = 60 * 60_000) {}

  /** Takes up to `wanted` requests for `key` within `perWindow` per window; answers how many it may make now. */
  take(key: string, wanted: number, perWindow: number, now = Date.now()): number {
    const recent = (this.made.get(key) ?? []).filter((at) => now - at < this.windowMs);
    const granted = Math.max(0, Math.min(wanted, perWindow - recent.length));
    for (let i = 0; i < granted; i++) recent.push(now);
    if (recent.length) this.made.set(key, recent);
    else this.made.delete(key);
    return granted;
  }
}

export const defaultGapOptions: GapOptions = {
  historyCount: 50,
  maxChats: 20,
  settleMs: 30_000,
  batchQuietMs: 2000,
  maxRequestsPerHour: 30,
  budget: new HistoryBudget(),
  firstOpenLookbackMs: 60 * 60_000,
  clockSlackMs: 60_000,
};

/** An on-demand history request: the chat's oldest message seen since the open. */
export interface HistoryRequest {
  key: WAMessageKey;
  /** That message's time, in ms (Baileys' `oldestMsgTimestampMs`). */
  timestampMs: number;
}

interface ChatActivity extends HistoryRequest {
  messages: number;
}

/** One reopening: collects the offline batch's chats, then answers which history to ask for and which history messages belong to the gap. */
export class GapWatch {
  private readonly chats = new Map<string, ChatActivity>();
  private collecting = true;

  /** @param sinceMs when the session was last known alive (ms): history older than this is not the gap's. */
  constructor(readonly sinceMs: number) {}

  get isCollecting(): boolean {
    return this.collecting;
  }

  /** A message upserted since the open: its chat had activity; the oldest one is where history is asked from. */
  saw(message: WAMessage): void {
    const { remoteJid, id } = message.key;
    const seconds = secondsOf(message.messageTimestamp);
    if (!this.collecting || !remoteJid || !id || isIgnoredChat(remoteJid) || seconds <= 0) return;
    const timestampMs = seconds * 1000;
    const known = this.chats.get(remoteJid);
    if (!known) {
      this.chats.set(remoteJid, { key: message.key, timestampMs, messages: 1 });
      return;
    }
    known.messages++;
    if (timestampMs < known.timestampMs) Object.assign(known, { key: message.key, timestampMs });
  }

  /** Ends the collection: the requests to make, busiest chats first, at most `max`. */
  requests(max: number): HistoryRequest[] {
    this.collecting = false;
    return [...this.chats.values()]
      .sort((a, b) => b.messages - a.messages)
      .slice(0, max)
      .map(({ key, timestampMs }) => ({ key, timestampMs }));
  }

  /** Whether a message of the history answer fell in the gap (not older than the outage). */
  inGap(message: WAMessage): boolean {
    return secondsOf(message.messageTimestamp) * 1000 >= this.sinceMs;
  }
}
