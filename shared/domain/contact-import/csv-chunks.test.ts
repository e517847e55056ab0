import { describe, expect, it } from 'vitest';
import { bytesOf, decodeRange, detectDelimiter, detectFormat, readRecords } from './csv-chunks.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Bytes as Excel in Brazil saves them: Windows-1252 (every character here is one byte of it). */
function windows1252(text: string): Uint8Array {
  const table: Record<string, number> = { ã: 0xe3, ç: 0xe7, é: 0xe9, á: 0xe1, õ: 0xf5, Ã: 0xc3, '€': 0x80 };
  return Uint8Array.from([...text].map((c) => table[c] ?? c.charCodeAt(0)));
}

/** Reads a whole file the way the import's steps do: `size` bytes a range, records by `max`. */
function readAll(file: Uint8Array, size: number, max: number): { records: string[][]; encoding: string } {
  const format = detectFormat(file.subarray(0, 64 * 1024), file.length <= 64 * 1024);
  let encoding = format.encoding;
  let offset = format.start;
  const records: string[][] = [];
  while (offset < file.length) {
    const end = Math.min(file.length, offset + size);
    const atEnd = end >= file.length;
    const decoded = decodeRange(file.subarray(offset, end), encoding, atEnd);
    const read = readRecords(decoded.text, format.delimiter, atEnd, max);
    if (!read.records.length && !atEnd) {
      size *= 2;
      continue;
    }
    records.push(...read.records);
    encoding = decoded.encoding;
    offset += bytesOf(decoded.text, read.consumed, decoded.encoding);
    if (atEnd && read.consumed >= decoded.text.length) break;
  }
  return { records, encoding };
}

describe('CSV ranges', () => {
  it('reads UTF-8 with a BOM, the BOM left out of the first header cell', () => {
    const file = utf8('\uFEFFnome;telefone\r\nJoão;11 98765-4321\r\n');
    const format = detectFormat(file, true);
    expect(format).toMatchObject({ encoding: 'utf-8', delimiter: ';', start: 3 });
    expect(readAll(file, 1024, 10).records).toEqual([
      ['nome', 'telefone'],
      ['João', '11 98765-4321'],
    ]);
  });

  it('reads UTF-8 without a BOM', () => {
    const file = utf8('name,phone\nSão Paulo Ltda,11987654321\n');
    expect(detectFormat(file, true)).toMatchObject({ encoding: 'utf-8', delimiter: ',', start: 0 });
    expect(readAll(file, 1024, 10).records[1]).toEqual(['São Paulo Ltda', '11987654321']);
  });

  it("reads Windows-1252 as Excel in Brazil saves it ('São Paulo', 'João')", () => {
    const file = windows1252('Nome;Cidade;Celular\r\nJoão;São Paulo;(11) 98765-4321\r\nConceição;Ribeirão;21 99876-5432\r\n');
    expect(detectFormat(file, true).encoding).toBe('windows-1252');
    expect(readAll(file, 1024, 10).records).toEqual([
      ['Nome', 'Cidade', 'Celular'],
      ['João', 'São Paulo', '(11) 98765-4321'],
      ['Conceição', 'Ribeirão', '21 99876-5432'],
    ]);
  });

  it('turns to Windows-1252 where a later range is not UTF-8 (an ASCII head)', () => {
    const head = `nome;telefone\r\n${'Ana;11987654321\r\n'.repeat(10)}`;
    const file = new Uint8Array([...utf8(head), ...windows1252('João;11987654322\r\n')]);
    const { records, encoding } = readAll(file, 64, 3);
    expect(encoding).toBe('windows-1252');
    expect(records.at(-1)).toEqual(['João', '11987654322']);
    expect(records).toHaveLength(12);
  });

  it('keeps a UTF-8 character cut by the end of a range for the next range', () => {
    const file = utf8('nome;telefone\nJoão;1\nJoão;2\nJoão;3\nJoão;4\n');
    for (const size of [5, 7, 11, 16]) {
      const { records, encoding } = readAll(file, size, 1);
      expect(encoding).toBe('utf-8');
      expect(records.slice(1).map((r) => r[0])).toEqual(['João', 'João', 'João', 'João']);
    }
  });

  it('tells the separator by the header line, quotes ignored; a tie is ;', () => {
    expect(detectDelimiter('nome;telefone;email\na,b,c,d,e')).toBe(';');
    expect(detectDelimiter('"Nome; completo",telefone,email\n')).toBe(',');
    expect(detectDelimiter('nome\ttelefone\n')).toBe('\t');
    expect(detectDelimiter('a;b,c\n')).toBe(';');
    expect(detectDelimiter('telefone\n')).toBe(',');
  });

  it('reads quoted fields with separators, doubled quotes and line breaks, CRLF and LF alike', () => {
    const text = 'nome;obs;telefone\r\n"Silva; Ana";"disse ""oi""\r\nna loja";11987654321\n"Bia";;"21 98765-4321"';
    expect(readRecords(text, ';', true, 10)).toEqual({
      records: [
        ['nome', 'obs', 'telefone'],
        ['Silva; Ana', 'disse "oi"\r\nna loja', '11987654321'],
        ['Bia', '', '21 98765-4321'],
      ],
      consumed: text.length,
    });
  });

  it('leaves an incomplete last record for the next range', () => {
    expect(readRecords('a;b\n"c;\nd', ';', false, 10)).toEqual({ records: [['a', 'b']], consumed: 4 });
    expect(readRecords('a;b\r', ';', false, 10)).toEqual({ records: [], consumed: 0 });
    expect(readRecords('a;"b"', ';', false, 10)).toEqual({ records: [], consumed: 0 });
    expect(readRecords('a;"b"', ';', true, 10)).toEqual({ records: [['a', 'b']], consumed: 5 });
  });

  it('stops after `max` records, saying where the next begins', () => {
    const text = 'h\n1\n2\n3\n';
    expect(readRecords(text, ',', false, 2)).toEqual({ records: [['h'], ['1']], consumed: 4 });
  });

  it('counts bytes as the file has them', () => {
    expect(bytesOf('João;1\n', 5, 'utf-8')).toBe(6);
    expect(bytesOf('João;1\n', 5, 'windows-1252')).toBe(5);
  });
});
