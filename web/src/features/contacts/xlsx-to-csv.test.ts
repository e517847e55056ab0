/**
 * Workbooks written by two real writers (openpyxl and XlsxWriter, tests/fixtures/contact-import)
 * read into the import's CSV: the first sheet only, strings shared, inline and rich, a phone stored
 * as a number in full, a formula by its cached result, booleans as Excel in Portuguese shows them,
 * a row the sheet leaves out kept as an empty line, separators and quotes quoted; and files that
 * are no workbook refused in pt-BR.
 */
import { File as NodeFile } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { columnIndex, XlsxError, xlsxTexts, xlsxToCsv, xlsxToCsvFile } from './xlsx-to-csv.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(join(process.cwd(), 'tests/fixtures/contact-import', name)));

describe('an .xlsx read as the import CSV', () => {
  it("reads openpyxl's workbook: the first sheet, the phone stored as a number in full, the missing row as an empty line", async () => {
    expect(await xlsxToCsv(fixture('clientes-openpyxl.xlsx'))).toBe(
      [
        'Nome;Telefone;E-mail',
        'João da Silva;5511987654321;joao@exemplo.com.br',
        '"Maria; ""Mari"" Souza";(21) 99876-5432',
        'Ana Lima;11987654321;ana@exemplo.com.br',
        '',
        'Caio Mendes;;caio@exemplo.com.br',
        '',
      ].join('\r\n'),
    );
  });

  it("reads XlsxWriter's workbook: rich text joined, a formula by its result, booleans in Portuguese", async () => {
    expect(await xlsxToCsv(fixture('clientes-xlsxwriter.xlsx'))).toBe(
      ['Nome;Telefone;Ativo', 'Beatriz Costa;5521998765432;VERDADEIRO', 'Dona Rosa;+55 31 98765-4321;FALSO', ''].join('\r\n'),
    );
  });

  it('names the CSV after the workbook, as text/csv', async () => {
    const bytes = fixture('clientes-xlsxwriter.xlsx');
    // jsdom's File has no arrayBuffer(); a browser's and Node's do.
    const file = await xlsxToCsvFile(new NodeFile([bytes], 'Clientes 2026.XLSX') as unknown as File);
    expect(file.name).toBe('Clientes 2026.csv');
    expect(file.type).toBe('text/csv');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(file);
    });
    expect(text.split('\r\n')[0]).toBe('Nome;Telefone;Ativo');
  });

  it('refuses what is no workbook: a legacy .xls (or a password-protected one), a zip without a workbook, random bytes', async () => {
    const refusal = async (bytes: Uint8Array) => {
      try {
        await xlsxToCsv(bytes);
        return 'read';
      } catch (error) {
        expect(error).toBeInstanceOf(XlsxError);
        return (error as Error).message;
      }
    };
    const compound = new Uint8Array(2048);
    compound.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await refusal(compound)).toBe(xlsxTexts.compoundFile);
    expect(await refusal(new TextEncoder().encode('Nome;Telefone\nJoão;11987654321\n'))).toBe(xlsxTexts.notAWorkbook);
    expect(await refusal(oneEntryZip('word/document.xml', '<w:document/>'))).toBe(xlsxTexts.notAWorkbook);
  });

  it('reads column references past Z', () => {
    expect([columnIndex('A1'), columnIndex('Z9'), columnIndex('AA10'), columnIndex('AB12')]).toEqual([0, 25, 26, 27]);
  });
});

/** A zip of one deflated entry, as the spec lays it out (local header, data, central directory, end record). */
function oneEntryZip(name: string, text: string): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const data = deflateRawSync(Buffer.from(text));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(text.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(text.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const centralAt = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, central, nameBytes, end]));
}
