import { describe, expect, it } from 'vitest';
import { templateParameterValues, templatePayload, templateSendSchema, templateTexts, variableCount } from './templates.ts';

const contact = { contact: { name: 'Joana Souza', data: { phoneNumber: '5511987654321', email: null } }, agent: { name: 'Ana' } };

const issues = (input: unknown) => {
  const parsed = templatePayload.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('templatePayload', () => {
  const valid = { name: 'pedido_enviado', category: 'UTILITY', body: 'Olá {{1}}, seu pedido {{2}} saiu para entrega.', examples: ['Joana', '1234'] };

  it('takes a template with an example per variable, pt_BR by default', () => {
    const parsed = templatePayload.parse(valid);
    expect(parsed).toMatchObject({ language: 'pt_BR', header: null, footer: null, buttons: [], examples: ['Joana', '1234'] });
  });

  it("refuses names Meta refuses, variables out of order or at the text's edge, and missing examples", () => {
    expect(issues({ ...valid, name: 'Pedido Enviado' })).toEqual([`name: ${templateTexts.name}`]);
    expect(issues({ ...valid, name: 'promoção' })).toEqual([`name: ${templateTexts.name}`]);
    expect(issues({ ...valid, body: 'Olá {{1}}, pedido {{3}} ok', examples: ['a', 'b', 'c'] })).toEqual([`body: ${templateTexts.variablesInOrder}`]);
    expect(issues({ ...valid, body: '{{1}}, seu pedido saiu', examples: ['a'] })).toEqual([`body: ${templateTexts.variableAtEdge}`]);
    expect(issues({ ...valid, examples: ['Joana'] })).toEqual([`examples.1: ${templateTexts.exampleMissing}`]);
    expect(issues({ ...valid, examples: ['Joana', '  '] })).toEqual([`examples.1: ${templateTexts.exampleMissing}`]);
    expect(issues({ ...valid, header: 'Oi {{1}}' })).toEqual([`header: ${templateTexts.noVariables}`]);
    expect(issues({ ...valid, category: 'PROMO' })).toHaveLength(1);
    expect(issues({ ...valid, body: '' })).toEqual(['body: Campo obrigatório']);
  });

  it("keeps within Meta's button limits", () => {
    const url = { type: 'URL', text: 'Ver pedido', url: 'https://loja.example.com/p' };
    expect(issues({ ...valid, buttons: [url, url] })).toEqual([]);
    expect(issues({ ...valid, buttons: [url, url, url] })).toEqual([`buttons: ${templateTexts.tooManyUrlButtons}`]);
    const phone = { type: 'PHONE_NUMBER', text: 'Ligar', phoneNumber: '+5511987654321' };
    expect(issues({ ...valid, buttons: [phone, phone] })).toEqual([`buttons: ${templateTexts.tooManyPhoneButtons}`]);
    const reply = { type: 'QUICK_REPLY', text: 'Sim' };
    expect(issues({ ...valid, buttons: Array(11).fill(reply) })).toEqual([`buttons: ${templateTexts.tooManyButtons}`]);
    expect(issues({ ...valid, buttons: [{ ...url, url: 'http://x.com' }] })).toEqual([`buttons.0.url: ${templateTexts.url}`]);
    expect(issues({ ...valid, buttons: [{ ...phone, phoneNumber: '11 98765-4321' }] })).toEqual([`buttons.0.phoneNumber: ${templateTexts.phone}`]);
    expect(issues({ ...valid, buttons: [{ type: 'QUICK_REPLY', text: 'x'.repeat(26) }] })).toEqual(['buttons.0.text: Use no máximo 25 caracteres']);
  });

  it('counts the variables of a body by the highest number', () => {
    expect(variableCount('sem variáveis')).toBe(0);
    expect(variableCount('a {{1}} b {{2}} c {{1}} d')).toBe(2);
  });
});

describe('templateParameterValues', () => {
  it('fills contact fields and keeps typed values', () => {
    expect(templateParameterValues(['{{primeiro_nome}}', 'pedido 42', '{{ nome }} ({{telefone}})'], 3, contact)).toEqual({
      ok: true,
      values: ['Joana', 'pedido 42', 'Joana Souza (5511987654321)'],
    });
  });

  it('refuses a count that is not the template’s and a value left empty for this contact', () => {
    expect(templateParameterValues(['a'], 2, contact)).toEqual({ ok: false, path: 'template.parameters', message: templateTexts.parameterCount(2) });
    expect(templateParameterValues(['a', '{{email}}'], 2, contact)).toEqual({
      ok: false,
      path: 'template.parameters.1',
      message: templateTexts.parameterEmpty(2),
    });
    // An unknown field stays as typed (as in quick replies), so it is not empty.
    expect(templateParameterValues(['{{cidade}}'], 1, contact)).toEqual({ ok: true, values: ['{{cidade}}'] });
  });
});

describe('templateSendSchema', () => {
  it('defaults the language and the parameters', () => {
    expect(templateSendSchema.parse({ name: 'boas_vindas' })).toEqual({ name: 'boas_vindas', language: 'pt_BR', parameters: [], buttons: [] });
    expect(templateSendSchema.safeParse({ name: 'Boas Vindas' }).success).toBe(false);
  });
});
