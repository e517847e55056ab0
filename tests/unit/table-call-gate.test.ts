/** The local runtime's gate on table calls (in its DynamoDB thread): reads' calls yield to the write path's. */
import { describe, expect, it } from 'vitest';
import { TableCallGate } from '../../infra/local/emulators/table-call-gate.ts';

const turn = () => new Promise((r) => setImmediate(r));

/** A call that answers when released, recording when it started. */
function calls() {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const call = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      releases.set(name, () => resolve(name));
    });
  const release = async (name: string) => {
    releases.get(name)!();
    await turn();
  };
  return { started, call, release };
}

describe('table call gate', () => {
  it('lets reads through up to its limit, in arrival order, and never holds the others', async () => {
    const gate = new TableCallGate(2, 1);
    const { started, call, release } = calls();
    const reads = ['r1', 'r2', 'r3', 'r4'].map((name) => gate.call(call(name), true));
    const write = gate.call(call('w1'), false);
    await turn();
    // Two reads in flight; the write starts at once beside them.
    expect(started).toEqual(['r1', 'r2', 'w1']);
    await release('w1');
    await release('r1');
    expect(started).toEqual(['r1', 'r2', 'w1', 'r3']);
    await release('r2');
    await release('r3');
    await release('r4');
    expect(await Promise.all([...reads, write])).toEqual(['r1', 'r2', 'r3', 'r4', 'w1']);
  });

  it('while a write-path call is in flight, admits reads only up to the lower limit', async () => {
    const gate = new TableCallGate(3, 1);
    const { started, call, release } = calls();
    const write = gate.call(call('w1'), false);
    const reads = ['r1', 'r2', 'r3'].map((name) => gate.call(call(name), true));
    await turn();
    expect(started).toEqual(['w1', 'r1']);
    await release('r1');
    // r1's slot goes to r2 only: the write still runs.
    expect(started).toEqual(['w1', 'r1', 'r2']);
    await release('w1');
    // The write is done: the full limit again.
    expect(started).toEqual(['w1', 'r1', 'r2', 'r3']);
    await release('r2');
    await release('r3');
    expect(await Promise.all([write, ...reads])).toEqual(['w1', 'r1', 'r2', 'r3']);
  });

  it('frees the slot of a failed call', async () => {
    const gate = new TableCallGate(1, 1);
    await expect(gate.call(() => Promise.reject(new Error('refused')), true)).rejects.toThrow('refused');
    expect(await gate.call(async () => 'after', true)).toBe('after');
    // And a failed write-path call lets the full limit back.
    await expect(gate.call(() => Promise.reject(new Error('refused')), false)).rejects.toThrow('refused');
    const { started, call, release } = calls();
    const reads = ['r1', 'r2'].map((name) => gate.call(call(name), true));
    await turn();
    expect(started).toEqual(['r1']);
    await release('r1');
    await release('r2');
    expect(await Promise.all(reads)).toEqual(['r1', 'r2']);
  });
});
