/**
 * Opting out of campaigns (LGPD; ADR-0225): the words a customer sends to stop receiving
 * campaigns, and to receive them again, kept in the account's automations (automations.ts), and how
 * a message is matched against them: the whole message, trimmed, case- and accent-insensitive.
 */
import { z } from 'zod';
import { requiredText } from './fields.ts';

/** The word, folded as it is compared: trimmed, lower-cased, accents dropped. */
export function foldWord(text: string): string {
  return text
    .trim()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

export const optOutTexts = {
  wordRepeated: 'Esta palavra já está na lista',
  wordInBoth: 'Uma palavra não pode servir para sair e para voltar',
  wordsRequired: 'Informe pelo menos uma palavra para sair',
  tooManyWords: 'Use no máximo 10 palavras',
} as const;

const word = z
  .string({ error: requiredText })
  .trim()
  .min(1, { error: requiredText })
  .max(30, { error: 'Use no máximo 30 caracteres' })
  .regex(/^\S+$/u, { error: 'Use uma palavra só, sem espaços' });

const wordList = z.array(word).max(10, { error: optOutTexts.tooManyWords });

/** What a customer's message does about campaigns: opts out, opts back in, or nothing. */
export type OptOutIntent = { kind: 'out' | 'in'; word: string } | null;

/** Matches a whole message (trimmed, case- and accent-insensitive) against the opt-out and opt-in words. */
export function optOutIntent(text: string, settings: Pick<OptOutSettings, 'words' | 'optInWords'>): OptOutIntent {
  const folded = foldWord(text);
  if (!folded) return null;
  const out = settings.words.find((w) => foldWord(w) === folded);
  if (out) return { kind: 'out', word: out };
  const back = settings.optInWords.find((w) => foldWord(w) === folded);
  return back ? { kind: 'in', word: back } : null;
}

export const defaultOptOutText = 'Você não receberá mais mensagens de campanhas. Para voltar a receber, envie VOLTAR.';
export const defaultOptInText = 'Pronto! Você voltará a receber nossas mensagens de campanhas. Para sair, envie SAIR.';

/**
 * The opt-out setting. The words always work (the customer's right does not wait for a switch);
 * the confirmation texts are sent only while `confirm` is on. `messageText` is the automations'
 * text field (its variables checked), passed in to keep one definition.
 */
export function optOutSettingsSchema(messageText: z.ZodType<string>, keptText: z.ZodType<string>) {
  return z
    .object({
      words: wordList.min(1, { error: optOutTexts.wordsRequired }),
      optInWords: wordList,
      confirmation: z.discriminatedUnion(
        'enabled',
        [
          z.object({ enabled: z.literal(true), optOutText: messageText, optInText: messageText }),
          z.object({ enabled: z.literal(false), optOutText: keptText, optInText: keptText }),
        ],
        { error: requiredText },
      ),
    })
    .superRefine((s, ctx) => {
      const seen = new Map<string, string>();
      for (const [list, words] of [
        ['words', s.words],
        ['optInWords', s.optInWords],
      ] as const) {
        words.forEach((w, i) => {
          const folded = foldWord(w);
          const first = seen.get(folded);
          if (first === list) ctx.addIssue({ code: 'custom', message: optOutTexts.wordRepeated, path: [list, i] });
          else if (first) ctx.addIssue({ code: 'custom', message: optOutTexts.wordInBoth, path: [list, i] });
          else seen.set(folded, list);
        });
      }
    });
}

export interface OptOutSettings {
  words: string[];
  optInWords: string[];
  confirmation: { enabled: boolean; optOutText: string; optInText: string };
}

/** Until saved: 'SAIR' and 'PARAR' opt out, 'VOLTAR' opts back in, no confirmation sent. */
export const defaultOptOutSettings: OptOutSettings = {
  words: ['SAIR', 'PARAR'],
  optInWords: ['VOLTAR'],
  confirmation: { enabled: false, optOutText: defaultOptOutText, optInText: defaultOptInText },
};
