import { describe, expect, it } from 'vitest';
import { templatePayload } from '#contracts/templates.ts';
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
      headerFormat: 'TEXT',
      header: 'Seu pedido',
      body: 'Olá {{1}}, pedido {{2}} saiu.',
      examples: ['Joana', '42'],
      footer: 'Doceria',
      buttons: payload.buttons,
    });
  });

  it("reads Meta's other states, header formats, copy-code buttons (a kind it does not send kept in its place) and reasons as the screen can show them", () => {
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
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'FLOW', text: 'Abrir' },
            { type: 'COPY_CODE', text: 'Copiar' },
            { type: 'URL', text: 'Ver', url: 'https://l.example.com/p/{{1}}' },
          ],
        },
      ],
    });
    expect(listed).toMatchObject({
      status: 'PENDING',
      headerFormat: 'IMAGE',
      header: null,
      // The FLOW button stays first: a send names the URL button as index 2, as Meta counts.
      buttons: [
        { type: 'UNSUPPORTED', text: 'Abrir', kind: 'FLOW' },
        { type: 'COPY_CODE', text: 'Copiar' },
        { type: 'URL', text: 'Ver', url: 'https://l.example.com/p/{{1}}' },
      ],
      rejectionReason: 'suspeita de golpe',
    });
    const text = fromGraphTemplate({
      id: '4',
      name: 'pedido',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['42'] } },
        { type: 'BODY', text: 'Oi' },
      ],
    });
    expect(text).toMatchObject({ headerFormat: 'TEXT', header: 'Pedido {{1}}' });
    expect(fromGraphTemplate({ id: '5', name: 'sem_cabecalho', components: [{ type: 'BODY', text: 'Oi' }] })).toMatchObject({
      headerFormat: null,
      header: null,
    });
    expect(fromGraphTemplate({ id: '2', name: 'x', status: 'PENDING_DELETION', components: [{ type: 'BODY', text: 'a' }] })?.status).toBe('DISABLED');
    expect(fromGraphTemplate({ id: '3', name: 'sem_corpo', components: [] })).toBeNull();
    expect(templateReasonText('NONE')).toBeNull();
    expect(templateReasonText('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });
});
