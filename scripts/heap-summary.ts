/**
 * `tsx scripts/heap-summary.ts FILE.heapsnapshot [top]`: where a V8 heap snapshot's memory goes.
 * Prints the self size by constructor (or node type) and the objects with the largest retained
 * size (what would be freed with them), each with its chain of dominators, from the snapshot's
 * graph with weak edges left out (Cooper, Harvey and Kennedy's iterative dominator algorithm).
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx scripts/heap-summary.ts FILE.heapsnapshot [top]');
const top = Number(topArg ?? 40);
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const { meta } = snap.snapshot;
const nf = meta.node_fields.length;
const ef = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const [typeAt, nameAt, selfAt, edgeCountAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [
  number,
  number,
  number,
  number,
];
const [edgeTypeAt, edgeToAt] = ['type', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number];
const weak = edgeTypes.indexOf('weak');
const n = snap.nodes.length / nf;

const firstEdge = new Uint32Array(n + 1);
for (let i = 0; i < n; i++) firstEdge[i + 1] = firstEdge[i]! + snap.nodes[i * nf + edgeCountAt]! * ef;
const selfSize = (i: number) => snap.nodes[i * nf + selfAt]!;
const label = (i: number) => {
  const type = nodeTypes[snap.nodes[i * nf + typeAt]!]!;
  const name = snap.strings[snap.nodes[i * nf + nameAt]!]!;
  return type === 'object' || type === 'closure' || type === 'native' ? `${type === 'object' ? '' : `(${type}) `}${name.slice(0, 80)}` : `(${type})`;
};
const targets = function* (i: number) {
  for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += ef) if (snap.edges[e + edgeTypeAt] !== weak) yield snap.edges[e + edgeToAt]! / nf;
};

// Postorder from the root (node 0), iteratively.
const order = new Int32Array(n).fill(-1);
const postorder: number[] = [];
const stack: [number, Generator<number>][] = [[0, targets(0)]];
order[0] = -2;
while (stack.length) {
  const top = stack[stack.length - 1]!;
  const next = top[1].next();
  if (next.done) {
    order[top[0]] = postorder.length;
    postorder.push(top[0]);
    stack.pop();
  } else if (order[next.value] === -1) {
    order[next.value] = -2;
    stack.push([next.value, targets(next.value)]);
  }
}
const reached = postorder.length;

// Predecessors of reached nodes.
const predCount = new Uint32Array(n + 1);
for (const i of postorder) for (const t of targets(i)) predCount[t + 1]!++;
for (let i = 0; i < n; i++) predCount[i + 1]! += predCount[i]!;
const preds = new Uint32Array(predCount[n]!);
const fill = predCount.slice();
for (const i of postorder) for (const t of targets(i)) preds[fill[t]!++] = i;

const idom = new Int32Array(n).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (order[a]! < order[b]!) a = idom[a]!;
    while (order[b]! < order[a]!) b = idom[b]!;
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let k = reached - 2; k >= 0; k--) {
    const b = postorder[k]!;
    let candidate = -1;
    for (let p = predCount[b]!; p < predCount[b + 1]!; p++) {
      const pred = preds[p]!;
      if (idom[pred] === -1) continue;
      candidate = candidate === -1 ? pred : intersect(pred, candidate);
    }
    if (candidate !== -1 && idom[b] !== candidate) {
      idom[b] = candidate;
      changed = true;
    }
  }
}

const retained = new Float64Array(n);
for (const i of postorder) retained[i]! += selfSize(i);
for (const i of postorder) if (i !== 0) retained[idom[i]!]! += retained[i]!;

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
let total = 0;
const byConstructor = new Map<string, { self: number; count: number }>();
for (const i of postorder) {
  total += selfSize(i);
  const key = label(i);
  const entry = byConstructor.get(key) ?? { self: 0, count: 0 };
  entry.self += selfSize(i);
  entry.count++;
  byConstructor.set(key, entry);
}
console.log(`${file}: ${n} nodes, ${reached} reachable, ${mb(total)} MB reachable self size\n`);
console.log('Self size by constructor or type (MB, count):');
for (const [key, { self, count }] of [...byConstructor].sort((a, b) => b[1].self - a[1].self).slice(0, top))
  console.log(`  ${mb(self).padStart(7)}  ${String(count).padStart(8)}  ${key}`);

console.log('\nLargest retained sizes (MB), with their dominators (nearest first):');
const synthetic = (i: number) => nodeTypes[snap.nodes[i * nf + typeAt]!] === 'synthetic';
const shown = postorder
  .filter((i) => !synthetic(i))
  .sort((a, b) => retained[b]! - retained[a]!)
  .slice(0, top * 4);
let printed = 0;
for (const i of shown) {
  // Only the outermost of a chain of one big thing: skip a node whose dominator retains almost the same.
  const d = idom[i]!;
  if (!synthetic(d) && retained[d]! < retained[i]! * 1.05) continue;
  const chain: string[] = [];
  for (let a = d; a !== 0 && chain.length < 4; a = idom[a]!) chain.push(label(a));
  console.log(`  ${mb(retained[i]!).padStart(7)}  ${label(i)}  ← ${chain.join(' ← ')}`);
  if (++printed >= top) break;
}

console.log('\nLargest single instance per constructor (retained MB, instances):');
const largest = new Map<string, { retained: number; count: number }>();
for (const i of postorder) {
  if (nodeTypes[snap.nodes[i * nf + typeAt]!] !== 'object') continue;
  const key = label(i);
  const entry = largest.get(key) ?? { retained: 0, count: 0 };
  entry.retained = Math.max(entry.retained, retained[i]!);
  entry.count++;
  largest.set(key, entry);
}
for (const [key, { retained: size, count }] of [...largest].sort((a, b) => b[1].retained - a[1].retained).slice(0, top)) {
  console.log(`  ${mb(size).padStart(7)}  ${String(count).padStart(8)}  ${key}`);
}
