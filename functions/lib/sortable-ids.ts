/**
 * ULIDs that sort in the order they were made when several share one millisecond (messages
 * stamped with the same time keep the order they were stored in), and carry exactly the time they
 * are given otherwise (an old message keeps its old time; ulid's own monotonic factory would move
 * it forward to the latest time it has seen).
 */
import { monotonicFactory } from 'ulid';

let lastTime = -1;
let sameMillisecond = monotonicFactory();

export function sortableId(at: number = Date.now()): string {
  if (at !== lastTime) {
    lastTime = at;
    sameMillisecond = monotonicFactory();
  }
  return sameMillisecond(at);
}
