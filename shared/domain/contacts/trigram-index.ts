/**
 * A trigram index over short folded texts (a contact's name and e-mail), for contains-searches that
 * touch only the entries sharing the searched text's trigrams. Each text lives in a numbered slot;
 * a posting list is the sorted slots holding one trigram. The answer is a superset of the matches
 * (every trigram present, not necessarily in order): callers verify each candidate.
 */

/** The distinct trigrams of a text. */
export function trigramsOf(text: string): Set<string> {
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i++) grams.add(text.slice(i, i + 3));
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
  private postings = new Map<string, number[]>();

  /** Moves a slot from its previous text (if it had one) to its new text (if it keeps one). */
  set(slot: number, previous: string | undefined, next: string | undefined): void {
    if (previous === next) return;
    const before = previous === undefined ? new Set<string>() : trigramsOf(previous);
    const after = next === undefined ? new Set<string>() : trigramsOf(next);
    for (const gram of before) {
      if (after.has(gram)) continue;
      const list = this.postings.get(gram);
      if (!list) continue;
      const at = search(list, slot);
      if (list[at] === slot) list.splice(at, 1);
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
      if (list[at] !== slot) list.splice(at, 0, slot);
    }
  }

  /**
   * The slots whose text holds every trigram of every literal (ascending), or undefined when the
   * literals hold no trigram (too short to narrow anything: the caller scans).
   */
  candidates(literals: readonly string[]): number[] | undefined {
    const grams = new Set<string>();
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
