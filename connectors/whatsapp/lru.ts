/** A small least-recently-used map: a Map keeps insertion order, so its first key is the least recently used. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  has(key: string): boolean {
    return this.map.has(key);
  }
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined || this.map.has(key)) {
      this.map.delete(key);
      this.map.set(key, value as V);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
  }
  clear(): void {
    this.map.clear();
  }
}
