import { CheckboxField, InputField, SelectField } from '#web/components/ui/field.tsx';
import { type ReportPeriod, type ReportPreset, presetLabels } from '#web/features/reports/report-period.ts';

/** 'Período' with its presets, 'De' and 'Até' for one's own dates, and 'Comparar com o período anterior'. */
export function PeriodPicker({
  preset,
  period,
  compare,
  error,
  onPreset,
  onPeriod,
  onCompare,
}: {
  preset: ReportPreset;
  period: ReportPeriod;
  compare: boolean;
  error: string | null;
  onPreset: (preset: ReportPreset) => void;
  onPeriod: (period: ReportPeriod) => void;
  onCompare: (compare: boolean) => void;
}) {
  return (
    <fieldset className="grid gap-3 sm:grid-cols-[minmax(12rem,16rem)_auto] sm:items-end">
      <legend className="sr-only">Período do relatório</legend>
      <SelectField
        id="report-preset"
        label="Período"
        value={preset}
        options={(Object.keys(presetLabels) as ReportPreset[]).map((value) => ({ value, label: presetLabels[value] }))}
        onChange={(e) => onPreset(e.target.value as ReportPreset)}
      />
      {preset === 'custom' ? (
        <div className="grid grid-cols-2 gap-3 sm:max-w-md">
          <InputField
            id="report-from"
            type="date"
            label="De"
            value={period.from}
            error={error ?? undefined}
            onChange={(e) => onPeriod({ ...period, from: e.target.value })}
          />
          <InputField id="report-to" type="date" label="Até" value={period.to} onChange={(e) => onPeriod({ ...period, to: e.target.value })} />
        </div>
      ) : (
        <span />
      )}
      <CheckboxField
        id="report-compare"
        label="Comparar com o período anterior"
        checked={compare}
        onChange={(e) => onCompare(e.target.checked)}
        className="sm:col-span-2"
      />
    </fieldset>
  );
}
