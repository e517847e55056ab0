import { useState } from 'react';
import { CalendarPlus, Plus, Trash2 } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { CheckboxField, InputField } from '#web/components/ui/field.tsx';
import { formatDate } from '#web/lib/format.ts';
import { showToast } from '#web/lib/notify.ts';
import { type FieldErrors, type HolidayRow, newKey, withNationalHolidays } from '#web/features/business-hours/hours-form.ts';

/** 'YYYY-MM-DD' of today in a zone. */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** A date of the list in pt-BR ('25/12/2026'), read as a calendar day (no zone shift). */
const shownDate = (date: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? formatDate(`${date}T12:00:00`) : date);

/**
 * The account's holidays (closed all day, in its zone): the list, one added by date and name, and
 * Brazil's national holidays still ahead this year and next added at once (pontos facultativos
 * when ticked). `errors` are keyed `<row key>.date|name`.
 */
export function HolidaysList({
  holidays,
  timeZone,
  errors,
  readOnly,
  onChange,
}: {
  holidays: HolidayRow[];
  timeZone: string;
  errors: FieldErrors;
  readOnly: boolean;
  onChange: (holidays: HolidayRow[]) => void;
}) {
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [optional, setOptional] = useState(false);
  const [draftError, setDraftError] = useState<{ date?: string; name?: string }>({});

  const add = () => {
    const problems = {
      ...(date ? {} : { date: 'Informe a data' }),
      ...(name.trim() ? {} : { name: 'Informe o nome do feriado' }),
      ...(date && holidays.some((h) => h.date === date) ? { date: 'Esta data já está na lista de feriados' } : {}),
    };
    setDraftError(problems);
    if (Object.keys(problems).length) return;
    onChange([...holidays, { key: newKey(), date, name: name.trim() }].sort((a, b) => a.date.localeCompare(b.date)));
    setDate('');
    setName('');
  };
  const addNational = () => {
    const { rows, added } = withNationalHolidays(holidays, todayIn(timeZone), optional);
    onChange(rows);
    showToast({
      tone: added ? 'success' : 'info',
      title: added ? `${added} ${added === 1 ? 'feriado adicionado' : 'feriados adicionados'}` : 'Nenhum feriado novo',
      message: added ? 'Salve para guardar a lista.' : 'Os feriados nacionais até o fim do ano que vem já estão na lista.',
    });
  };

  return (
    <div className="space-y-4">
      {holidays.length === 0 ? (
        <p className="text-sm text-fg-muted">Nenhum feriado cadastrado. Nos feriados a empresa fica fechada o dia todo.</p>
      ) : (
        <ul className="divide-y divide-border rounded-xl border border-border" aria-label="Feriados">
          {holidays.map((h) => {
            const error = errors[`${h.key}.date`] ?? errors[`${h.key}.name`];
            return (
              <li key={h.key} className="flex items-center gap-3 px-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="text-sm text-fg">
                    <span className="font-medium tabular-nums">{shownDate(h.date)}</span> · {h.name}
                  </p>
                  {error ? (
                    <p className="text-xs font-medium text-danger" role="alert">
                      {error}
                    </p>
                  ) : null}
                </div>
                {readOnly ? null : (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remover o feriado ${h.name} (${shownDate(h.date)})`}
                    onClick={() => onChange(holidays.filter((x) => x.key !== h.key))}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {readOnly ? null : (
        <>
          <div className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-start">
            <InputField id="holiday-date" label="Data" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={draftError.date} />
            <InputField
              id="holiday-name"
              label="Nome do feriado"
              value={name}
              maxLength={60}
              onChange={(e) => setName(e.target.value)}
              error={draftError.name}
              placeholder="Aniversário da cidade"
            />
            <Button variant="outline" className="sm:mt-7" onClick={add}>
              <Plus className="size-4" aria-hidden="true" /> Adicionar
            </Button>
          </div>
          <div className="flex flex-wrap items-center gap-3 rounded-xl bg-bg-subtle px-3 py-3">
            <Button variant="secondary" size="sm" onClick={addNational}>
              <CalendarPlus className="size-4" aria-hidden="true" /> Adicionar feriados nacionais
            </Button>
            <CheckboxField
              id="holiday-optional"
              label="Incluir pontos facultativos (Carnaval e Corpus Christi)"
              checked={optional}
              onChange={(e) => setOptional(e.target.checked)}
            />
          </div>
        </>
      )}
    </div>
  );
}
