/**
 * ULIDs that sort in the order they were made when several share one millisecond (messages
 * stamped with the same time keep the order they were stored in), also when ids of other times
 * are made between them (a burst of Telegram messages processed past their second all take its
 * last millisecond, while the files and events stored between them take now), and carry exactly
 * the time they are given otherwise (an old message keeps its old time; ulid's own monotonic
 * factory would move it forward to the latest time it has seen). Per process: the messages of one
 * connection are stored by the one worker that holds it, in order.
 */
import { monotonicFactory } from 'ulid';

type Factory = ReturnType<typeof monotonicFactory>;

/** The recent milliseconds' factories, oldest first: each goes on from the last id it made. */
const recent = new Map<number, Factory>();
const keptTimes = 256;

export function sortableId(at: number = Date.now()): string {
  let factory = recent.get(at);
  if (!factory) {
    factory = monotonicFactory();
    recent.set(at, factory);
    if (recent.size > keptTimes) recent.delete(recent.keys().next().value!);
  }
  return factory(at);
}
