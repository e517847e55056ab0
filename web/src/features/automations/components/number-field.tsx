import { InputField } from '#web/components/ui/field.tsx';

/** A whole number typed in a field; blank is NaN (the schema answers 'Campo obrigatório' when it matters). */
export function NumberField({
  id,
  label,
  value,
  error,
  disabled,
  hint,
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  error?: string;
  disabled?: boolean;
  hint?: string;
  onChange: (value: number) => void;
}) {
  return (
    <InputField
      id={id}
      label={label}
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      value={Number.isNaN(value) ? '' : value}
      disabled={disabled}
      error={error}
      hint={hint}
      containerClassName="sm:max-w-xs"
      onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
    />
  );
}
