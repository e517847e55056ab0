/**
 * A small in-memory cache whose entries expire, shaped as Baileys' `CacheStore` (get, set, del,
 * flushAll): the session keeps its retry counts and group metadata in one, so they outlive a
 * socket (Baileys' own defaults are per socket) without a dependency on Baileys' cache package.
 * At most `size` entries; the oldest written go first.
 */
export class TtlCache<V = unknown> {
  private readonly map = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly size: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T = V>(key: string): T | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return entry.value as unknown as T;
  }

  set<T = V>(key: string, value: T): void {
    this.map.delete(key);
    this.map.set(key, { value: value as unknown as V, until: this.now() + this.ttlMs });
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
  }

  del(key: string): void {
    this.map.delete(key);
  }

  flushAll(): void {
    this.map.clear();
  }
}
