/**
 * An Excel workbook (.xlsx) turned, in the browser, into the CSV the contact import reads
 * (ADR-0229): the first sheet, each cell as its stored value (shared and inline strings, numbers,
 * booleans, a formula's last result), `;`-separated and UTF-8, one line per sheet row so the
 * import's line numbers are the sheet's row numbers. No library: an .xlsx is a zip of XML parts
 * (ECMA-376 / ISO 29500); the zip's entries are inflated with the platform's
 * DecompressionStream('deflate-raw') and the parts read with DOMParser.
 */

/** Why a workbook could not be read, in pt-BR, for the file field. */
export const xlsxTexts = {
  notAWorkbook: 'Este arquivo não é uma planilha .xlsx válida. Salve-a de novo no Excel ou como CSV',
  compoundFile: 'Planilhas .xls antigas ou protegidas por senha não são lidas: no Excel, salve como .xlsx sem senha ou como CSV',
  encrypted: 'A planilha está protegida por senha: remova a senha ou salve como CSV',
  noSheet: 'A planilha não tem nenhuma aba com dados',
} as const;

export class XlsxError extends Error {
  override name = 'XlsxError';
}

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localHeaderOffset: number;
}

const u16 = (view: DataView, at: number) => view.getUint16(at, true);
const u32 = (view: DataView, at: number) => view.getUint32(at, true);

/** The zip's central directory: every entry's name, method and where its data starts. */
function zipEntries(bytes: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: 22 bytes, then a comment of up to 65,535.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (u32(view, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new XlsxError(xlsxTexts.notAWorkbook);
  const count = u16(view, end + 10);
  let at = u32(view, end + 16);
  const entries = new Map<string, ZipEntry>();
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(view, at) !== 0x02014b50) throw new XlsxError(xlsxTexts.notAWorkbook);
    const nameLength = u16(view, at + 28);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.set(name, {
      name,
      flags: u16(view, at + 8),
      method: u16(view, at + 10),
      compressedSize: u32(view, at + 20),
      localHeaderOffset: u32(view, at + 42),
    });
    at += 46 + nameLength + u16(view, at + 30) + u16(view, at + 32);
  }
  return entries;
}

async function inflate(data: Uint8Array): Promise<string> {
  const source = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(data.slice());
      controller.close();
    },
  });
  const stream = source.pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

/** An entry's text (stored or deflated), or null when the zip has no such part. */
async function readPart(bytes: Uint8Array, entries: Map<string, ZipEntry>, name: string): Promise<string | null> {
  const entry = entries.get(name);
  if (!entry) return null;
  if (entry.flags & 1) throw new XlsxError(xlsxTexts.encrypted);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || u32(view, local) !== 0x04034b50) throw new XlsxError(xlsxTexts.notAWorkbook);
  const start = local + 30 + u16(view, local + 26) + u16(view, local + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  try {
    if (entry.method === 0) return new TextDecoder().decode(data);
    if (entry.method === 8) return await inflate(data);
  } catch {
    throw new XlsxError(xlsxTexts.notAWorkbook);
  }
  throw new XlsxError(xlsxTexts.notAWorkbook);
}

function parseXml(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) throw new XlsxError(xlsxTexts.notAWorkbook);
  return doc;
}

/** Elements by local name, whatever prefix the writer gave SpreadsheetML's namespace. */
const byName = (node: Document | Element, name: string) => Array.from(node.getElementsByTagNameNS('*', name));

/** A string item's text: its runs' `t` elements, without the phonetic guides (`rPh`). */
function stringText(item: Element): string {
  return byName(item, 't')
    .filter((t) => (t.parentElement?.localName ?? '') !== 'rPh')
    .map((t) => t.textContent ?? '')
    .join('');
}

/** The column index of a cell reference (`A1` → 0, `AB12` → 27). */
export function columnIndex(reference: string): number {
  const letters = /^[A-Z]+/i.exec(reference)?.[0].toUpperCase() ?? '';
  let n = 0;
  for (const letter of letters) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n - 1;
}

/** A number as Excel stored it; an integer written in exponent form (5.511987654321E+12) in full. */
function numberText(raw: string): string {
  if (!/e/i.test(raw)) return raw;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? String(value) : raw;
}

function cellText(cell: Element, shared: readonly string[]): string {
  const type = cell.getAttribute('t') ?? 'n';
  const value = byName(cell, 'v')[0]?.textContent ?? '';
  switch (type) {
    case 's':
      return shared[Number(value)] ?? '';
    case 'inlineStr':
      return byName(cell, 'is')[0] ? stringText(byName(cell, 'is')[0]!) : '';
    case 'str':
      return value;
    case 'b':
      return value === '1' ? 'VERDADEIRO' : value === '0' ? 'FALSO' : '';
    case 'e':
      return '';
    default:
      return value ? numberText(value) : '';
  }
}

const csvField = (value: string) => (/[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The first sheet of the workbook as CSV text. */
export async function xlsxToCsv(bytes: Uint8Array): Promise<string> {
  // A legacy .xls, and an .xlsx Excel encrypted with a password, are OLE compound files (D0 CF 11 E0), not zips.
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) throw new XlsxError(xlsxTexts.compoundFile);
  const entries = zipEntries(bytes);
  const workbookText = await readPart(bytes, entries, 'xl/workbook.xml');
  const relsText = await readPart(bytes, entries, 'xl/_rels/workbook.xml.rels');
  if (!workbookText || !relsText) throw new XlsxError(xlsxTexts.notAWorkbook);
  const sheet = byName(parseXml(workbookText), 'sheet')[0];
  if (!sheet) throw new XlsxError(xlsxTexts.noSheet);
  const relationId = sheet.getAttributeNS('http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'id') ?? sheet.getAttribute('r:id');
  const target = byName(parseXml(relsText), 'Relationship')
    .find((r) => r.getAttribute('Id') === relationId)
    ?.getAttribute('Target');
  if (!target) throw new XlsxError(xlsxTexts.noSheet);
  const sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
  const sheetText = await readPart(bytes, entries, sheetPath);
  if (!sheetText) throw new XlsxError(xlsxTexts.noSheet);
  const sharedText = await readPart(bytes, entries, 'xl/sharedStrings.xml');
  const shared = sharedText ? byName(parseXml(sharedText), 'si').map(stringText) : [];

  const lines: string[] = [];
  let nextRow = 1;
  for (const row of byName(parseXml(sheetText), 'row')) {
    const number = Number(row.getAttribute('r')) || nextRow;
    // Rows the sheet leaves out are empty lines, so the import's line numbers are the sheet's rows.
    while (nextRow < number) {
      lines.push('');
      nextRow++;
    }
    const fields: string[] = [];
    let nextColumn = 0;
    for (const cell of byName(row, 'c')) {
      const reference = cell.getAttribute('r');
      const column = reference ? columnIndex(reference) : nextColumn;
      while (fields.length < column) fields.push('');
      fields[column] = csvField(cellText(cell, shared));
      nextColumn = column + 1;
    }
    lines.push(fields.join(';'));
    nextRow = number + 1;
  }
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (!lines.length) throw new XlsxError(xlsxTexts.noSheet);
  return `${lines.join('\r\n')}\r\n`;
}

/** The workbook as the CSV file the import uploads (`planilha.xlsx` → `planilha.csv`). */
export async function xlsxToCsvFile(file: File): Promise<File> {
  const csv = await xlsxToCsv(new Uint8Array(await file.arrayBuffer()));
  return new File([csv], file.name.replace(/\.xlsx$/i, '.csv'), { type: 'text/csv' });
}
