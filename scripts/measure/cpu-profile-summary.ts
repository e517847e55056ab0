/**
 * Where a page's scripting went, from a CPU profile taken through the DevTools protocol
 * (`Profiler.stop`): self time by file and by function, idle and program time left out. Used by
 * the measuring scripts (measure-screens, measure-app-start, measure-inbox-burst).
 */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Scripting in all, in microseconds. */
  total: number;
  /** The `n` files that took the most, as printable lines. */
  byFile(n: number): string[];
  /** The `n` functions that took the most, as printable lines. */
  byFunction(n: number): string[];
}

export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const self = new Map<number, number>();
  for (const [k, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[k] ?? 0));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    const f = node.callFrame;
    if (['(idle)', '(program)', '(root)'].includes(f.functionName)) continue;
    total += us;
    const file = f.url.split('/').pop() || f.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
  return { total, byFile: (n) => top(byFile, n), byFunction: (n) => top(byFunction, n) };
}
