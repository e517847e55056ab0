import { useRef } from 'react';
import { automationVariables } from '#contracts/automations.ts';
import { TextareaField } from '#web/components/ui/field.tsx';

/**
 * An automated message's text with the variables it may use as chips: a chip puts its
 * `{{variável}}` where the cursor is (at the end when the field was never focused).
 */
export function MessageField({
  id,
  label,
  value,
  error,
  disabled,
  rows = 3,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  error?: string;
  disabled?: boolean;
  rows?: number;
  onChange: (value: string) => void;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const insert = (name: string) => {
    const tag = `{{${name}}}`;
    const field = ref.current;
    const start = field?.selectionStart ?? value.length;
    const end = field?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + tag + value.slice(end));
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(start + tag.length, start + tag.length);
    });
  };
  return (
    <div className="space-y-2">
      <TextareaField
        ref={ref}
        id={id}
        label={label}
        value={value}
        rows={rows}
        disabled={disabled}
        error={error}
        className="min-h-20"
        onChange={(e) => onChange(e.target.value)}
      />
      {disabled ? null : (
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-xs text-fg-muted">Inserir:</span>
          {Object.entries(automationVariables).map(([name, description]) => (
            <button
              key={name}
              type="button"
              title={description}
              aria-label={`Inserir {{${name}}} (${description})`}
              onClick={() => insert(name)}
              className="rounded-full border border-border bg-surface-2 px-2 py-0.5 font-mono text-xs text-fg-muted hover:border-brand hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
            >
              {`{{${name}}}`}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
