import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import type { BusinessHoursAnswer } from '#contracts/business-hours.ts';
import { Button } from '#web/components/ui/button.tsx';
import { SelectField } from '#web/components/ui/field.tsx';
import { Alert, Badge, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useAllDepartments } from '#web/api/departments.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useBusinessHours, useSaveBusinessHours } from '#web/features/business-hours/api/business-hours.ts';
import { checkForm, errorsOf, type FieldErrors, type HoursForm, newKey, rowErrors, toForm, withoutRow } from '#web/features/business-hours/hours-form.ts';
import { timeZoneChoices } from '#web/features/business-hours/time-zones.ts';
import { HolidaysList } from './holidays-list.tsx';
import { WeekShifts } from './week-shifts.tsx';

/** 'Aberto agora' or 'Fechado agora · abre sex., 28/11 às 08:00', in the account's zone. */
export function nowText(now: BusinessHoursAnswer['now'], timeZone: string): string {
  if (now.open) return 'Aberto agora';
  if (!now.opensAt) return 'Fechado: nenhum turno cadastrado';
  const at = new Date(now.opensAt);
  const dayPart = new Intl.DateTimeFormat('pt-BR', { timeZone, weekday: 'short', day: '2-digit', month: '2-digit' }).format(at);
  const time = new Intl.DateTimeFormat('pt-BR', { timeZone, hour: '2-digit', minute: '2-digit' }).format(at);
  return `Fechado agora · abre ${dayPart} às ${time}`;
}

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card className="space-y-4 p-4 sm:p-6">
      <div>
        <h2 className="text-base font-semibold text-fg">{title}</h2>
        <p className="mt-0.5 text-sm text-fg-muted">{description}</p>
      </div>
      {children}
    </Card>
  );
}

/**
 * 'Horário de atendimento' (/business-hours): the account's zone, weekly shifts, holidays and the
 * departments with hours of their own, saved whole by an admin; members see them read only. The
 * automated messages read these hours (docs/conversation-lifecycle.md).
 */
export function BusinessHoursScreen() {
  const { user } = useSession();
  const isAdmin = !!user?.isAdmin;
  const hours = useBusinessHours();
  const save = useSaveBusinessHours();
  const departments = useAllDepartments();
  const [form, setForm] = useState<HoursForm | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [adding, setAdding] = useState('');

  // The form starts from the answer once; a save replaces it with what was stored.
  useEffect(() => {
    if (hours.data && !form) setForm(toForm(hours.data));
  }, [hours.data, form]);

  const active = useMemo(() => (departments.data?.data ?? []).filter((d) => !d.archivedAt), [departments.data]);
  const nameOf = (id: string) => (departments.data?.data ?? []).find((d) => d.id === id)?.name ?? 'Departamento removido';

  if (hours.isError) return <Alert tone="danger">Não foi possível carregar o horário de atendimento.</Alert>;
  if (!form || !hours.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
        <Spinner className="size-4 text-brand" /> Carregando...
      </p>
    );
  }

  /** A change to the form; the row it touched (or a field's path) loses its messages. */
  const change = (next: Partial<HoursForm>, changed?: string) => {
    setForm({ ...form, ...next });
    if (changed) setErrors((current) => withoutRow(current, changed));
  };
  const readOnly = !isAdmin;
  const withOwn = new Set(form.departments.map((d) => d.departmentId));
  const addable = active.filter((d) => !withOwn.has(d.id));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      showToast({ tone: 'error', title: 'Revise o horário', message: 'Alguns campos precisam de correção.' });
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(checked.payload);
      setForm(toForm(saved));
      showToast({ tone: 'success', title: 'Horário de atendimento salvo' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.details.length) {
        setErrors(rowErrors(form, errorsOf(error.details)));
        showToast({ tone: 'error', title: 'Revise o horário', message: 'Alguns campos precisam de correção.' });
      } else reportError(error);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={hours.data.now.open ? 'success' : 'neutral'}>{nowText(hours.data.now, hours.data.timeZone)}</Badge>
        {hours.data.saved ? null : <span className="text-xs text-fg-muted">Horário sugerido: ainda não foi salvo.</span>}
      </div>
      {readOnly ? <Alert tone="info">Só administradores podem alterar o horário de atendimento.</Alert> : null}

      <Section title="Fuso horário" description="Os turnos e feriados valem no fuso da empresa, onde quer que o servidor esteja.">
        <div className="sm:max-w-md">
          <SelectField
            id="business-hours-timeZone"
            label="Fuso horário"
            options={timeZoneChoices(form.timeZone)}
            value={form.timeZone}
            disabled={readOnly}
            onChange={(e) => change({ timeZone: e.target.value }, 'timeZone')}
            error={errors.timeZone}
          />
        </div>
      </Section>

      <Section title="Turnos da semana" description="Quando a equipe atende. Um dia pode ter vários turnos, como 08:00 às 12:00 e 13:00 às 18:00.">
        <WeekShifts idPrefix="account" shifts={form.shifts} errors={errors} readOnly={readOnly} onChange={(shifts, row) => change({ shifts }, row)} />
      </Section>

      <Section title="Feriados" description="Dias em que a empresa fica fechada o dia todo. Cadastre também os feriados do seu estado e da sua cidade.">
        <HolidaysList holidays={form.holidays} timeZone={form.timeZone} errors={errors} readOnly={readOnly} onChange={(holidays) => change({ holidays })} />
      </Section>

      <Section
        title="Horário por departamento"
        description="Departamentos que atendem em outro horário, como um plantão. Os demais seguem os turnos acima; o fuso e os feriados valem para todos."
      >
        {form.departments.length === 0 ? <p className="text-sm text-fg-muted">Todos os departamentos seguem o horário da empresa.</p> : null}
        {form.departments.map((department, i) => (
          <div key={department.key} className="space-y-3 rounded-xl bg-bg-subtle p-3" data-testid="department-hours">
            <div className="flex items-center justify-between gap-2">
              <h3 className="text-sm font-semibold text-fg">{nameOf(department.departmentId)}</h3>
              {readOnly ? null : (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => change({ departments: form.departments.filter((d) => d.key !== department.key) })}
                  aria-label={`Remover o horário próprio de ${nameOf(department.departmentId)}`}
                >
                  <Trash2 className="size-4" aria-hidden="true" /> Remover
                </Button>
              )}
            </div>
            {errors[`${department.key}.departmentId`] ? (
              <p className="text-xs font-medium text-danger" role="alert">
                {errors[`${department.key}.departmentId`]}
              </p>
            ) : null}
            <WeekShifts
              owner={nameOf(department.departmentId)}
              idPrefix={`department-${i}`}
              shifts={department.shifts}
              errors={errors}
              readOnly={readOnly}
              onChange={(shifts, row) => change({ departments: form.departments.map((d) => (d.key === department.key ? { ...d, shifts } : d)) }, row)}
            />
          </div>
        ))}
        {readOnly || addable.length === 0 ? null : (
          <div className="flex flex-wrap items-end gap-2">
            <SelectField
              id="business-hours-add-department"
              label="Departamento"
              placeholder="Escolha um departamento"
              options={addable.map((d) => ({ value: d.id, label: d.name }))}
              value={adding}
              onChange={(e) => setAdding(e.target.value)}
              className="min-w-56"
            />
            <Button
              variant="outline"
              disabled={!adding}
              onClick={() => {
                change({
                  departments: [...form.departments, { key: newKey(), departmentId: adding, shifts: form.shifts.map((s) => ({ ...s, key: newKey() })) }],
                });
                setAdding('');
              }}
            >
              <Plus className="size-4" aria-hidden="true" /> Dar horário próprio
            </Button>
          </div>
        )}
      </Section>

      {readOnly ? null : (
        <div className="sticky bottom-0 -mx-4 flex justify-end border-t border-border bg-bg/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
          <Button type="submit" loading={save.isPending}>
            Salvar horário
          </Button>
        </div>
      )}
    </form>
  );
}
