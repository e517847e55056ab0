import { describe, expect, it } from 'vitest';
import { automationSettingsSchema, defaultAutomationSettings } from './automations.ts';
import { defaultOptOutSettings, optOutIntent, optOutTexts } from './opt-out.ts';

describe('optOutIntent', () => {
  it('matches the whole message, trimmed, in any case and with or without accents', () => {
    for (const text of ['SAIR', 'sair', '  Sair \n', 'Saír', 'PARAR', 'párar']) {
      expect(optOutIntent(text, defaultOptOutSettings)).toEqual({ kind: 'out', word: text.trim().toLowerCase().startsWith('s') ? 'SAIR' : 'PARAR' });
    }
    expect(optOutIntent('voltar', defaultOptOutSettings)).toEqual({ kind: 'in', word: 'VOLTAR' });
  });

  it('ignores a message that only contains the word, and empty messages', () => {
    for (const text of ['quero sair', 'sair.', 'SAIR!', 'sai', 'sairr', '', '   ', 'parar de receber']) {
      expect(optOutIntent(text, defaultOptOutSettings)).toBeNull();
    }
  });

  it("uses the account's own words, accents folded on both sides", () => {
    const settings = { words: ['Cancelar', 'NÃO'], optInWords: ['Começar'] };
    expect(optOutIntent('nao', settings)).toEqual({ kind: 'out', word: 'NÃO' });
    expect(optOutIntent('CANCELAR', settings)).toEqual({ kind: 'out', word: 'Cancelar' });
    expect(optOutIntent('comecar', settings)).toEqual({ kind: 'in', word: 'Começar' });
    expect(optOutIntent('sair', settings)).toBeNull();
  });
});

describe('the opt-out setting', () => {
  const withOptOut = (optOut: unknown) => automationSettingsSchema.safeParse({ ...defaultAutomationSettings, optOut });

  it('defaults documents saved before it to SAIR, PARAR and VOLTAR with no confirmation', () => {
    const { optOut: _, ...older } = defaultAutomationSettings;
    void _;
    expect(automationSettingsSchema.parse(older).optOut).toEqual(defaultOptOutSettings);
  });

  it('refuses repeated words, a word in both lists, no word to leave and words with spaces', () => {
    const base = defaultOptOutSettings;
    const messages = (optOut: unknown) => {
      const parsed = withOptOut(optOut);
      return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(messages({ ...base, words: ['SAIR', 'sair'] })).toEqual([['optOut.words.1', optOutTexts.wordRepeated]]);
    expect(messages({ ...base, optInWords: ['Sáir'] })).toEqual([['optOut.optInWords.0', optOutTexts.wordInBoth]]);
    expect(messages({ ...base, words: [] })).toEqual([['optOut.words', optOutTexts.wordsRequired]]);
    expect(messages({ ...base, words: ['não quero'] })).toEqual([['optOut.words.0', 'Use uma palavra só, sem espaços']]);
  });

  it('requires the confirmation texts only while the confirmation is on', () => {
    const blank = { enabled: false, optOutText: '', optInText: '' };
    expect(withOptOut({ ...defaultOptOutSettings, confirmation: blank }).success).toBe(true);
    expect(withOptOut({ ...defaultOptOutSettings, confirmation: { ...blank, enabled: true } }).success).toBe(false);
  });
});
