/**
 * Reading a CSV a byte range at a time (ADR-0223): the file's format from its first
 * bytes, a range decoded to text, and the complete records of that text. A step keeps only the
 * byte offset after the last record it took, so the next step starts on a record's first byte.
 *
 * Encodings: UTF-8 with or without a BOM, and Windows-1252 as Excel in Brazil saves 'CSV
 * (separado por vírgulas)'. Bytes that are not valid UTF-8 are read as Windows-1252, from there
 * on. Separators ';' (Excel in Brazil), ',' or a tab, told by the header line. Fields follow RFC
 * 4180: quoted fields hold separators, doubled quotes and line breaks; lines end in LF or CRLF.
 */
export type CsvEncoding = 'utf-8' | 'windows-1252';
export type CsvDelimiter = ';' | ',' | '\t';

const bom = [0xef, 0xbb, 0xbf];

/** The bytes a UTF-8 BOM takes at the start of the file (0 or 3). */
export function bomLength(head: Uint8Array): number {
  return bom.every((b, i) => head[i] === b) ? 3 : 0;
}

/** How many bytes at the end of `bytes` are a UTF-8 sequence cut short (the next range has the rest). */
function cutSequence(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? back : 0;
  }
  return 0;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const windows1252 = new TextDecoder('windows-1252');

/**
 * A range's text. `atEnd`: the range reaches the end of the file (no sequence continues after it).
 * Answers the encoding actually used: UTF-8 falls back to Windows-1252 when the bytes are not
 * UTF-8; Windows-1252 stays (every byte is one character in it).
 */
export function decodeRange(bytes: Uint8Array, encoding: CsvEncoding, atEnd: boolean): { text: string; encoding: CsvEncoding } {
  if (encoding === 'utf-8') {
    const whole = atEnd ? bytes : bytes.subarray(0, bytes.length - cutSequence(bytes));
    try {
      return { text: utf8.decode(whole), encoding };
    } catch {
      // Not UTF-8: a file saved by Excel in Windows-1252 ('São Paulo' as 53 E3 6F).
    }
  }
  return { text: windows1252.decode(bytes), encoding: 'windows-1252' };
}

const encoder = new TextEncoder();

/** How many bytes the first `chars` characters of a decoded range took in the file. */
export function bytesOf(text: string, chars: number, encoding: CsvEncoding): number {
  return encoding === 'windows-1252' ? chars : encoder.encode(text.slice(0, chars)).length;
}

/** The separator the header line uses most, outside quotes (';' on a tie: Excel in Brazil). */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ';' || c === ',' || c === '\t')) counts[c]++;
  }
  const [best] = (Object.entries(counts) as [CsvDelimiter, number][]).sort((a, b) => b[1] - a[1] || Number(b[0] === ';') - Number(a[0] === ';'));
  return best![1] > 0 ? best![0] : ',';
}

export interface CsvFormat {
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
  /** Where the first record starts (after a BOM). */
  start: number;
}

/** The format the file's first bytes show. `atEnd`: they are the whole file. */
export function detectFormat(head: Uint8Array, atEnd: boolean): CsvFormat & { text: string } {
  const start = bomLength(head);
  const { text, encoding } = decodeRange(head.subarray(start), 'utf-8', atEnd);
  return { encoding, delimiter: detectDelimiter(text), start, text };
}

export interface CsvRecords {
  records: string[][];
  /** Characters of the text the records took (their line breaks included). */
  consumed: number;
}

/**
 * The complete records at the start of `text`, at most `max`. A record is complete once its line
 * break (outside quotes) is read, or at the end of the file (`atEnd`); an incomplete last record is
 * left for the next range.
 */
export function readRecords(text: string, delimiter: CsvDelimiter, atEnd: boolean, max: number): CsvRecords {
  const records: string[][] = [];
  const n = text.length;
  let at = 0;
  while (records.length < max && at < n) {
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let fieldStart = true;
    let complete = false;
    let j = at;
    while (j < n) {
      const c = text[j]!;
      if (quoted) {
        if (c !== '"') {
          field += c;
          j++;
        } else if (j + 1 < n && text[j + 1] === '"') {
          field += '"';
          j += 2;
        } else if (j + 1 >= n && !atEnd) {
          break; // A closing quote or the first of a doubled one: the next range says.
        } else {
          quoted = false;
          j++;
        }
        continue;
      }
      if (c === '"' && fieldStart) {
        quoted = true;
        fieldStart = false;
        j++;
      } else if (c === delimiter) {
        fields.push(field);
        field = '';
        fieldStart = true;
        j++;
      } else if (c === '\n' || c === '\r') {
        if (c === '\r' && j + 1 >= n && !atEnd) break; // CR LF split across ranges.
        j += c === '\r' && text[j + 1] === '\n' ? 2 : 1;
        complete = true;
        break;
      } else {
        field += c;
        fieldStart = false;
        j++;
      }
    }
    // An incomplete record waits for the next range; at the end of the file (even in an unclosed quote) it ends there.
    if (!complete && !(atEnd && j >= n)) break;
    fields.push(field);
    records.push(fields);
    at = j;
  }
  return { records, consumed: at };
}

/** A record that is only an empty line. */
export function isBlank(record: readonly string[]): boolean {
  return record.every((field) => field.trim() === '');
}
