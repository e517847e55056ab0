/**
 * What the local DynamoDB front's calls would cost on DynamoDB on demand: calls by operation and
 * the read and write request units they consume, from the sizes of the items read and written, as
 * DynamoDB sizes and bills them. Only `npm run bench:tenants` switches it on (BENCH_DYNAMO_METER,
 * infra/local/emulators/dynamo-worker.ts); the rules (AWS's developer guide, "DynamoDB item sizes
 * and formats", read/write capacity, global secondary index writes):
 *
 * - item size: the sum over its attributes of the name's UTF-8 bytes plus the value's: a string its
 *   UTF-8 bytes, a number 1 byte per two significant digits plus 1, a binary its raw bytes, null
 *   and boolean 1 byte, a list or map 3 bytes plus its elements' sizes plus 1 byte each (a map's
 *   elements count their names), a set the sum of its elements;
 * - reads: 4 KB units; GetItem and BatchGetItem each item rounded up on its own (an item not found
 *   costs one unit), Query and Scan the summed size of the items read, rounded up once; an
 *   eventually consistent read half; TransactGetItems twice;
 * - writes: 1 KB units, the larger of the item's size before and after (a delete the size of the
 *   item deleted), at least one; TransactWriteItems twice (a condition check too); each global
 *   secondary index the item is in before or after billed as a write of its own (ALL projection:
 *   the item's size), two when the index's key changes (a delete and a put), at the standard rate.
 *
 * What it cannot see: a Query or Scan with a filter or a projection is billed by DynamoDB on the
 * items read before them, while the front sees the items answered; those calls are counted apart
 * (`filteredReads`) so a reader knows how much of the read bill is a floor.
 */

// biome-ignore lint/suspicious/noExplicitAny: DynamoDB's JSON wire format (AttributeValue), typed by its one-letter tags
type Value = Record<string, any>;
type Item = Record<string, unknown>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** Significant digits of a DynamoDB number: sign, exponent, leading and trailing zeroes left out. */
function significantDigits(n: string): number {
  const mantissa = n.replace(/^[-+]/, '').split(/[eE]/)[0]!.replace('.', '');
  const trimmed = mantissa.replace(/^0+/, '').replace(/0+$/, '');
  return Math.max(1, trimmed.length);
}

/** The size of one attribute value (without its name), in bytes. */
export function valueSize(value: Value): number {
  if ('S' in value) return utf8(value.S as string);
  if ('N' in value) return Math.ceil(significantDigits(value.N as string) / 2) + 1;
  if ('B' in value) return Buffer.from(value.B as string, 'base64').byteLength;
  if ('BOOL' in value || 'NULL' in value) return 1;
  if ('SS' in value) return (value.SS as string[]).reduce((sum, s) => sum + utf8(s), 0);
  if ('NS' in value) return (value.NS as string[]).reduce((sum, n) => sum + Math.ceil(significantDigits(n) / 2) + 1, 0);
  if ('BS' in value) return (value.BS as string[]).reduce((sum, b) => sum + Buffer.from(b, 'base64').byteLength, 0);
  if ('L' in value) return 3 + (value.L as Value[]).reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if ('M' in value) return 3 + Object.entries(value.M as Record<string, Value>).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueSize(element), 0);
  throw new Error(`unknown attribute value type: ${Object.keys(value).join(',')}`);
}

/** An item's size as DynamoDB counts it: attribute names plus values. */
export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8(name) + valueSize(value as Value);
  return size;
}

/** Read units of `bytes` read together: 4 KB units rounded up (at least one), half when eventually consistent. */
export function readUnits(bytes: number, consistent: boolean): number {
  const units = Math.max(1, Math.ceil(bytes / 4096));
  return consistent ? units : units / 2;
}

/** Write units of one item write of `bytes`: 1 KB units rounded up, at least one. */
export function writeUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}

/** A global secondary index's key attributes (table-definition.ts's `globalIndexes`). */
interface IndexKeys {
  partitionKey: string;
  sortKey: string;
}

const inIndex = (item: Item | undefined, index: IndexKeys) => Boolean(item?.[index.partitionKey] && item[index.sortKey]);
const sameIndexKey = (a: Item, b: Item, index: IndexKeys) =>
  JSON.stringify(a[index.partitionKey]) === JSON.stringify(b[index.partitionKey]) && JSON.stringify(a[index.sortKey]) === JSON.stringify(b[index.sortKey]);

/**
 * Write units of one item's change, table and indexes: `before` and `after` as stored (absent:
 * no item); `transactional` doubles the table's part.
 */
export function itemWriteUnits(
  before: Item | undefined,
  after: Item | undefined,
  indexes: readonly IndexKeys[],
  transactional: boolean,
): { table: number; indexes: number } {
  const table = writeUnits(Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0)) * (transactional ? 2 : 1);
  let index = 0;
  for (const keys of indexes) {
    const was = inIndex(before, keys);
    const is = inIndex(after, keys);
    if (was && is) {
      // The same entry rewritten, or the old entry deleted and a new one put.
      if (sameIndexKey(before!, after!, keys)) index += writeUnits(Math.max(itemSize(before!), itemSize(after!)));
      else index += writeUnits(itemSize(before!)) + writeUnits(itemSize(after!));
    } else if (was) index += writeUnits(itemSize(before!));
    else if (is) index += writeUnits(itemSize(after!));
  }
  return { table, indexes: index };
}

export interface MeterTotals {
  calls: Record<string, number>;
  readUnits: Record<string, number>;
  writeUnits: Record<string, number>;
  /** Of the write units, those of the global secondary indexes. */
  indexWriteUnits: number;
  /** Query and Scan calls with a filter, a projection or a count: their read units are a floor. */
  filteredReads: number;
  /** Item writes refused on their condition (billed on the item as it was; a cancelled transaction's every item). */
  failedConditions: number;
}

/** The running totals of one front: calls, read and write units by operation. */
export class CapacityMeter {
  private readonly totals: MeterTotals = { calls: {}, readUnits: {}, writeUnits: {}, indexWriteUnits: 0, filteredReads: 0, failedConditions: 0 };

  constructor(private readonly indexes: readonly IndexKeys[]) {}

  /** A call the front was asked to answer. */
  call(op: string): void {
    this.totals.calls[op] = (this.totals.calls[op] ?? 0) + 1;
  }

  /** A read call's answer: GetItem, BatchGetItem, Query or Scan (the request's body and its answer). */
  read(op: string, request: Value, answer: Value): void {
    let units = 0;
    if (op === 'GetItem') units = readUnits(answer.Item ? itemSize(answer.Item as Item) : 0, request.ConsistentRead === true);
    else if (op === 'Query' || op === 'Scan') {
      const bytes = ((answer.Items ?? []) as Item[]).reduce((sum, item) => sum + itemSize(item), 0);
      units = readUnits(bytes, request.ConsistentRead === true);
      if (request.FilterExpression || request.ProjectionExpression || request.Select === 'COUNT' || request.AttributesToGet) this.totals.filteredReads++;
    } else if (op === 'BatchGetItem') {
      for (const [table, items] of Object.entries((answer.Responses ?? {}) as Record<string, Item[]>)) {
        const consistent = request.RequestItems?.[table]?.ConsistentRead === true;
        const asked = (request.RequestItems?.[table]?.Keys ?? []).length as number;
        for (const item of items) units += readUnits(itemSize(item), consistent);
        // Keys not found still cost a unit each.
        units += Math.max(0, asked - items.length - ((answer.UnprocessedKeys?.[table]?.Keys ?? []).length as number)) * readUnits(0, consistent);
      }
    } else return;
    this.add('readUnits', op, units);
  }

  /** TransactGetItems: each item read at twice a strongly consistent read. */
  transactRead(items: (Item | undefined)[]): void {
    this.add(
      'readUnits',
      'TransactGetItems',
      items.reduce((sum, item) => sum + 2 * readUnits(item ? itemSize(item) : 0, true), 0),
    );
  }

  /** One item's write by `op` (a batch's or a transaction's items one by one). */
  write(op: string, before: Item | undefined, after: Item | undefined, transactional: boolean): void {
    const units = itemWriteUnits(before, after, this.indexes, transactional);
    this.totals.indexWriteUnits += units.indexes;
    this.add('writeUnits', op, units.table + units.indexes);
  }

  /** A write whose condition failed: billed on the item as it was, indexes untouched. */
  failedWrite(op: string, before: Item | undefined, transactional: boolean): void {
    this.totals.failedConditions++;
    this.add('writeUnits', op, writeUnits(before ? itemSize(before) : 0) * (transactional ? 2 : 1));
  }

  /** A transaction's condition check: a write of the item it checks, which it leaves as it was (no index touched). */
  conditionCheck(op: string, item: Item | undefined): void {
    this.add('writeUnits', op, 2 * writeUnits(item ? itemSize(item) : 0));
  }

  snapshot(): MeterTotals {
    return structuredClone(this.totals);
  }

  private add(kind: 'readUnits' | 'writeUnits', op: string, units: number): void {
    this.totals[kind][op] = (this.totals[kind][op] ?? 0) + units;
  }
}
