import { describe, expect, it } from 'vitest';
import { templatePayload } from '#contracts/templates.ts';
import { templateBody } from './send.ts';
import { fromGraphTemplate, templateReasonText, toGraphTemplate } from './templates.ts';

describe("templates in Meta's shape", () => {
  it("turn the form's fields into Meta's components, and back", () => {
    const payload = templatePayload.parse({
      name: 'pedido_enviado',
      category: 'UTILITY',
      header: 'Seu pedido',
      body: 'Olá {{1}}, pedido {{2}} saiu.',
      examples: ['Joana', '42'],
      footer: 'Doceria',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Obrigado' },
        { type: 'URL', text: 'Ver', url: 'https://loja.example.com/p' },
        { type: 'PHONE_NUMBER', text: 'Ligar', phoneNumber: '+5511987654321' },
      ],
    });
    const wire = toGraphTemplate(payload);
    expect(wire).toEqual({
      name: 'pedido_enviado',
      language: 'pt_BR',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Seu pedido' },
        { type: 'BODY', text: 'Olá {{1}}, pedido {{2}} saiu.', example: { body_text: [['Joana', '42']] } },
        { type: 'FOOTER', text: 'Doceria' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Obrigado' },
            { type: 'URL', text: 'Ver', url: 'https://loja.example.com/p' },
            { type: 'PHONE_NUMBER', text: 'Ligar', phone_number: '+5511987654321' },
          ],
        },
      ],
    });
    expect(fromGraphTemplate({ ...wire, id: 987, status: 'APPROVED' })).toEqual({
      id: '987',
      name: 'pedido_enviado',
      language: 'pt_BR',
      category: 'UTILITY',
      status: 'APPROVED',
      rejectionReason: null,
      header: 'Seu pedido',
      body: 'Olá {{1}}, pedido {{2}} saiu.',
      examples: ['Joana', '42'],
      footer: 'Doceria',
      buttons: payload.buttons,
    });
  });

  it("reads Meta's other states, media headers and reasons as the screen can show them", () => {
    const listed = fromGraphTemplate({
      id: '1',
      name: 'foto',
      language: 'en_US',
      category: 'MARKETING',
      status: 'IN_APPEAL',
      rejected_reason: 'SCAM',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Veja' },
        { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', text: 'Copiar' }] },
      ],
    });
    expect(listed).toMatchObject({ status: 'PENDING', header: null, buttons: [], rejectionReason: 'suspeita de golpe' });
    expect(fromGraphTemplate({ id: '2', name: 'x', status: 'PENDING_DELETION', components: [{ type: 'BODY', text: 'a' }] })?.status).toBe('DISABLED');
    expect(fromGraphTemplate({ id: '3', name: 'sem_corpo', components: [] })).toBeNull();
    expect(templateReasonText('NONE')).toBeNull();
    expect(templateReasonText('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });

  it('sends a template with its body parameters, and none when it has no variables', () => {
    expect(templateBody({ name: 'pedido_enviado', language: 'pt_BR', parameters: ['Joana', '42'] })).toEqual({
      type: 'template',
      template: {
        name: 'pedido_enviado',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Joana' },
              { type: 'text', text: '42' },
            ],
          },
        ],
      },
    });
    expect(templateBody({ name: 'boas_vindas', language: 'pt_BR', parameters: [] })).toEqual({
      type: 'template',
      template: { name: 'boas_vindas', language: { code: 'pt_BR' } },
    });
  });
});
