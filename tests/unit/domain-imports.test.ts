import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const domain = join(root, 'shared', 'domain');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** What in a file reaches DynamoDB without shared/db: an AWS SDK import, or a command sent on the table's client. */
function tableAccess(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"](@aws-sdk\/[^'"]+|stripe)['"]/g)) found.push(`imports ${match[1]}`);
  if (/\.doc\s*\.send\s*\(/.test(source)) found.push('sends on table.doc');
  return found;
}

const files = sourceFiles(domain).map((path) => ({ path: relative(root, path).split('\\').join('/'), access: tableAccess(readFileSync(path, 'utf8')) }));

describe('shared/domain reaches the table only through shared/db', () => {
  it('imports nothing from @aws-sdk or stripe and sends no command itself', () => {
    const offenders = files.filter((f) => f.access.length).map((f) => `${f.path}: ${f.access.join(', ')}`);
    expect(offenders).toEqual([]);
  });
});
