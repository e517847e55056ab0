import { describe, expect, it } from 'vitest';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { contactCsvChunks, contactCsvHeaders, contactCsvLine, csvBom, csvDateFormat, csvField, csvLine } from './contact-csv.ts';

describe('the CSV writer', () => {
  it('quotes every field, doubles inner quotes, keeps ; and line breaks inside the quotes', () => {
    expect(csvLine(['Ana "Aninha" Souza', 'a;b', 'linha 1\nlinha 2', null, 42])).toBe('"Ana ""Aninha"" Souza";"a;b";"linha 1\nlinha 2";"";"42"\r\n');
  });

  it('disarms what a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+5511999990000')).toBe(`"'+5511999990000"`);
    expect(csvField('-1')).toBe(`"'-1"`);
    expect(csvField('@soma')).toBe(`"'@soma"`);
    expect(csvField('João')).toBe('"João"');
  });

  it('writes dates as dd/MM/yyyy HH:mm in the time zone given', () => {
    const date = csvDateFormat('America/Sao_Paulo');
    expect(date('2026-11-27T14:05:00.000Z')).toBe('27/11/2026 11:05');
    expect(date(null)).toBe('');
  });

  it('writes a contact with its connection, tag names, status and opt-out date, in the headers order', () => {
    const contact = contactFixture({
      id: 'c1',
      name: 'Conceição Araújo',
      data: { email: 'ceica@example.com', phoneNumber: '5511988887777', phoneCountry: 'BR' },
      service: { id: 's1', name: 'Loja', type: 'whatsapp' },
      tags: ['t1', 'gone', 't2'],
      department: { id: 'd1', name: 'Financeiro' },
      status: 'pending',
      optedOutAt: '2026-11-20T12:00:00.000Z',
    });
    const line = contactCsvLine(
      contact,
      new Map([
        ['t1', 'VIP'],
        ['t2', 'Atacado'],
      ]),
      csvDateFormat('America/Sao_Paulo'),
    );
    const fields = line.trimEnd().split(';');
    expect(fields).toHaveLength(contactCsvHeaders.length);
    expect(Object.fromEntries(contactCsvHeaders.map((h, i) => [h, fields[i]]))).toMatchObject({
      Nome: '"Conceição Araújo"',
      Telefone: '"5511988887777"',
      Conexão: '"Loja"',
      'Tipo de conexão': '"WhatsApp"',
      Etiquetas: '"VIP, Atacado"',
      Departamento: '"Financeiro"',
      Status: '"Pendente"',
      'Descadastrado de campanhas em': '"20/11/2026 09:00"',
    });
  });

  it('starts with the byte-order mark Excel needs to read UTF-8', () => {
    expect(new TextEncoder().encode(csvBom)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it('comes as bounded chunks for 50,000 contacts, which together are the whole file (over the 6 MB a response may carry)', async () => {
    const contacts = Array.from({ length: 50_000 }, (_, i) =>
      contactFixture({
        id: `c${i}`,
        name: `Cliente Número ${i} da Conceição`,
        data: { email: `cliente.${i}@exemplo.com.br`, phoneNumber: `55119${String(i).padStart(8, '0')}`, phoneCountry: 'BR' },
        service: { id: 's1', name: 'WhatsApp da Loja', type: 'whatsapp' },
        tags: ['t1'],
        lastMessageAt: '2026-11-20T12:00:00.000Z',
      }),
    );
    const chunks: Uint8Array[] = [];
    for await (const chunk of contactCsvChunks(contacts, new Map([['t1', 'Clientes antigos']]), csvDateFormat('America/Sao_Paulo'))) chunks.push(chunk);
    expect(chunks).toHaveLength(1 + 25);
    const total = chunks.reduce((n, c) => n + c.length, 0);
    expect(total).toBeGreaterThan(6 * 1024 * 1024);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(total / 20);
    const text = new TextDecoder().decode(Buffer.concat(chunks));
    const lines = text.split('\r\n');
    expect(lines).toHaveLength(50_002);
    expect(lines[50_000]).toContain('"Cliente Número 49999 da Conceição"');
    expect(lines[50_001]).toBe('');
  });
});
