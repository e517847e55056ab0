import { describe, expect, it } from 'vitest';
import { guessMapping } from '#contracts/contact-imports.ts';
import { normaliseImportPhone, withoutNinthDigit } from './import-phone.ts';
import { evaluateRow, problemLine, repetitionOf, type ImportRow, type SeenRows } from './import-rows.ts';

describe('import phones', () => {
  it.each([
    ['(11) 98765-4321', '5511987654321'],
    ['+55 11 98765-4321', '5511987654321'],
    ['5511987654321', '5511987654321'],
    ['011 98765 4321', '5511987654321'],
    ['0 15 11 98765-4321', '5511987654321'],
    // The Brazilian ninth digit added to a mobile of eight digits (6..9 first).
    ['11 8765-4321', '5511987654321'],
    ['551187654321', '5511987654321'],
    ['+55 21 7654-3210', '5521976543210'],
    // A landline keeps its eight digits.
    ['(21) 2345-6789', '552123456789'],
    ['+351 912 345 678', '351912345678'],
  ])('%s is %s', (raw, digits) => {
    expect(normaliseImportPhone(raw, 'BR')?.digits).toBe(digits);
  });

  it('keeps the country of the number', () => {
    expect(normaliseImportPhone('+351 912 345 678', 'BR')).toEqual({ digits: '351912345678', country: 'PT' });
    expect(normaliseImportPhone('912 345 678', 'PT')).toEqual({ digits: '351912345678', country: 'PT' });
  });

  it.each(['12345', '5,51199E+12', 'ligar depois', '', '(11) 1234', '+55 11 98765-43210000'])('refuses %j', (raw) => {
    expect(normaliseImportPhone(raw, 'BR')).toBeNull();
  });

  it('spells a Brazilian mobile without its ninth digit', () => {
    expect(withoutNinthDigit('5511987654321')).toBe('551187654321');
    expect(withoutNinthDigit('552123456789')).toBeNull();
  });
});

describe('import rows', () => {
  const mapping = ['name', 'ignore', 'phone', 'email'] as const;

  it('makes a row of the mapped columns', () => {
    expect(evaluateRow(['  João  da Silva ', 'x', '(11) 98765-4321', 'Joao@Exemplo.com.br'], 2, [...mapping], 'BR')).toEqual({
      ok: true,
      row: { line: 2, name: 'João da Silva', phone: { digits: '5511987654321', country: 'BR' }, email: 'joao@exemplo.com.br' },
    });
  });

  it('names a contact without a name by its number', () => {
    const outcome = evaluateRow(['', '', '11987654321', ''], 3, [...mapping], 'BR');
    expect(outcome).toMatchObject({ ok: true, row: { name: '+5511987654321', email: null } });
  });

  it.each([
    [['', '', '', 'a@b.com'], 'Sem nome nem telefone'],
    [['Ana', '', '', ''], 'Sem telefone'],
    [['Ana', '', '1234', ''], 'Telefone inválido'],
    [['Ana', '', '11987654321', 'ana@'], 'E-mail inválido'],
  ])('refuses %j: %s', (record, reason) => {
    expect(evaluateRow(record, 7, [...mapping], 'BR')).toEqual({ ok: false, line: 7, reason });
  });

  it('refuses a repeated phone or e-mail naming the first line, but not the same line read again', () => {
    const seen: SeenRows = { phones: {}, emails: {} };
    const row = (line: number, digits: string, email: string | null): ImportRow => ({ line, name: 'X', phone: { digits, country: 'BR' }, email });
    expect(repetitionOf(seen, row(2, '5511987654321', 'a@b.com'))).toBeNull();
    expect(repetitionOf(seen, row(12, '5511987654322', null))).toBeNull();
    expect(repetitionOf(seen, row(15, '5511987654322', null))).toBe('Telefone repetido na linha 12');
    expect(repetitionOf(seen, row(20, '5511900000000', 'a@b.com'))).toBe('E-mail repetido na linha 2');
    expect(repetitionOf(seen, row(2, '5511987654321', 'a@b.com'))).toBeNull();
  });

  it('writes a row left out as a line of the downloadable list', () => {
    expect(problemLine(12, 'Telefone inválido', ['Silva; Ana', '123'])).toBe('12;Telefone inválido;"Silva; Ana | 123"');
  });
});

describe('mapping guessed from the header', () => {
  it('reads Portuguese and English names, one column per field', () => {
    expect(guessMapping(['Nome', 'Cidade', 'Celular', 'E-mail', 'Telefone fixo'])).toEqual(['name', 'ignore', 'phone', 'email', 'ignore']);
    expect(guessMapping(['name', 'phone', 'email'])).toEqual(['name', 'phone', 'email']);
    expect(guessMapping(['WhatsApp', 'Nome completo', 'EMAIL'])).toEqual(['phone', 'name', 'email']);
    expect(guessMapping(['Número', 'Observação'])).toEqual(['phone', 'ignore']);
  });
});
