/**
 * dynalite's key and value streams close their LevelDB iterator through `return()`, the name
 * abstract-level 1 used; abstract-level 3's key and value iterators have only `close()`, so every
 * Query and Scan left its iterator open, and the database holds each open iterator until it is
 * closed: its native LevelDB iterator, with the blocks it read and the memtables it pins. The
 * runtime's native memory grew by about 200 MB over a bench:load run (ADR-0136). Giving those iterators the `return()` dynalite calls closes them at
 * the end of each stream, or when a Query stops early at its limit.
 */
import { AbstractKeyIterator, AbstractValueIterator } from 'abstract-level';

type Closable = { return?: () => Promise<void>; close(): Promise<void> };

export function closeDynaliteIterators(): void {
  for (const { prototype } of [AbstractKeyIterator, AbstractValueIterator] as unknown as { prototype: Closable }[]) {
    prototype.return ??= function (this: Closable) {
      return this.close();
    };
  }
}
