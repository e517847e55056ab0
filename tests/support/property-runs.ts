/**
 * How many runs a fast-check property makes, and from which seed. `npm test` makes a few
 * (`quick`); CONVERSA_PROPERTY_RUNS=full makes the full count (a scheduled run, or before a change
 * to what the property covers), and a number makes exactly that many. CONVERSA_PROPERTY_SEED
 * replays a seed: a failing property names it, with the runs, in its error.
 */
import fc from 'fast-check';

export interface Runs {
  /** Runs by default: enough to catch a regression in most runs, cheap enough for every `npm test`. */
  readonly quick: number;
  /** Runs with CONVERSA_PROPERTY_RUNS=full. */
  readonly full: number;
}

/** The number of runs CONVERSA_PROPERTY_RUNS asks for: `full`, a whole number, or (unset) the quick count. */
export function propertyRuns(runs: Runs, setting = process.env.CONVERSA_PROPERTY_RUNS): number {
  if (setting === undefined || setting === '') return runs.quick;
  if (setting === 'full') return runs.full;
  const count = Number(setting);
  if (!Number.isInteger(count) || count < 1) throw new Error(`CONVERSA_PROPERTY_RUNS must be "full" or a whole number of runs, not ${JSON.stringify(setting)}`);
  return count;
}

/** The seed CONVERSA_PROPERTY_SEED names, or a fresh one. */
export function propertySeed(setting = process.env.CONVERSA_PROPERTY_SEED): number {
  if (setting === undefined || setting === '') return Date.now() % 2 ** 31;
  const seed = Number(setting);
  if (!Number.isInteger(seed)) throw new Error(`CONVERSA_PROPERTY_SEED must be a whole number, not ${JSON.stringify(setting)}`);
  return seed;
}

/** The line a failure ends with: how to run the same runs again. */
export const replayLine = (seed: number, numRuns: number) => `replay with CONVERSA_PROPERTY_SEED=${seed} CONVERSA_PROPERTY_RUNS=${numRuns}`;

function withReplay(error: unknown, seed: number, numRuns: number): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${message}\n${replayLine(seed, numRuns)}`, { cause: error });
}

/** `fc.assert` with the runs and seed above; a failure's message ends with the line that replays it. */
export function assertProperty<Ts>(property: fc.IAsyncProperty<Ts>, runs: Runs, parameters?: fc.Parameters<Ts>): Promise<void>;
export function assertProperty<Ts>(property: fc.IProperty<Ts>, runs: Runs, parameters?: fc.Parameters<Ts>): void;
export function assertProperty<Ts>(property: fc.IRawProperty<Ts>, runs: Runs, parameters: fc.Parameters<Ts> = {}): Promise<void> | void {
  const seed = propertySeed();
  const numRuns = propertyRuns(runs);
  const settings = { ...parameters, seed, numRuns };
  if (property.isAsync()) {
    return (fc.assert(property as fc.IAsyncProperty<Ts>, settings) as Promise<void>).catch((error: unknown) => {
      throw withReplay(error, seed, numRuns);
    });
  }
  try {
    fc.assert(property as fc.IProperty<Ts>, settings);
  } catch (error) {
    throw withReplay(error, seed, numRuns);
  }
}
