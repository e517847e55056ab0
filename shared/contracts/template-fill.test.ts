import { describe, expect, it } from 'vitest';
import { renderFilledTemplate, templateFillSchema, templateFillTexts, templateSendSpec } from './template-fill.ts';
import type { MessageTemplate } from './templates.ts';
import { templateTexts } from './templates.ts';

const ctx = { contact: { name: 'Joana Souza', data: { phoneNumber: '5511987654321', email: null } }, agent: { name: 'Ana' } };

const boleto: Pick<MessageTemplate, 'name' | 'language' | 'headerFormat' | 'header' | 'body' | 'footer' | 'buttons' | 'variableCount'> = {
  name: 'boleto_pronto',
  language: 'pt_BR',
  headerFormat: 'DOCUMENT',
  header: null,
  body: 'Olá {{1}}, seu boleto de {{2}} está pronto.',
  footer: 'Loja Serra Azul',
  buttons: [
    { type: 'URL', text: 'Pagar', url: 'https://loja.example.com/boleto/{{1}}' },
    { type: 'URL', text: 'Site', url: 'https://loja.example.com' },
    { type: 'COPY_CODE', text: 'Copiar código' },
    { type: 'QUICK_REPLY', text: 'Já paguei' },
  ],
  variableCount: 2,
};

const issues = (template: typeof boleto, input: unknown) => {
  const parsed = templateFillSchema(template, ctx).safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('templateFillSchema', () => {
  it('fills contact fields in every value and answers one value per button', () => {
    const parsed = templateFillSchema(boleto, ctx).parse({
      parameters: ['{{primeiro_nome}}', 'R$ 80'],
      buttons: ['98765', '', 'VOLTE10', ''],
      media: { mimetype: 'application/pdf' },
    });
    expect(parsed).toEqual({ parameters: ['Joana', 'R$ 80'], header: null, buttons: ['98765', '', 'VOLTE10', ''] });
    expect(templateSendSpec(boleto, parsed)).toEqual({
      name: 'boleto_pronto',
      language: 'pt_BR',
      parameters: ['Joana', 'R$ 80'],
      header: { type: 'document' },
      buttons: [
        { index: 0, subType: 'url', value: '98765' },
        { index: 2, subType: 'copy_code', value: 'VOLTE10' },
      ],
    });
  });

  it('says in pt-BR what is missing, and refuses a file of another type than the header', () => {
    expect(issues(boleto, { parameters: ['Joana'], buttons: [], media: null })).toEqual([
      `template.parameters: ${templateTexts.parameterCount(2)}`,
      `fileId: ${templateFillTexts.mediaMissing('DOCUMENT')}`,
      `template.buttons.0: ${templateFillTexts.urlSuffixEmpty('Pagar')}`,
      `template.buttons.2: ${templateFillTexts.couponEmpty('Copiar código')}`,
    ]);
    expect(issues(boleto, { parameters: ['a', 'b'], buttons: ['1', '', 'CODIGO_LONGO_DEMAIS', ''], media: { mimetype: 'application/pdf' } })).toEqual([
      `template.buttons.2: ${templateFillTexts.couponTooLong}`,
    ]);
    expect(
      issues({ ...boleto, headerFormat: 'IMAGE' }, { parameters: ['a', 'b'], buttons: ['1', '', 'X', ''], media: { mimetype: 'application/pdf' } }),
    ).toEqual([`fileId: ${templateFillTexts.mediaWrongType('IMAGE')}`]);
    expect(templateFillTexts.mediaWrongType('IMAGE')).toBe('O cabeçalho deste modelo é uma imagem: escolha um arquivo JPG ou PNG');
    const text = { ...boleto, headerFormat: 'TEXT' as const, header: 'Boleto {{1}}', buttons: [] };
    expect(issues(text, { parameters: ['a', 'b'], header: '{{email}}' })).toEqual([`template.header: ${templateFillTexts.headerEmpty}`]);
    expect(issues(text, { parameters: ['a', 'b'], header: 'x', media: { mimetype: 'image/png' } })).toEqual([`fileId: ${templateFillTexts.mediaNotWanted}`]);
    expect(issues({ ...boleto, headerFormat: 'LOCATION', buttons: [] }, { parameters: ['a', 'b'] })).toEqual([
      `template.name: ${templateFillTexts.locationHeader}`,
    ]);
    // A button kind the product does not send (kept in its place at sync) refuses the template, named by Meta's kind.
    const flow = { ...boleto, headerFormat: null, buttons: [{ type: 'UNSUPPORTED' as const, text: 'Abrir', kind: 'FLOW' }, ...boleto.buttons] };
    expect(issues(flow, { parameters: ['a', 'b'], buttons: ['', '1', '', 'X', ''] })).toEqual([
      `template.name: ${templateFillTexts.unsupportedButton('FLOW')}`,
    ]);
    expect(templateFillTexts.unsupportedButton('FLOW')).toBe('Modelos com botão do tipo FLOW ainda não podem ser enviados por aqui');
  });
});

describe('renderFilledTemplate', () => {
  it('shows the text header, the body, the footer and the buttons as text', () => {
    const text = { ...boleto, headerFormat: 'TEXT' as const, header: 'Boleto {{1}}' };
    expect(renderFilledTemplate(text, { parameters: ['Joana', 'R$ 80'], header: '42', buttons: ['98765', '', 'VOLTE10', ''] })).toBe(
      'Boleto 42\n\nOlá Joana, seu boleto de R$ 80 está pronto.\n\nLoja Serra Azul\n\n' +
        '[Pagar] https://loja.example.com/boleto/98765\n[Site] https://loja.example.com\n[Copiar código] VOLTE10\n[Já paguei]',
    );
    // A media header is the message's file: no text for it; values not given yet keep their placeholders.
    expect(renderFilledTemplate({ ...boleto, buttons: [] }, { parameters: [] })).toBe('Olá {{1}}, seu boleto de {{2}} está pronto.\n\nLoja Serra Azul');
  });
});
