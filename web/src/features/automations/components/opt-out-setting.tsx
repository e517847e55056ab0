import { useState } from 'react';
import type { OptOutSettings } from '#contracts/opt-out.ts';
import { InputField, TextareaField } from '#web/components/ui/field.tsx';
import type { FieldErrors } from '#web/features/automations/menu-form.ts';

/** Words typed comma-separated, as the list the setting keeps (blank entries dropped). */
const wordsOf = (text: string) =>
  text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);

const wordLists = ['optOut.words', 'optOut.optInWords'];

/** The first message on a list or one of its words ('optOut.words', 'optOut.words.1'). */
const listError = (errors: FieldErrors, path: string) => Object.entries(errors).find(([key]) => key === path || key.startsWith(`${path}.`))?.[1];

/**
 * 'Descadastro de campanhas' on 'Automações' (ADR-0225): the words that opt a customer out
 * of campaigns and back in, typed comma-separated (kept as typed while editing, so a trailing comma
 * stays), and the two confirmation texts sent while the card's switch is on.
 */
export function OptOutSetting({
  value,
  errors,
  disabled,
  onChange,
}: {
  value: OptOutSettings;
  errors: FieldErrors;
  disabled: boolean;
  /** `cleared`: the field messages the change answers (a word in both lists is one problem of both). */
  onChange: (next: OptOutSettings, cleared: string[]) => void;
}) {
  const [words, setWords] = useState(value.words.join(', '));
  const [optInWords, setOptInWords] = useState(value.optInWords.join(', '));
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="optOut-words"
          label="Palavras para sair"
          hint="Separadas por vírgula. Vale a mensagem inteira, sem diferença de maiúsculas ou acentos."
          value={words}
          disabled={disabled}
          error={listError(errors, 'optOut.words')}
          onChange={(e) => {
            setWords(e.target.value);
            onChange({ ...value, words: wordsOf(e.target.value) }, wordLists);
          }}
        />
        <InputField
          id="optOut-optInWords"
          label="Palavras para voltar"
          hint="Quem saiu volta a receber campanhas ao enviar uma delas."
          value={optInWords}
          disabled={disabled}
          error={listError(errors, 'optOut.optInWords')}
          onChange={(e) => {
            setOptInWords(e.target.value);
            onChange({ ...value, optInWords: wordsOf(e.target.value) }, wordLists);
          }}
        />
      </div>
      <TextareaField
        id="optOut-optOutText"
        label="Confirmação de descadastro"
        rows={2}
        value={value.confirmation.optOutText}
        disabled={disabled}
        error={errors['optOut.confirmation.optOutText']}
        onChange={(e) => onChange({ ...value, confirmation: { ...value.confirmation, optOutText: e.target.value } }, ['optOut.confirmation.optOutText'])}
      />
      <TextareaField
        id="optOut-optInText"
        label="Confirmação de volta"
        rows={2}
        value={value.confirmation.optInText}
        disabled={disabled}
        error={errors['optOut.confirmation.optInText']}
        onChange={(e) => onChange({ ...value, confirmation: { ...value.confirmation, optInText: e.target.value } }, ['optOut.confirmation.optInText'])}
      />
    </div>
  );
}
