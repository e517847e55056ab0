import { describe, expect, it } from 'vitest';
import { CapacityMeter, itemSize, itemWriteUnits, readUnits, valueSize, writeUnits } from '../../infra/local/emulators/capacity-meter.ts';

const indexes = [
  { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
];

/** A string attribute of `n` ASCII bytes. */
const text = (n: number) => ({ S: 'x'.repeat(n) });

describe('item size as DynamoDB counts it', () => {
  it('strings, numbers, binaries, booleans and nulls', () => {
    // 'pk' 2 + 'A#1' 3; 'João' is 5 UTF-8 bytes.
    expect(itemSize({ pk: { S: 'A#1' } })).toBe(5);
    expect(valueSize({ S: 'João' })).toBe(5);
    // Numbers: 1 byte per two significant digits, plus 1; zeroes at either end and the sign do not count.
    expect(valueSize({ N: '7' })).toBe(2);
    expect(valueSize({ N: '12345' })).toBe(4);
    expect(valueSize({ N: '-0012.3400' })).toBe(3);
    expect(valueSize({ N: '1000000' })).toBe(2);
    // Binary: the raw bytes, not the base64 text ('aGVsbG8=' is 'hello').
    expect(valueSize({ B: 'aGVsbG8=' })).toBe(5);
    expect(valueSize({ BOOL: false })).toBe(1);
    expect(valueSize({ NULL: true })).toBe(1);
  });

  it('lists and maps: 3 bytes, plus 1 per element, a map counting its names', () => {
    expect(valueSize({ L: [] })).toBe(3);
    expect(valueSize({ M: {} })).toBe(3);
    // 3 + (1 + 2) + (1 + 1)
    expect(valueSize({ L: [{ S: 'ab' }, { BOOL: true }] })).toBe(8);
    // 3 + (1 + 'id' 2 + 'u1' 2) + (1 + 'n' 1 + 2)
    expect(valueSize({ M: { id: { S: 'u1' }, n: { N: '42' } } })).toBe(12);
    // A whole item: 'user' 4 + that map 12 + 'tags' 4 + a string set of 'a' and 'bc' 3 = 23.
    expect(itemSize({ user: { M: { id: { S: 'u1' }, n: { N: '42' } } }, tags: { SS: ['a', 'bc'] } })).toBe(23);
  });
});

describe('units', () => {
  it('reads in 4 KB units, half when eventually consistent, one at least', () => {
    expect(readUnits(0, true)).toBe(1);
    expect(readUnits(4096, true)).toBe(1);
    expect(readUnits(4097, true)).toBe(2);
    expect(readUnits(4097, false)).toBe(1);
    expect(readUnits(100, false)).toBe(0.5);
  });

  it('writes in 1 KB units, one at least', () => {
    expect(writeUnits(0)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
  });

  it('a write: the larger image, doubled in a transaction, each index it lands in a write of its own', () => {
    // 'pk' 2 + 1,498 = 1,500 bytes: 2 units.
    const plain = { pk: text(1498) };
    expect(itemWriteUnits(undefined, plain, indexes, false)).toEqual({ table: 2, indexes: 0 });
    expect(itemWriteUnits(undefined, plain, indexes, true)).toEqual({ table: 4, indexes: 0 });
    // In gsi1 (both its keys): 'pk' 2 + 1,000 + 'gsi1pk' 6 + 1 + 'gsi1sk' 6 + 1 = 1,016 bytes: 1 unit, and 1 for the index.
    const indexed = { pk: text(1000), gsi1pk: text(1), gsi1sk: text(1) };
    expect(itemWriteUnits(undefined, indexed, indexes, false)).toEqual({ table: 1, indexes: 1 });
    // Its index key changed: the old entry deleted and the new one put.
    const moved = { ...indexed, gsi1sk: { S: 'y' } };
    expect(itemWriteUnits(indexed, moved, indexes, false)).toEqual({ table: 1, indexes: 2 });
    // Another attribute changed: the entry rewritten once. Grown past 1 KB: 2 units each.
    const grown = { ...indexed, note: text(100) };
    expect(itemWriteUnits(indexed, grown, indexes, false)).toEqual({ table: 2, indexes: 2 });
    // Deleted: the item as it was, and its index entry.
    expect(itemWriteUnits(indexed, undefined, indexes, false)).toEqual({ table: 1, indexes: 1 });
    // Half an index key: not in that index.
    expect(itemWriteUnits(undefined, { pk: text(1), gsi2pk: text(1) }, indexes, false)).toEqual({ table: 1, indexes: 0 });
  });
});

describe('the meter', () => {
  it('sums calls and units by operation', () => {
    const meter = new CapacityMeter(indexes);
    const small = { pk: text(98) }; // 100 bytes
    const big = { pk: text(5000) }; // 5,002 bytes
    meter.call('GetItem');
    meter.read('GetItem', { ConsistentRead: true }, { Item: big });
    meter.read('GetItem', {}, {});
    meter.call('Query');
    // 41 items of 100 bytes: 4,100 bytes, 2 units, eventually consistent: 1.
    meter.read('Query', {}, { Items: Array.from({ length: 41 }, () => small) });
    meter.read('Query', { FilterExpression: '#a = :a' }, { Items: [] });
    // Two keys asked, one found: 1 + 1, eventually consistent: 1.
    meter.read('BatchGetItem', { RequestItems: { t: { Keys: [{}, {}] } } }, { Responses: { t: [small] } });
    meter.transactRead([small, undefined]);
    meter.write('PutItem', undefined, big, false);
    meter.write('TransactWriteItems', small, big, true);
    meter.conditionCheck('TransactWriteItems', small);
    meter.failedWrite('UpdateItem', small, false);
    const totals = meter.snapshot();
    expect(totals.calls).toEqual({ GetItem: 1, Query: 1 });
    expect(totals.readUnits).toEqual({ GetItem: 2 + 0.5, Query: 1 + 0.5, BatchGetItem: 1, TransactGetItems: 4 });
    expect(totals.writeUnits).toEqual({ PutItem: 5, TransactWriteItems: 10 + 2, UpdateItem: 1 });
    expect(totals.filteredReads).toBe(1);
    expect(totals.failedConditions).toBe(1);
  });
});
