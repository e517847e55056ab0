/**
 * The decision records (docs/adr/) stay a set a newcomer can trust: every `ADR-NNNN` cited anywhere
 * in the repository names a record that exists; each record has its status, date, context, decision
 * and consequences, and the number its file name carries; numbers are unique; a superseded record
 * links the record that replaced it, which exists and says so; links between records resolve;
 * docs/adr/README.md's index lists every record (drafts in docs/adr/drafts/ are not records yet);
 * and nothing cites docs/decisions.md, which the records replaced.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const self = relative(root, import.meta.filename);
const adrDir = 'docs/adr';

const skippedFolders = new Set(['node_modules', 'cdk.out', 'dist', 'coverage']);
const checkedFile = (name: string) => /\.(ts|tsx|mts|cts|js|mjs|cjs|md|css|html|json|yml|yaml|sh)$/.test(name) || name === 'Dockerfile';

function files(dir = ''): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    if (name.startsWith('.') || skippedFolders.has(name)) return [];
    const path = dir ? `${dir}/${name}` : name;
    if (statSync(join(root, path)).isDirectory()) return files(path);
    return checkedFile(name) && !/package-lock\.json$/.test(name) ? [path] : [];
  });
}

const read = (path: string) => readFileSync(join(root, path), 'utf8');
const records = readdirSync(join(root, adrDir))
  .filter((name) => /^\d{4}-[a-z0-9-]+\.md$/.test(name))
  .sort();
const recordByNumber = new Map(records.map((name) => [name.slice(0, 4), name]));

/** Text outside fenced blocks and code spans, where Markdown links are links. */
const prose = (markdown: string) => markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

describe('docs/adr/', () => {
  it('holds the records, numbered from 0001 with no number twice', () => {
    expect(records.length).toBeGreaterThan(100);
    const numbers = records.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers[0]).toBe('0001');
  });

  it('gives each record its number, status, date, area, context, decision and consequences', () => {
    const problems = records.flatMap((name) => {
      const text = read(`${adrDir}/${name}`);
      const found: string[] = [];
      const title = /^# ADR-(\d{4}): \S.*$/m.exec(text);
      if (!title || !text.startsWith('# ADR-')) found.push('no "# ADR-NNNN: title" first line');
      else if (title[1] !== name.slice(0, 4)) found.push(`titled ADR-${title[1]}`);
      if (!/^- Status: (Accepted|Proposed|Deprecated|Superseded by \[ADR-\d{4}\]\(\d{4}-[a-z0-9-]+\.md\))$/m.test(text))
        found.push('no valid "- Status:" line');
      if (!/^- Date: \d{4}-\d{2}-\d{2}$/m.test(text)) found.push('no "- Date: YYYY-MM-DD" line');
      if (!/^- Area: \S/m.test(text)) found.push('no "- Area:" line');
      const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      for (const section of ['Context', 'Decision', 'Consequences']) if (!sections.includes(section)) found.push(`no "## ${section}"`);
      const order = ['Context', 'Decision', 'Consequences'].map((s) => sections.indexOf(s));
      if (order.join() !== [...order].sort((a, b) => a - b).join()) found.push('sections out of order');
      for (const section of ['Context', 'Decision', 'Consequences']) {
        const body = new RegExp(`^## ${section}\\n+([\\s\\S]*?)(?=^## |$(?![\\s\\S]))`, 'm').exec(text)?.[1] ?? '';
        if (body.trim().length < 10) found.push(`"## ${section}" is empty`);
      }
      return found.map((problem) => `${name}: ${problem}`);
    });
    expect(problems).toEqual([]);
  });

  it('links a superseded record to the record that replaced it, which exists and names it', () => {
    const problems = records.flatMap((name) => {
      const status = /^- Status: Superseded by \[ADR-(\d{4})\]\(([^)]+)\)$/m.exec(read(`${adrDir}/${name}`));
      if (!status) return [];
      const [, number, file] = status;
      if (recordByNumber.get(number!) !== file) return [`${name}: "Superseded by" ADR-${number} links ${file}, not ${recordByNumber.get(number!)}`];
      if (file === name) return [`${name}: supersedes itself`];
      const supersedes = /^- Supersedes: (.+)$/m.exec(read(`${adrDir}/${file}`))?.[1] ?? '';
      return supersedes.includes(`(${name})`) ? [] : [`${file}: has no "- Supersedes:" link to ${name}`];
    });
    expect(problems).toEqual([]);
  });

  it('has links between records and to the repository that resolve', () => {
    const broken = [...records, 'README.md'].flatMap((name) =>
      [...prose(read(`${adrDir}/${name}`)).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(join(root, adrDir, target)))
        .map((target) => `${name}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('lists every record in the README index (drafts left out); node scripts/adr-index.mjs rewrites it', () => {
    const index = read(`${adrDir}/README.md`);
    const listed = [...index.matchAll(/^\| \[ADR-(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\) \|/gm)].map((m) => {
      expect(m[2]!.slice(0, 4), m[0]).toBe(m[1]);
      return m[2]!;
    });
    expect(listed).toEqual(records);
    expect(index.slice(index.indexOf('<!-- adr-index:start -->'))).not.toContain('drafts/');
  });
});

describe('citations of decisions', () => {
  const checked = files().filter((file) => file !== self);

  it('every ADR-NNNN cited in the repository names a record in docs/adr/', () => {
    const missing = checked.flatMap((file) =>
      [...read(file).matchAll(/\bADR-(\d{4})\b/g)].filter((m) => !recordByNumber.has(m[1]!)).map((m) => `${file}: ${m[0]}`),
    );
    expect(missing).toEqual([]);
  });

  it('documents link records by a path that exists', () => {
    const broken = checked
      .filter((file) => file.endsWith('.md') && !file.startsWith(`${adrDir}/`))
      .flatMap((file) =>
        [...prose(read(file)).matchAll(/\]\(((?:[^)\s]*\/)?adr\/(\d{4}-[^)\s#]+\.md))\)/g)]
          .filter((m) => !existsSync(join(root, dirname(file), m[1]!)))
          .map((m) => `${file}: ${m[1]}`),
      );
    expect(broken).toEqual([]);
  });

  it('nothing cites docs/decisions.md, which the records replaced', () => {
    expect(existsSync(join(root, 'docs/decisions.md'))).toBe(false);
    const citing = checked.flatMap((file) =>
      read(file)
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => /\bdecisions\.md\b/.test(line) && !/not\.toContain\('docs\/decisions\.md'\)/.test(line))
        .map(({ line, i }) => `${file}:${i + 1}: ${line.trim().slice(0, 100)}`),
    );
    expect(citing).toEqual([]);
  });

  it('the rules catch what they are for', () => {
    expect('see ADR-0001 and ADR-9999'.match(/\bADR-(\d{4})\b/g)).toEqual(['ADR-0001', 'ADR-9999']);
    expect(recordByNumber.has('9999')).toBe(false);
    expect(/\bdecisions\.md\b/.test('(docs/decisions.md "Stages")')).toBe(true);
    expect(prose('`[x](missing.md)` and [y](0001-a.md)')).not.toContain('missing.md');
  });
});
