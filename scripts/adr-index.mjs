// Writes the index table of docs/adr/README.md (between its adr-index markers) from the records
// docs/adr/NNNN-*.md: id, title, status and area of each. Run by hand after adding a record:
//   node scripts/adr-index.mjs
// Drafts (docs/adr/drafts/) are not records yet and are left out.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '../docs/adr');
const readme = join(dir, 'README.md');
const start = '<!-- adr-index:start -->';
const end = '<!-- adr-index:end -->';

const cell = (text) => text.replace(/\|/g, '\\|');

function indexRows(names = readdirSync(dir)) {
  return names
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      const title = /^# ADR-(\d{4}): (.+)$/m.exec(text);
      if (!title) throw new Error(`${name}: no "# ADR-NNNN: title" line`);
      const status = /^- Status: (.+)$/m.exec(text)?.[1] ?? '?';
      const area = /^- Area: (.+)$/m.exec(text)?.[1] ?? '';
      return `| [ADR-${title[1]}](${name}) | ${cell(title[2])} | ${cell(status.replace(/\[(ADR-\d{4})\]\(([^)]+)\)/g, '[$1]($2)'))} | ${cell(area)} |`;
    });
}

const text = readFileSync(readme, 'utf8');
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from < 0 || to < from) throw new Error(`${readme}: the ${start} and ${end} markers are missing`);
const table = ['| Record | Title | Status | Area |', '|---|---|---|---|', ...indexRows()].join('\n');
writeFileSync(readme, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
console.log(`docs/adr/README.md: ${table.split('\n').length - 2} records`);
