/**
 * References a newcomer can open. docs/architecture.md names files by path: each must exist. Code
 * and documents cite product rules as `docs/product.md#<section>` and choices as a decision record
 * (`ADR-NNNN`, docs/adr/), never a document outside the repository (a spec's "section N", its
 * architecture page) nor a tracker's issue number: each such citation fails here with its file and
 * line. Every `docs/product.md#…` and `docs/architecture.md#…` anchor must name one of that
 * document's headings.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const self = relative(root, import.meta.filename);

const skippedFolders = new Set(['node_modules', 'cdk.out', 'dist', 'coverage']);
const checkedExtensions = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|css|html)$/;

function files(dir = ''): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    if (name.startsWith('.') || skippedFolders.has(name)) return [];
    const path = dir ? `${dir}/${name}` : name;
    if (statSync(join(root, path)).isDirectory()) return files(path);
    return checkedExtensions.test(name) ? [path] : [];
  });
}

/** Citations of something a reader of the repository cannot open. */
const outside: { pattern: RegExp; instead: string }[] = [
  { pattern: /\bSPEC(?:\.md)?\s+(?:sections?|§)/, instead: 'docs/product.md#<section>' },
  { pattern: /\b(?:SPEC|ARCHITECTURE|DEVELOPERS)\.md\b/, instead: 'docs/product.md or docs/architecture.md' },
  { pattern: /\bissues?\s+#?\d+/i, instead: 'docs/product.md#<section> or a decision record (ADR-NNNN)' },
];

/** GitHub's anchor of a Markdown heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (doc: string) =>
  new Set(
    readFileSync(join(root, doc), 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6}\s/.test(line))
      .map((line) => slug(line.replace(/^#+\s+/, ''))),
  );

/** Backticked spans that name a path in the repository (placeholders such as `<stage>` left out). */
function repoPathsIn(markdown: string): string[] {
  const topLevel = new Set(readdirSync(root).filter((name) => !name.startsWith('.')));
  return [...markdown.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/#.*$/, ''))
    .filter((span) => !/[<>*{}]/.test(span))
    .filter((span) => topLevel.has(span.split('/')[0]!) && (span.includes('/') || /\.\w+$/.test(span)));
}

describe('docs/architecture.md', () => {
  const text = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const paths = repoPathsIn(text);

  it('names files by path, and every one exists', () => {
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !statExists(path))).toEqual([]);
  });

  it('stays a map: under about 150 lines', () => {
    expect(text.split('\n').length).toBeLessThanOrEqual(160);
  });
});

function statExists(path: string): boolean {
  try {
    statSync(join(root, path));
    return true;
  } catch {
    return false;
  }
}

describe('references point inside the repository', () => {
  const checked = files().filter((file) => file !== self);

  /** A file's outside citations, by line, and those a comment's line break splits ("(issue" / " * 27)"). */
  function outsideCitations(file: string): string[] {
    const text = readFileSync(join(root, file), 'utf8');
    const byLine = text
      .split('\n')
      .flatMap((line, i) =>
        outside.filter(({ pattern }) => pattern.test(line)).map(({ instead }) => `${file}:${i + 1}: ${line.trim().slice(0, 120)} (cite ${instead})`),
      );
    if (byLine.length) return byLine;
    const joined = text.replace(/\n\s*(?:\*(?!\/)|\/\/|#)?\s*/g, ' ');
    return outside
      .filter(({ pattern }) => pattern.test(joined))
      .map(({ pattern, instead }) => `${file}: across lines: ${joined.match(pattern)![0]} (cite ${instead})`);
  }

  it('no code or document cites the outside spec, architecture page or an issue number', () => {
    const found = checked.flatMap(outsideCitations);
    expect(found).toEqual([]);
  });

  it('every anchor into docs/product.md or docs/architecture.md names a heading', () => {
    const anchors = { 'docs/product.md': anchorsOf('docs/product.md'), 'docs/architecture.md': anchorsOf('docs/architecture.md') };
    const broken = checked.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/docs\/(product|architecture)\.md#([\w-]+)/g)]
        .filter((m) => !anchors[`docs/${m[1]}.md` as keyof typeof anchors].has(m[2]!))
        .map((m) => `${file}: ${m[0]}`),
    );
    expect(broken).toEqual([]);
  });

  it('the rules catch what they are for', () => {
    const hits = (line: string) => outside.some(({ pattern }) => pattern.test(line));
    expect(hits('The error catalogue (SPEC section 8)')).toBe(true);
    expect(hits('Team inbox (issue 14): tabs')).toBe(true);
    expect(hits('see ARCHITECTURE.md')).toBe(true);
    expect(hits('The error catalogue (docs/product.md#error-catalogue)')).toBe(false);
    expect(hits('Lighthouse 13 on chromium')).toBe(false);
    expect(hits('ADR-0192 "Stream fan-in (issue 27)"')).toBe(true);
    expect(slug('Roles and permissions')).toBe('roles-and-permissions');
  });
});
