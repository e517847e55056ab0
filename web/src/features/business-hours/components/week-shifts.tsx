import { Copy, Plus, Trash2 } from 'lucide-react';
import { weekdayLabels } from '#contracts/business-hours.ts';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { type FieldErrors, newKey, type ShiftRow, weekOrder } from '#web/features/business-hours/hours-form.ts';

const timeClass = (error: string | undefined) =>
  cn(
    'h-10 w-full min-w-0 rounded-lg border bg-surface px-3 text-sm text-fg tabular-nums focus-visible:outline-2 focus-visible:outline-ring disabled:bg-surface-2 disabled:text-fg-muted',
    error ? 'border-danger' : 'border-border-strong',
  );

const day = (weekday: number) => weekdayLabels[weekday]!.toLowerCase();
/** 'na segunda-feira', 'no sábado'. */
const onDay = (weekday: number) => `${weekday === 0 || weekday === 6 ? 'no' : 'na'} ${day(weekday)}`;

/**
 * A week of shifts, Monday first: each day its shifts (start and end typed as times; '00:00' as an
 * end is midnight), 'Adicionar turno', and 'Fechado' when it has none. `errors` are keyed by
 * `<row key>.start|end` (hours-form.ts's `rowErrors`).
 */
export function WeekShifts({
  idPrefix,
  shifts,
  errors,
  readOnly,
  onChange,
  owner,
}: {
  /** Whose week, in every control's name when it is not the company's ('Plantão'): names stay unique on the page. */
  owner?: string;
  idPrefix: string;
  shifts: ShiftRow[];
  errors: FieldErrors;
  readOnly: boolean;
  /** The new shifts, and the row that changed (its messages go). */
  onChange: (shifts: ShiftRow[], changed?: string) => void;
}) {
  const update = (key: string, change: Partial<ShiftRow>) =>
    onChange(
      shifts.map((s) => (s.key === key ? { ...s, ...change } : s)),
      key,
    );
  const add = (weekday: number) => {
    const last = shifts.filter((s) => s.weekday === weekday).at(-1);
    const start = last ? last.end : '08:00';
    onChange([...shifts, { key: newKey(), weekday, start, end: last ? (start < '18:00' ? '18:00' : '00:00') : '18:00' }]);
  };
  const copyMonday = () => {
    const monday = shifts.filter((s) => s.weekday === 1);
    const others = shifts.filter((s) => s.weekday === 0 || s.weekday === 6);
    onChange([...monday, ...[2, 3, 4, 5].flatMap((weekday) => monday.map((s) => ({ ...s, key: newKey(), weekday }))), ...others]);
  };
  const hasMonday = shifts.some((s) => s.weekday === 1);

  return (
    <div className="space-y-3">
      <ul className="divide-y divide-border rounded-xl border border-border">
        {weekOrder.map((weekday) => {
          const rows = shifts.filter((shift) => shift.weekday === weekday).map((shift) => ({ shift }));
          return (
            <li key={weekday} className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-start sm:gap-4" data-testid={`${idPrefix}-day-${weekday}`}>
              <p className="w-36 shrink-0 pt-2 text-sm font-medium text-fg">{weekdayLabels[weekday]}</p>
              <div className="min-w-0 flex-1 space-y-2">
                {rows.length === 0 ? <p className="pt-2 text-sm text-fg-muted">Fechado</p> : null}
                {rows.map(({ shift }, n) => {
                  const startError = errors[`${shift.key}.start`];
                  const endError = errors[`${shift.key}.end`];
                  const id = `${idPrefix}-${shift.key}`;
                  const label = `turno ${n + 1} de ${day(weekday)}${owner ? ` (${owner})` : ''}`;
                  return (
                    <div key={shift.key} className="space-y-1">
                      <div className="grid max-w-sm grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_2.5rem] items-center gap-2">
                        <input
                          id={`${id}-start`}
                          type="time"
                          aria-label={`Início do ${label}`}
                          className={timeClass(startError)}
                          value={shift.start}
                          disabled={readOnly}
                          aria-invalid={startError ? true : undefined}
                          aria-describedby={startError ? `${id}-start-error` : undefined}
                          onChange={(e) => update(shift.key, { start: e.target.value })}
                        />
                        <span className="text-sm text-fg-muted" aria-hidden="true">
                          às
                        </span>
                        <input
                          id={`${id}-end`}
                          type="time"
                          aria-label={`Fim do ${label}`}
                          className={timeClass(endError)}
                          value={shift.end}
                          disabled={readOnly}
                          aria-invalid={endError ? true : undefined}
                          aria-describedby={endError ? `${id}-end-error` : undefined}
                          onChange={(e) => update(shift.key, { end: e.target.value })}
                        />
                        {readOnly ? null : (
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Remover ${label}`}
                            onClick={() =>
                              onChange(
                                shifts.filter((s) => s.key !== shift.key),
                                shift.key,
                              )
                            }
                          >
                            <Trash2 className="size-4" aria-hidden="true" />
                          </Button>
                        )}
                      </div>
                      {startError ? (
                        <p id={`${id}-start-error`} className="text-xs font-medium text-danger" role="alert">
                          {startError}
                        </p>
                      ) : null}
                      {endError ? (
                        <p id={`${id}-end-error`} className="text-xs font-medium text-danger" role="alert">
                          {endError}
                        </p>
                      ) : null}
                    </div>
                  );
                })}
                {readOnly ? null : (
                  <Button
                    variant="link"
                    size="sm"
                    className="h-8 px-0"
                    onClick={() => add(weekday)}
                    aria-label={`Adicionar turno ${onDay(weekday)}${owner ? ` (${owner})` : ''}`}
                  >
                    <Plus className="size-4" aria-hidden="true" /> Adicionar turno
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {readOnly ? null : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-fg-muted">Use 00:00 como fim para ir até a meia-noite. Para atravessar a meia-noite, cadastre um turno em cada dia.</p>
          <Button variant="outline" size="sm" onClick={copyMonday} disabled={!hasMonday}>
            <Copy className="size-4" aria-hidden="true" /> Copiar segunda-feira para terça a sexta
            {owner ? <span className="sr-only"> ({owner})</span> : null}
          </Button>
        </div>
      )}
    </div>
  );
}
