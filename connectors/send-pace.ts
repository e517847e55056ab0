/**
 * Pacing of sends per connection, against bans: WhatsApp flags numbers that send in bursts, so the
 * worker leaves at least `intervalMs` (give or take `jitterMs`, drawn anew each time, so the
 * rhythm is not mechanical) between the starts of two sends of one connection. Sends wait their
 * turn in the order they asked for it; none is dropped. Other connections are not held up.
 */
export interface PaceOptions {
  /** The least time between two sends of one connection. */
  intervalMs: number;
  /** Each gap is `intervalMs` plus a random amount in [-jitterMs, +jitterMs]. */
  jitterMs: number;
  /** @default Math.random */
  random?: () => number;
}

export interface Pacer {
  /** Resolves when the connection's next send may start; turns are given in call order. */
  turn(key: string): Promise<void>;
  /**
   * Says the send of the turn just given starts now (right before the channel is called): the next
   * gap counts from here, so what happens between the turn and the call (a table write) never
   * shortens the gap the channel sees.
   */
  started(key: string): void;
}

interface Lane {
  tail: Promise<void>;
  /** When the lane's last turn was given (epoch ms). */
  last: number;
}

export const defaultPace: PaceOptions = { intervalMs: 1000, jitterMs: 250 };

export function sendPacer({ intervalMs, jitterMs, random = Math.random }: PaceOptions): Pacer {
  const lanes = new Map<string, Lane>();
  return {
    turn(key) {
      let lane = lanes.get(key);
      if (!lane) {
        lane = { tail: Promise.resolve(), last: Number.NEGATIVE_INFINITY };
        lanes.set(key, lane);
      }
      const current = lane;
      const turn = current.tail.then(async () => {
        const gap = Math.max(0, intervalMs + (random() * 2 - 1) * jitterMs);
        // Again after each sleep: the previous send may have said it started later than its turn.
        for (let wait = current.last + gap - Date.now(); wait > 0; wait = current.last + gap - Date.now()) {
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
        current.last = Date.now();
        // An idle lane is forgotten once no gap could still apply to it.
        setTimeout(() => {
          if (current.tail === turn && lanes.get(key) === current) lanes.delete(key);
        }, intervalMs + jitterMs).unref?.();
      });
      current.tail = turn;
      return turn;
    },
    started(key) {
      const lane = lanes.get(key);
      if (lane) lane.last = Math.max(lane.last, Date.now());
    },
  };
}
