import { describe, expect, it } from 'vitest';
import { signedText } from './signature.ts';

describe('signedText', () => {
  it('puts the name in bold on a line of its own on both WhatsApp connections', () => {
    expect(signedText('whatsapp', 'Ana Souza', 'Olá, tudo bem?')).toBe('*Ana Souza:*\nOlá, tudo bem?');
    expect(signedText('whatsapp_cloud', 'Ana Souza', 'Olá')).toBe('*Ana Souza:*\nOlá');
  });

  it('puts the name as plain text on Telegram, which gets no parse mode', () => {
    expect(signedText('telegram', 'Ana Souza', 'Olá\nsegunda linha')).toBe('Ana Souza:\nOlá\nsegunda linha');
    expect(signedText('telegram', 'Ana *VIP*', 'Olá')).toBe('Ana *VIP*:\nOlá');
  });

  it('leaves asterisks out of a WhatsApp name and trims it', () => {
    expect(signedText('whatsapp', '  Ana *VIP* ', 'Olá')).toBe('*Ana VIP:*\nOlá');
  });

  it('leaves an empty text (a file with no caption) and a nameless author unsigned', () => {
    expect(signedText('whatsapp', 'Ana Souza', '')).toBe('');
    expect(signedText('telegram', '  ', 'Olá')).toBe('Olá');
    expect(signedText('whatsapp', '**', 'Olá')).toBe('Olá');
  });
});
