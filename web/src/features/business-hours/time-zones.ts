/**
 * The zones the 'Horário de atendimento' form offers: Brazil's (by the states that keep each
 * offset; none has daylight saving time since 2019) and Portugal's, where many Brazilian businesses
 * also serve. An account saved with another IANA zone (through the API) keeps it as an option.
 */
export const timeZoneOptions: { value: string; label: string }[] = [
  { value: 'America/Sao_Paulo', label: 'Horário de Brasília (UTC−3)' },
  { value: 'America/Noronha', label: 'Fernando de Noronha (UTC−2)' },
  { value: 'America/Manaus', label: 'Amazonas, Rondônia e Roraima (UTC−4)' },
  { value: 'America/Cuiaba', label: 'Mato Grosso (UTC−4)' },
  { value: 'America/Campo_Grande', label: 'Mato Grosso do Sul (UTC−4)' },
  { value: 'America/Rio_Branco', label: 'Acre e oeste do Amazonas (UTC−5)' },
  { value: 'Europe/Lisbon', label: 'Portugal continental (Lisboa)' },
];

/** The options, with the account's own zone added when it is not one of them. */
export function timeZoneChoices(current: string): { value: string; label: string }[] {
  return timeZoneOptions.some((o) => o.value === current) ? timeZoneOptions : [...timeZoneOptions, { value: current, label: current }];
}
