import { describe, expect, it } from 'vitest';
import { fillVariables, quickReplyPayload, variableValues } from './quick-replies.ts';

const ctx = {
  contact: { name: '  Maria da Silva ', data: { phoneNumber: '5511987654321', email: null } },
  agent: { name: 'Ana' },
};

describe('quick-reply variables', () => {
  it('fills every known variable from the contact and the agent', () => {
    const text = 'Olá {{primeiro_nome}}! Sou {{atendente}}. Nome: {{nome}}, telefone {{telefone}}.';
    expect(fillVariables(text, variableValues(ctx))).toBe('Olá Maria! Sou Ana. Nome: Maria da Silva, telefone 5511987654321.');
  });

  it('fills a variable with spaces inside the braces and in any case', () => {
    expect(fillVariables('Oi {{ NOME }}', variableValues(ctx))).toBe('Oi Maria da Silva');
  });

  it('leaves an empty value for a known variable the contact does not have', () => {
    expect(fillVariables('E-mail: [{{email}}]', variableValues(ctx))).toBe('E-mail: []');
  });

  it('keeps an unknown variable as typed', () => {
    expect(fillVariables('Pedido {{pedido}} de {{nome}}', variableValues(ctx))).toBe('Pedido {{pedido}} de Maria da Silva');
  });

  it('does not read inherited properties as variables', () => {
    expect(fillVariables('{{constructor}} {{toString}}', variableValues(ctx))).toBe('{{constructor}} {{toString}}');
  });
});

describe('quick-reply payload', () => {
  it('takes a shortcut typed with its slash and in capitals', () => {
    expect(quickReplyPayload.parse({ shortcut: ' /Boleto ', text: 'Segue o boleto' }).shortcut).toBe('boleto');
  });

  it('refuses a shortcut with spaces, in pt-BR', () => {
    const result = quickReplyPayload.safeParse({ shortcut: 'meu atalho', text: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Use só letras minúsculas, números, - e _ (sem espaços)');
  });
});
