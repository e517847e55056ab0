/**
 * What the contact directory may hold in memory, and what it holds. A process serves many accounts
 * (a warm list-contacts container, the snapshot writer, the local runtime), and each account's view
 * costs about 1 to 2 KB a contact: without a cap, a container that has served a few hundred accounts
 * runs out of memory, dies, and the next cold start pays every load again. The directory keeps its
 * views under a byte budget and forgets the least recently used ones first (contact-directory.ts).
 *
 * The estimate walks what a view keeps (each contact's stored fields, its folded texts, the maps,
 * arrays and indexes over them) with V8's sizes on a 64-bit Node without pointer compression:
 * object header 24 bytes and 8 a property, strings 16 bytes and 1 (Latin-1) or 2 bytes a
 * character rounded up to 8, arrays 32 bytes and 8 an element, hash-map entries about 40 bytes.
 * `npm run bench:directory` compares it with the heap a loaded directory really takes; the figures
 * are in bench/results.md.
 */
import { getHeapStatistics } from 'node:v8';

const objectHeader = 24;
const pointer = 8;
const stringHeader = 16;
const arrayHeader = 32;
/** A Map entry: key, value and chain link, in a table kept at most half full. */
export const mapEntryBytes = 40;

const roundUp8 = (n: number) => (n + 7) & ~7;

/** A string's heap size: one byte a character when every character is Latin-1, else two. */
export function stringBytes(text: string): number {
  return stringHeader + roundUp8(wide.test(text) ? text.length * 2 : text.length);
}
const wide = /[\u0100-\uffff]/;

/**
 * The heap a stored value takes, its own fields included: plain objects, arrays, strings and
 * numbers, as a contact's fields are. Small integers, booleans and null live in the pointer that
 * holds them; other numbers take a heap number of 16 bytes.
 */
export function valueBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 0 : 16;
    case 'object': {
      if (value === null) return 0;
      if (Array.isArray(value)) {
        let bytes = arrayHeader + value.length * pointer;
        for (const element of value) bytes += valueBytes(element);
        return bytes;
      }
      const values = Object.values(value);
      let bytes = objectHeader + values.length * pointer;
      for (const field of values) if (field !== null && typeof field !== 'boolean') bytes += valueBytes(field);
      return bytes;
    }
    default:
      return 0;
  }
}

const mebibyte = 1024 * 1024;

/**
 * The directory's byte budget in this process. An operator may set `CONTACT_DIRECTORY_BUDGET_MB`;
 * in a Lambda container it is 35 % of the function's memory (the runtime, the SDK and a request's
 * own work take the rest, and the list-contacts path must stay under 60 % of the function's memory
 * with the estimate's error), never more than half the heap; elsewhere (the local runtime, where
 * every handler shares one heap) a quarter of the heap.
 */
export function directoryBudgetBytes(env: NodeJS.ProcessEnv = process.env, heapLimit = getHeapStatistics().heap_size_limit): number {
  const override = Number(env.CONTACT_DIRECTORY_BUDGET_MB);
  if (Number.isFinite(override) && override > 0) return Math.floor(override * mebibyte);
  const functionMemory = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (Number.isFinite(functionMemory) && functionMemory > 0) return Math.floor(Math.min(functionMemory * mebibyte * 0.35, heapLimit / 2));
  return Math.floor(heapLimit / 4);
}
