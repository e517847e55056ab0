/**
 * A trigram index over short folded texts (a contact's name and e-mail), for contains-searches that
 * touch only the entries sharing the searched text's trigrams. Each text lives in a numbered slot;
 * a posting list is the sorted slots holding one trigram, keyed by the trigram's three UTF-16 code
 * units packed into one number (no string per trigram). The answer is a superset of the matches
 * (every trigram present, not necessarily in order): callers verify each candidate.
 */

const gramAt = (text: string, i: number) => text.charCodeAt(i) * 4294967296 + text.charCodeAt(i + 1) * 65536 + text.charCodeAt(i + 2);

/** The distinct trigrams of a text. */
export function trigramsOf(text: string): Set<number> {
  const grams = new Set<number>();
  for (let i = 0; i + 3 <= text.length; i++) grams.add(gramAt(text, i));
  return grams;
}

function search(list: number[], slot: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class TrigramIndex {
  private postings = new Map<number, number[]>();
  /** Slots at or above this were only ever appended (a load fills slots in ascending order). */
  private appendFrom = 0;
  /** Slots held by every posting list together, for the size estimate. */
  private held = 0;

  /**
   * The index's estimated heap size: a map entry and an array a trigram, 8 bytes a slot in its
   * list plus the slack arrays keep to grow (directory-memory.ts).
   */
  estimatedBytes(): number {
    return this.postings.size * (40 + 32) + this.held * 12;
  }

  /** A load's fast path: a slot above every slot indexed so far takes its text. */
  append(slot: number, text: string): void {
    if (slot < this.appendFrom) throw new Error(`Slot ${slot} is not above the slots indexed so far`);
    this.appendFrom = slot + 1;
    for (let i = 0; i + 3 <= text.length; i++) {
      const gram = gramAt(text, i);
      const list = this.postings.get(gram);
      if (!list) {
        this.postings.set(gram, [slot]);
        this.held++;
      } else if (list[list.length - 1] !== slot) {
        list.push(slot);
        this.held++;
      }
    }
  }

  /** Moves a slot from its previous text (if it had one) to its new text (if it keeps one). */
  set(slot: number, previous: string | undefined, next: string | undefined): void {
    if (previous === next) return;
    if (previous === undefined && next !== undefined && slot >= this.appendFrom) {
      this.append(slot, next);
      return;
    }
    const before = previous === undefined ? new Set<number>() : trigramsOf(previous);
    const after = next === undefined ? new Set<number>() : trigramsOf(next);
    for (const gram of before) {
      if (after.has(gram)) continue;
      const list = this.postings.get(gram);
      if (!list) continue;
      const at = search(list, slot);
      if (list[at] === slot) {
        list.splice(at, 1);
        this.held--;
      }
      if (!list.length) this.postings.delete(gram);
    }
    for (const gram of after) {
      if (before.has(gram)) continue;
      let list = this.postings.get(gram);
      if (!list) {
        list = [];
        this.postings.set(gram, list);
      }
      const at = search(list, slot);
      if (list[at] !== slot) {
        list.splice(at, 0, slot);
        this.held++;
      }
    }
  }

  /**
   * The slots whose text holds every trigram of every literal (ascending), or undefined when the
   * literals hold no trigram (too short to narrow anything: the caller scans).
   */
  candidates(literals: readonly string[]): number[] | undefined {
    const grams = new Set<number>();
    for (const literal of literals) for (const gram of trigramsOf(literal)) grams.add(gram);
    if (!grams.size) return undefined;
    const lists: number[][] = [];
    for (const gram of grams) {
      const list = this.postings.get(gram);
      if (!list) return [];
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    const [shortest, ...others] = lists as [number[], ...number[][]];
    return shortest.filter((slot) =>
      others.every((list) => {
        const at = search(list, slot);
        return list[at] === slot;
      }),
    );
  }
}
